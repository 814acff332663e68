package capture

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/schemas"
)

// TestPDFCorpusOneRecordEach runs every real-world sample PDF through the
// capture stage as a batch: each path gives exactly one capture record, in
// order, that validates and either carries the pages or says, as a pdf
// error, why it could not be read — no crash, no hang.
func TestPDFCorpusOneRecordEach(t *testing.T) {
	t.Parallel() // all CPU (PDFium's wasm): it overlaps the render tests' waits
	files := pdftest.CorpusFiles(t)
	cp := New(Options{Concurrency: 2})
	defer cp.Close()
	in := strings.Join(files, "\n") + "\n"
	var out, errs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := jsonl.Run(ctx, strings.NewReader(in), &out, &errs, cp.Stage()); err != nil {
		t.Fatalf("run: %v\n%s", err, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(files) {
		t.Fatalf("%d records for %d files", len(lines), len(files))
	}
	read := 0
	for i, l := range lines {
		name := filepath.Base(filepath.Dir(files[i]))
		if err := schemas.ValidateRecord([]byte(l)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if want, ok := corpusFacts[name]; ok && !gjson.Get(l, want).Exists() {
			t.Errorf("%s: no %s in the record", name, want)
		}
		switch {
		case gjson.Get(l, "pdf.page_count").Int() > 0:
			read++
		case gjson.Get(l, "error.kind").String() == ErrPDF:
			t.Logf("%s: %s", name, gjson.Get(l, "error.message").String())
		default:
			t.Errorf("%s: neither pages nor a pdf error: %.300s", name, l)
		}
	}
	// Two samples are expected to be refused with a clear pdf error: the
	// encrypted one (005) and the one with a broken xref (017), which PDFium
	// does not reconstruct (poppler does, and finds no text in it).
	if read < len(files)-2 {
		t.Errorf("read %d of %d PDFs; only the encrypted and the broken-xref samples may fail", read, len(files))
	}
}

// corpusFacts are what the README says some samples hold, as gjson paths
// that must match in their records.
var corpusFacts = map[string]string{
	"006-pdflatex-outline":  "pdf.bookmarks.0.page",
	"009-pdflatex-geotopo":  `pdf.pages.#.links|@flatten|#(action=="uri")`,
	"010-pdflatex-forms":    `pdf.pages.0.annotations.#(subtype=="widget")`,
	"012-libreoffice-form":  `pdf.form`,
	"014-outlines":          `pdf.bookmarks.#(level==2)`,
	"016-libre-office-link": `pdf.pages.0.links.#(action=="uri").uri`,
	"024-annotations":       `pdf.pages.0.annotations.#(subtype=="highlight")`,
	"025-attachment":        `pdf.attachments.#(name=="image.png")`,
}
