package capture

import (
	"io"
	"mime"
	"os"
	"path/filepath"
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
	body, err := io.ReadAll(io.LimitReader(f, c.opts.MaxBytes+1))
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
	mt, _, err := mime.ParseMediaType(mime.TypeByExtension(filepath.Ext(path)))
	if err != nil {
		return ""
	}
	return mt
}
