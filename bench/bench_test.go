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

// BenchmarkNormalizeGraph measures what sieve's text mode costs on the
// scrapinghub pages, stage by stage, in pages/s: normalize alone, graph
// alone (over records normalized before the timer), both, and both plus
// the text mode's output (render.Text: the content blocks' text).
func BenchmarkNormalizeGraph(b *testing.B) {
	recs := load(b, "scrapinghub")
	var norm []*normalize.Record
	for _, r := range recs {
		if n, err := normalize.Normalize(r); err == nil {
			norm = append(norm, n)
		}
	}
	b.Run("normalize", func(b *testing.B) {
		perPage(b, len(recs), func() {
			for _, r := range recs {
				normalize.Normalize(r) //nolint:errcheck // non-HTML pages are error records in the pipe
			}
		})
	})
	b.Run("graph", func(b *testing.B) {
		perPage(b, len(norm), func() {
			for _, n := range norm {
				graph.Build(n)
			}
		})
	})
	b.Run("normalize_graph", func(b *testing.B) { perPage(b, len(recs), func() { normalizeGraph(recs, false) }) })
	b.Run("text", func(b *testing.B) { perPage(b, len(recs), func() { normalizeGraph(recs, true) }) })
}

// perPage reports pages/s of wall time and, since the machine is shared
// and noisy, pages per CPU-second of this process (GC workers included).
func perPage(b *testing.B, pages int, pass func()) {
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		pass()
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(pages*b.N)/b.Elapsed().Seconds(), "pages/s")
	if cpu > 0 {
		b.ReportMetric(float64(pages*b.N)/cpu.Seconds(), "pages/cpu-s")
	}
}

func normalizeGraph(recs []*capture.Record, text bool) {
	for _, r := range recs {
		n, err := normalize.Normalize(r)
		if err != nil {
			continue
		}
		g := graph.Build(n)
		if text {
			render.Text(g)
		}
	}
}
