package capture

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"
)

// Target is one thing to capture: an http(s) URL or a local file.
type Target struct {
	URL    string // the http(s) URL, or file:// + absolute path for a local file
	Path   string // the local file's absolute path; "" for a URL
	Object bool   // the input line was a JSON object whose other fields pass through
}

// ErrLocalTarget is the error of a local path or file:// URL given where
// local files are not allowed.
var ErrLocalTarget = errors.New("not an http(s) URL (local paths and file:// URLs are not allowed here)")

// ParseTarget reads one input line: a bare http(s) URL, a local file path
// (or file:// URL), or a JSON object whose "url" is one of those. A line that
// names nothing capture can fetch is an error.
func ParseTarget(line []byte) (Target, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return Target{}, errors.New("empty line")
	}
	switch line[0] {
	case '{':
		return parseObject(line)
	case '[', '"':
		if gjson.ValidBytes(line) {
			return Target{}, errors.New(`JSON input must be an object with a "url"`)
		}
	}
	return parseRef(string(line), true)
}

// ParseURL reads one url value (never a JSON line) as ParseTarget reads an
// object's "url". With allowLocal false, a value that would name a local
// file (a path, a file:// URL of any host) is ErrLocalTarget, decided from
// the text alone: the file system is not looked at, so the refusal tells
// nothing of which files exist. For a caller driven by someone else (an
// agent over MCP), where reading the host's disk is not the caller's to ask.
func ParseURL(s string, allowLocal bool) (Target, error) {
	return parseRef(s, allowLocal)
}

func parseObject(line []byte) (Target, error) {
	if !gjson.ValidBytes(line) {
		return Target{}, errors.New("malformed JSON")
	}
	v := gjson.GetBytes(line, "url")
	if !v.Exists() {
		return Target{}, errors.New(`JSON object has no "url"`)
	}
	if v.Type != gjson.String {
		return Target{}, errors.New(`"url" is not a string`)
	}
	t, err := parseRef(v.Str, true)
	t.Object = true
	return t, err
}

// parseRef reads a URL or a path; a path or file:// URL only when local.
func parseRef(s string, local bool) (Target, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Target{}, errors.New("empty url")
	}
	u, err := url.Parse(s)
	if err != nil {
		if strings.Contains(s, "://") {
			return Target{}, fmt.Errorf("invalid URL: %w", err)
		}
		return localTarget(s, local)
	}
	// A one-letter "scheme" is a drive letter or a path, never a URL.
	if len(u.Scheme) < 2 {
		return localTarget(s, local)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return webTarget(u)
	case "file":
		if !local {
			return Target{}, ErrLocalTarget
		}
		if u.Host != "" && u.Host != "localhost" {
			return Target{}, fmt.Errorf("file URL names a remote host %q", u.Host)
		}
		return fileTarget(u.Path)
	}
	return Target{}, fmt.Errorf("unsupported URL scheme %q (want http, https or a local file)", u.Scheme)
}

func webTarget(u *url.URL) (Target, error) {
	if u.Hostname() == "" {
		return Target{}, fmt.Errorf("URL %q has no host", u.String())
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	return Target{URL: u.String()}, nil
}

func localTarget(p string, local bool) (Target, error) {
	if !local {
		return Target{}, ErrLocalTarget
	}
	return fileTarget(p)
}

func fileTarget(p string) (Target, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return Target{}, fmt.Errorf("not an http(s) URL or a usable path: %q: %w", p, err)
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Target{}, fmt.Errorf("not an http(s) URL or an existing file: %q", p)
		}
		return Target{}, fmt.Errorf("not an http(s) URL or a usable file: %w", err)
	}
	return Target{URL: fileURL(abs), Path: abs}, nil
}

func fileURL(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
