package anchor

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

// TestPDFCorpusEvidence: every real-world sample PDF gives an EEF bundle
// that validates and that both grounding adapters load — which checks that
// every element, cell and region lies on a page of known size.
func TestPDFCorpusEvidence(t *testing.T) {
	files := pdftest.CorpusFiles(t)
	c := capture.New(capture.DefaultOptions())
	defer c.Close()
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		abs, _ := filepath.Abs(f)
		cr := c.Capture(context.Background(), capture.Target{URL: "file://" + abs, Path: abs})
		n, err := normalize.Normalize(&cr)
		if err != nil {
			t.Errorf("%s: normalize: %v", name, err)
			continue
		}
		checkCorpusBundle(t, name, graph.Build(n))
	}
}

func checkCorpusBundle(t *testing.T, name string, rec *graph.Record) {
	t.Helper()
	b, err := eef.Build(rec, eef.DefaultConfig())
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	files, err := b.Files()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	for f, s := range map[string]string{eef.FileDocument: "ethos-document", eef.FileSecurityReport: "ethos-security-report"} {
		if err := schemas.Validate(s, files[f]); err != nil {
			t.Errorf("%s %s: %v", name, f, err)
		}
	}
	if b.Document.Source.MediaType != eef.MediaPDF {
		t.Errorf("%s: media type %q", name, b.Document.Source.MediaType)
	}
	doc, err := c14n.Marshal(b.Document)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ground.FromEthos(doc); err != nil {
		t.Errorf("%s: document.ethos.json is no valid grounding source: %v", name, err)
	}
	line, err := codec.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ground.FromGraph(line); err != nil {
		t.Errorf("%s: the graph is no valid grounding source: %v", name, err)
	}
}
