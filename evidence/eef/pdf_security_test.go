package eef

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
)

// capturePDF runs a PDF through the real chain: capture (the embedded
// PDFium and the file's objects), normalize and graph.
func capturePDF(t *testing.T, data []byte) *graph.Record {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	cr := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
	if cr.PDF == nil {
		t.Fatalf("capture read no PDF: %+v", cr.Error)
	}
	n, err := normalize.Normalize(&cr)
	if err != nil {
		t.Fatal(err)
	}
	return graph.Build(n)
}

// TestPDFJavaScriptURILink: a link whose URI action is a javascript: URL
// (any case, leading blanks) runs script in a viewer that follows it: a
// javascript_link finding with the severity of every PDF JavaScript
// finding, counted as an action, not an info-level external link.
func TestPDFJavaScriptURILink(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCreationDate(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f.SetModificationDate(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f.SetFont("Helvetica", "", 12)
	f.AddPage()
	f.Text(72, 100, "Open the report")
	f.LinkString(72, 88, 90, 16, "javascript:app.alert('x')")
	f.Text(72, 140, "Also this one")
	f.LinkString(72, 128, 90, 16, " JavaScript:app.launchURL('https://evil.example')")
	f.Text(72, 180, "The project site")
	f.LinkString(72, 168, 90, 16, "https://example.com/site")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	b, files := build(t, capturePDF(t, buf.Bytes()))
	validateBundle(t, files)
	var js, ext []Finding
	for _, fd := range b.Security.Findings {
		switch fd.Code {
		case FindingJavaScriptLink:
			js = append(js, fd)
		case FindingExternalLink:
			ext = append(ext, fd)
		}
	}
	if len(js) != 2 || len(ext) != 1 || ext[0].Evidence.URI != "https://example.com/site" {
		t.Fatalf("javascript links %+v, external links %+v: want the two javascript: URLs as javascript_link, the site as external_link", js, ext)
	}
	for _, fd := range js {
		if fd.Severity != "warning" || fd.Evidence.PageRef != "p0001" || len(fd.Evidence.BBox) != 4 || fd.Evidence.Reason != "javascript_uri" {
			t.Errorf("javascript: link finding %+v: want severity warning, page p0001, a box, reason javascript_uri", fd)
		}
	}
	inv := b.Security.Inventory
	if inv.Links != 3 || inv.ExternalLinks != 1 || inv.Actions == nil || *inv.Actions != 2 {
		t.Errorf("inventory links %d, external %d, actions %v: want 3, 1, 2", inv.Links, inv.ExternalLinks, deref(inv.Actions))
	}
}
