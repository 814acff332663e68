package render

import (
	"path"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/eef"
)

// evidenceFiles renders the EEF bundle of rec (internal/eef) into the
// artifact's evidence/ directory and returns its files and the document
// fingerprint. document.md is rendered here, with index.md's escaping.
func evidenceFiles(rec *graph.Record) ([]file, string, error) {
	b, err := eef.Build(rec, eef.DefaultConfig())
	if err != nil {
		return nil, "", err
	}
	m, err := b.Files()
	if err != nil {
		return nil, "", err
	}
	m[eef.FileMarkdown] = DocumentMarkdown(rec)
	var files []file
	for _, name := range []string{eef.FileDocument, eef.FileChunks, eef.FileSecurityReport, eef.FileMarkdown, eef.FileText, eef.FileProfile} {
		files = append(files, file{path.Join(eef.Dir, name), m[name]})
	}
	return files, b.Document.Fingerprint, nil
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
