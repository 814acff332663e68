package render

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/blob"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// writeEvidence renders the EEF bundle of rec (evidence/eef) into the
// artifact's evidence/ directory, each file written as it is made (put
// whole, stream through a function), and returns the document
// fingerprint. document.md is rendered here, with index.md's escaping.
// The source bytes join the bundle (source.html or source.pdf) when the
// capture's blob store, blobs, holds them; source.json says where they
// are either way.
func writeEvidence(rec *graph.Record, blobs string, put func(...file) error, stream func(string, func(io.Writer) error) error) (string, error) {
	b, err := eef.BuildLean(rec, eef.DefaultConfig())
	if err != nil {
		return "", err
	}
	// The files in the order they always had: document, chunks, security
	// report, document.md, document.txt, profile.
	err = b.Write(func(name string, write func(io.Writer) error) error {
		if name == eef.FileText {
			if err := put(file{path.Join(eef.Dir, eef.FileMarkdown), DocumentMarkdown(rec)}); err != nil {
				return err
			}
		}
		return stream(path.Join(eef.Dir, name), write)
	})
	if err != nil {
		return "", err
	}
	src, note := sourceBytes(blobs, rec.SourceFingerprint)
	ptr, err := c14n.Marshal(eef.Pointer(b.Document, src != nil, note))
	if err != nil {
		return "", err
	}
	files := []file{{path.Join(eef.Dir, eef.FileSource), append(ptr, '\n')}}
	if src != nil {
		files = append(files, file{path.Join(eef.Dir, eef.SourceFileName(b.Document)), src})
	}
	return b.Document.Fingerprint, put(files...)
}

// sourceBytes are the bytes with source fingerprint fp from the blob
// store at blobs (capture --blobs), checked against fp by blob.Get; nil,
// with the reason, when there are none to give.
func sourceBytes(blobs, fp string) ([]byte, string) {
	const kept = "capture --blobs DIR keeps them, and sieve-render --blobs DIR (sieve distill --blobs DIR) puts them in the bundle"
	switch {
	case fp == "":
		return nil, "no body was received, so there are no source bytes"
	case blobs == "":
		return nil, "the source bytes are not in this bundle: " + kept
	}
	if st, err := os.Stat(blobs); err != nil || !st.IsDir() {
		return nil, "the source bytes are not in this bundle: the blob store given is not a directory"
	}
	store, err := blob.Open(blobs)
	if err != nil {
		return nil, "the source bytes are not in this bundle: " + err.Error()
	}
	b, err := store.Get(fp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "the source bytes are not in this bundle: the blob store given does not hold them (" + kept + ")"
	case err != nil:
		return nil, "the source bytes are not in this bundle: " + err.Error()
	}
	return b, ""
}

// DocumentMarkdown is evidence/document.md: the untrusted-content notice,
// the title and the content blocks of index.md, without front matter,
// navigation or audit. Like every chunk, it never carries latent text.
func DocumentMarkdown(rec *graph.Record) []byte {
	m := &mdWriter{}
	m.para(mdNotice(rec))
	m.para("# " + headingText(titleOr(rec.Title)))
	m.content(newView(rec))
	return []byte(m.String())
}
