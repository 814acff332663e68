package sieve

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/render"
)

// textWriter turns the artifact lines of `sieve distill --format text` into
// the text of each artifact (its index.txt). Any other line (an error
// record) goes to errs, so nothing is lost.
type textWriter struct {
	out, errs io.Writer
	buf       []byte
}

func (w *textWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := w.buf[:i+1]
		if err := w.line(line); err != nil {
			return 0, err
		}
		w.buf = w.buf[i+1:]
	}
}

// Flush handles a last line without a newline.
func (w *textWriter) Flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	err := w.line(w.buf)
	w.buf = nil
	return err
}

func (w *textWriter) line(line []byte) error {
	var a render.Artifact
	if err := codec.Unmarshal(bytes.TrimSpace(line), &a); err != nil || a.Record != record.KindArtifact {
		_, err := w.errs.Write(line)
		return err
	}
	text, err := os.ReadFile(filepath.Join(a.Dir, render.FileText))
	if err != nil {
		return fmt.Errorf("reading the text of %s: %w", a.URL, err)
	}
	_, err = w.out.Write(text)
	return err
}
