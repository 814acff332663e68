package pdf

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// withReaders parses data with n readers (n > 1 needs a pool that big:
// the engine is restarted with one) and parallel reading from 2 pages.
func withReaders(t *testing.T, n int, data []byte) (*Document, error) {
	t.Helper()
	defer func(r, p int) { maxReaders, parallelPages = r, p }(maxReaders, parallelPages)
	maxReaders, parallelPages = n, 2
	return Parse(data)
}

// restart stops the engine so that the next Parse starts one with a pool
// of maxReaders instances.
func restart(t *testing.T, n int) {
	t.Helper()
	if err := Close(); err != nil {
		t.Fatal(err)
	}
	defer func(r int) { maxReaders = r }(maxReaders)
	maxReaders = n
	if _, err := Parse([]byte("%PDF-")); err == nil {
		t.Fatal("a header alone parsed")
	}
	engMu.Lock()
	defer engMu.Unlock()
	if eng == nil || eng.size != n {
		t.Fatalf("the engine did not restart with %d instances", n)
	}
}

// TestParallelSameAsSequential reads every test document, the corpus and
// a long generated one with one reader and with three: the same Document.
func TestParallelSameAsSequential(t *testing.T) {
	docs, err := pdftest.All()
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, pdftest.Doc{Name: "long", PDF: longDoc(t, 9)})
	for _, f := range pdftest.CorpusFiles(t) {
		if f == bookPath() && testing.Short() {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, pdftest.Doc{Name: filepath.Base(f), PDF: data})
	}
	restart(t, 3)
	defer Close()
	for _, d := range docs {
		one, oneErr := withReaders(t, 1, d.PDF)
		three, threeErr := withReaders(t, 3, d.PDF)
		if (oneErr == nil) != (threeErr == nil) || oneErr != nil && oneErr.Error() != threeErr.Error() {
			t.Errorf("%s: errors differ: one reader %v, three %v", d.Name, oneErr, threeErr)
			continue
		}
		if !reflect.DeepEqual(one, three) {
			t.Errorf("%s: one reader and three read different documents", d.Name)
		}
	}
	engMu.Lock()
	defer engMu.Unlock()
	if len(eng.helpers) != 2 {
		t.Errorf("%d helper instances, want 2", len(eng.helpers))
	}
}

// TestParallelLimits: with three readers the document budget is spent in
// page order, as one reader does, however the pages were shared out.
func TestParallelLimits(t *testing.T) {
	data := longDoc(t, 8)
	restart(t, 3)
	defer Close()
	defer func(l struct{ pages, pageChars, docChars int }) { limits = l }(limits)
	limits.pages, limits.pageChars, limits.docChars = 7, 1000, 2500
	for range 3 {
		doc, err := withReaders(t, 3, data)
		if err != nil {
			t.Fatal(err)
		}
		p := doc.Pages
		var got []int
		for _, pg := range p {
			got = append(got, len(pg.Chars))
		}
		want := []int{1000, 1000, 500, 0, 0, 0, 0, 0}
		if !reflect.DeepEqual(got, want) ||
			!strings.Contains(p[0].Err, "cut after 1000") || !strings.Contains(p[1].Err, "cut after 1000") ||
			!strings.Contains(p[2].Err, "first 2500 characters") || !strings.Contains(p[6].Err, "first 2500 characters") ||
			!strings.Contains(p[7].Err, "more than 7 pages") {
			for _, pg := range p {
				t.Logf("page %d: %d chars, err %q", pg.Index, len(pg.Chars), pg.Err)
			}
			t.Fatalf("characters per page %v, want %v", got, want)
		}
	}
}
