package pdf

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// TestRawBinds checks that the direct wasm calls bind to the go-pdfium in
// go.mod: when an upgrade moves what rawText reaches for, the engine still
// works through the requests, but some three times slower, and this test
// says so.
func TestRawBinds(t *testing.T) {
	engMu.Lock()
	defer engMu.Unlock()
	e, err := getEngine()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bindRaw(e.inst); err != nil {
		t.Fatalf("bindRaw: %v", err)
	}
	if e.raw == nil {
		t.Fatal("the engine did not bind rawText")
	}
}

// TestRawSameAsRequests reads every test document, and the corpus when it
// is there, once with the direct calls and once through go-pdfium's
// requests: the two must give the same Document.
func TestRawSameAsRequests(t *testing.T) {
	docs, err := pdftest.All()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(pdftest.CorpusDir(), "*", "*.pdf"))
	for _, f := range files {
		if f == bookPath() && testing.Short() {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, pdftest.Doc{Name: filepath.Base(f), PDF: data})
	}
	for _, d := range docs {
		raw, rawErr := parseVia(t, d.PDF, true)
		req, reqErr := parseVia(t, d.PDF, false)
		if (rawErr == nil) != (reqErr == nil) || rawErr != nil && rawErr.Error() != reqErr.Error() {
			t.Errorf("%s: errors differ: direct %v, requests %v", d.Name, rawErr, reqErr)
			continue
		}
		if !reflect.DeepEqual(raw, req) {
			t.Errorf("%s: the direct calls and the requests read different documents", d.Name)
		}
	}
}

// parseVia parses data with the direct calls (raw) or without them.
func parseVia(t *testing.T, data []byte, raw bool) (*Document, error) {
	t.Helper()
	engMu.Lock()
	defer engMu.Unlock()
	e, err := getEngine()
	if err != nil {
		t.Fatal(err)
	}
	if raw && e.raw == nil {
		t.Fatal("rawText is not bound")
	}
	if !raw {
		e.raw = nil // renew binds it again
	}
	doc, err := e.parse(data, "")
	if err := e.renew(); err != nil {
		t.Fatal(err)
	}
	return doc, err
}
