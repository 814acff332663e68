package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

func load(b *testing.B, set string) []*capture.Record {
	b.Helper()
	if _, err := os.Stat(filepath.Join(Dir(), set)); err != nil {
		b.Skipf("benchmark pages not found in %s (set SIEVE_BENCH_DIR)", Dir())
	}
	recs, err := LoadCaptures(set, b.TempDir(), 0)
	if err != nil {
		b.Fatal(err)
	}
	return recs
}

// benchStatic runs normalize → graph → render (all four files, in memory)
// over every page of a set per iteration, and reports pages/s and MB/s of
// served HTML. Capture is excluded: it is I/O.
func benchStatic(b *testing.B, set string) {
	recs := load(b, set)
	var total int64
	for _, r := range recs {
		total += int64(len(r.Body))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, r := range recs {
			n, err := normalize.Normalize(r)
			if err != nil {
				continue // non-HTML pages become error records in the pipe
			}
			g := graph.Build(n)
			if _, err := codec.Marshal(g); err != nil {
				b.Fatal(err)
			}
			render.Markdown(g)
			render.HTML(g)
		}
	}
	b.ReportMetric(float64(len(recs)*b.N)/b.Elapsed().Seconds(), "pages/s")
}

func BenchmarkStaticScrapinghub(b *testing.B) { benchStatic(b, "scrapinghub") }

func BenchmarkStaticTrafilatura(b *testing.B) { benchStatic(b, "trafilatura-eval") }
