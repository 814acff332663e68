package bench

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
)

// longPDF is the bench's long document: $SIEVE_PDF_BENCH when set, else
// the one make bench-pdf left in .bench/pdf/long.pdf, else printed now by
// Chromium from pdftest.LongHTML; the benchmark skips without Chromium.
func longPDF(b *testing.B) string {
	b.Helper()
	if p := os.Getenv("SIEVE_PDF_BENCH"); p != "" {
		return p
	}
	if p := filepath.Join("..", "..", ".bench", "pdf", "long.pdf"); fileExists(p) {
		return p
	}
	data, err := pdftest.PrintHTML("", pdftest.LongHTML(64))
	if err != nil {
		b.Skipf("no long PDF: %v", err)
	}
	p := filepath.Join(b.TempDir(), "long.pdf")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkPDFLong reads the long document per iteration: capture (PDFium
// in wasm: characters, words, lines, tags), normalize and graph, in
// process; pages/s counts the document's pages.
func BenchmarkPDFLong(b *testing.B) {
	path := longPDF(b)
	cp := capture.New(capture.DefaultOptions())
	defer cp.Close()
	t, err := capture.ParseTarget([]byte(path))
	if err != nil {
		b.Fatal(err)
	}
	rec := cp.Capture(context.Background(), t) // warms the engine
	if rec.Error != nil || rec.PDF == nil {
		b.Fatalf("capture: %+v", rec.Error)
	}
	pages := rec.PDF.PageCount
	b.Run("capture", func(b *testing.B) {
		perPage(b, pages, func() { cp.Capture(context.Background(), t) })
	})
	b.Run("normalize_graph", func(b *testing.B) {
		perPage(b, pages, func() { pdfNormalizeGraph(b, &rec) })
	})
	b.Run("all", func(b *testing.B) {
		perPage(b, pages, func() {
			r := cp.Capture(context.Background(), t)
			pdfNormalizeGraph(b, &r)
		})
	})
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func pdfNormalizeGraph(b *testing.B, rec *capture.Record) {
	n, err := normalize.Normalize(rec)
	if err != nil {
		b.Fatal(err)
	}
	graph.Build(n)
}
