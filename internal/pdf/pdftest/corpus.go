package pdftest

import (
	"os"
	"path/filepath"
)

// TB is the part of testing.TB that CorpusFiles uses; pdftest does not
// import testing because cmd/sievepdfgen links it into a binary.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

// CorpusDir is the shared real-world PDF corpus, read where it lies and
// never copied into the repository: $SIEVE_BENCH_DIR/pdf-samples/pdfs
// when that is set, else ../shared/bench/pdf-samples/pdfs beside the
// module root (see that folder's README).
func CorpusDir() string {
	if d := os.Getenv("SIEVE_BENCH_DIR"); d != "" {
		return filepath.Join(d, "pdf-samples", "pdfs")
	}
	return filepath.Join(moduleRoot(), "..", "shared", "bench", "pdf-samples", "pdfs")
}

// moduleRoot is the nearest folder at or above the working directory that
// holds a go.mod: a test runs in its package's folder, at any depth.
// It is "." when there is none, so that CorpusDir names a path that is
// simply missing.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}

// CorpusFiles is the corpus's PDFs, one folder a sample, in sorted path
// order. When the corpus is missing the test is skipped, or fails under
// CI (CI set), where a silent skip would hide that nothing ran.
func CorpusFiles(t TB) []string {
	t.Helper()
	dir := CorpusDir()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.pdf")) // the pattern is fixed and valid
	if len(files) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("the PDF corpus is missing at %s", dir)
		}
		t.Skipf("SKIPPING the real-world PDF corpus: not found at %s (set SIEVE_BENCH_DIR)", dir)
	}
	return files
}

// RealFile is a document of the shared pdf-real set (kreuzberg's and
// docling's test PDFs, read where they lie and never copied into the
// repository): $SIEVE_BENCH_DIR/pdf-real/<set>/pdfs/<id>.pdf, else
// ../shared/bench/pdf-real/… beside the module root. When it is missing
// the test is skipped, or fails under CI (CI set).
func RealFile(t TB, set, id string) string {
	t.Helper()
	base := filepath.Join(moduleRoot(), "..", "shared", "bench")
	if d := os.Getenv("SIEVE_BENCH_DIR"); d != "" {
		base = d
	}
	path := filepath.Join(base, "pdf-real", set, "pdfs", id+".pdf")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the pdf-real set is missing: %v", err)
		}
		t.Skipf("SKIPPING pdf-real %s/%s: %v (set SIEVE_BENCH_DIR)", set, id, err)
	}
	return path
}
