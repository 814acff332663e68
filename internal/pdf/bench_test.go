package pdf

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// bookPath is the corpus's 117-page book.
func bookPath() string {
	return filepath.Join(pdftest.CorpusDir(), "009-pdflatex-geotopo", "GeoTopo-komprimiert.pdf")
}

// BenchmarkParseBook parses the corpus's 117-page book: the figure to
// watch when adding per-character facts.
func BenchmarkParseBook(b *testing.B) {
	data, err := os.ReadFile(bookPath())
	if err != nil {
		b.Skipf("the corpus book is missing: %v", err)
	}
	benchParse(b, data)
}

// benchParse times Parse(data) after a first, untimed parse that starts
// the engine (and its helper instances), reporting pages/s and the CPU
// milliseconds of a parse.
func benchParse(b *testing.B, data []byte) {
	if _, err := Parse(data); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	pages := 0
	for range b.N {
		doc, err := Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		pages += len(doc.Pages)
	}
	b.ReportMetric(float64(pages)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkParseCorpus parses every file of the corpus but the book.
func BenchmarkParseCorpus(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(pdftest.CorpusDir(), "*", "*.pdf"))
	var docs [][]byte
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && f != bookPath() {
			docs = append(docs, data)
		}
	}
	if len(docs) == 0 {
		b.Skip("the corpus is missing")
	}
	Parse(docs[0]) // start the engine outside the timing
	b.ResetTimer()
	cpu0 := cpuTime()
	for range b.N {
		for _, d := range docs {
			Parse(d)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// cpuTime is the process's user and system CPU time: steadier than the
// wall clock on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkParseReaders parses the bench report (SIEVE_PDF_BENCH, made by
// make bench-pdf) and the corpus book with one reader and with
// GOMAXPROCS (at most 4): wall time, pages/s and CPU per parse. Run with
// -count: the sub-benchmarks alternate, so the machine's load hits both.
func BenchmarkParseReaders(b *testing.B) {
	docs := map[string]string{"book": bookPath(), "report": os.Getenv("SIEVE_PDF_BENCH")}
	for _, name := range []string{"report", "book"} {
		data, err := os.ReadFile(docs[name])
		if err != nil {
			continue
		}
		for _, n := range []int{1, maxReaders} {
			b.Run(fmt.Sprintf("%s/readers=%d", name, n), func(b *testing.B) {
				defer func(r int) { maxReaders = r }(maxReaders)
				maxReaders = n
				benchParse(b, data)
			})
		}
	}
}
