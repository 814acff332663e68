package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/jsonl"
)

// captureFile reads a local file up to the cap. Its type comes from the
// extension, else from sniffing; there is no status, header or robots.txt.
func (c *Capturer) captureFile(rec *Record, path string) {
	f, err := os.Open(path)
	if err != nil {
		rec.Error = &Error{Kind: ErrFile, Message: err.Error()}
		return
	}
	defer f.Close()
	body, err := readFile(f, c.opts.MaxBytes+1)
	if err != nil {
		rec.Error = &Error{Kind: ErrFile, Message: err.Error()}
		return
	}
	truncated := int64(len(body)) > c.opts.MaxBytes
	if truncated {
		body = body[:c.opts.MaxBytes]
	}
	c.fillBody(rec, body, truncated, fileContentType(path))
}

// fileContentType is the media type the extension names, without
// parameters: a file carries no charset declaration of its own.
func fileContentType(path string) string {
	if mt, ok := commonTypes[strings.ToLower(filepath.Ext(path))]; ok {
		return mt
	}
	mt, _, err := mime.ParseMediaType(mime.TypeByExtension(filepath.Ext(path)))
	if err != nil {
		return ""
	}
	return mt
}

// commonTypes answers the usual extensions without mime.TypeByExtension,
// whose first call reads the system's mime.types files (about 4 % of the CPU
// time of a one-page `sieve distill`); the answers are the ones it gives
// (TestCommonTypesAsMime).
var commonTypes = map[string]string{
	".html": "text/html", ".htm": "text/html", ".xhtml": "application/xhtml+xml",
	".txt": "text/plain", ".pdf": "application/pdf",
}

// BaseURL makes st (capture's stage) give every capture of a local file
// base as its final_url, so that the page's relative links, canonical URL
// and <base href> resolve against the address the page was saved from
// (--base-url). It changes nothing else: the file was read from disk, and
// nothing is fetched from base.
func BaseURL(st jsonl.Stage, base string) jsonl.Stage {
	if base == "" {
		return st
	}
	inner := st.Transform
	quoted, _ := json.Marshal(base)
	st.Transform = func(ctx context.Context, line []byte) ([]byte, error) {
		out, err := inner(ctx, line)
		if err != nil || !strings.HasPrefix(gjson.GetBytes(out, "url").String(), "file:") {
			return out, err
		}
		f := gjson.GetBytes(out, "final_url")
		if !f.Exists() || f.Index <= 0 {
			return out, nil
		}
		b := make([]byte, 0, len(out)+len(quoted))
		b = append(append(append(b, out[:f.Index]...), quoted...), out[f.Index+len(f.Raw):]...)
		return b, nil
	}
	return st
}

// ParseBaseURL checks a --base-url value: an absolute http(s) URL.
func ParseBaseURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--base-url must be an absolute http(s) URL, not %q", s)
	}
	return u.String(), nil
}
