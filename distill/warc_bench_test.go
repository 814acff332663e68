package distill

import (
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/shard"
	"github.com/sieve-dev/sieve/internal/warctest"
)

// benchPages are the first n scrapinghub pages of the bench data
// (SIEVE_BENCH_DIR, default ../../shared/bench), as raw HTML.
func benchPages(b *testing.B, n int) [][]byte {
	dir := os.Getenv("SIEVE_BENCH_DIR")
	if dir == "" {
		dir = "../../shared/bench"
	}
	files, _ := filepath.Glob(filepath.Join(dir, "scrapinghub", "html", "*.html.gz"))
	sort.Strings(files)
	if len(files) < n {
		b.Skipf("SKIPPING: %d scrapinghub pages under %s (set SIEVE_BENCH_DIR)", len(files), dir)
	}
	var pages [][]byte
	for _, f := range files[:n] {
		fh, err := os.Open(f)
		if err != nil {
			b.Fatal(err)
		}
		zr, err := gzip.NewReader(fh)
		if err != nil {
			b.Fatal(err)
		}
		p, err := io.ReadAll(zr)
		fh.Close()
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, p)
	}
	return pages
}

func distillTB(tb testing.TB, args ...string) (string, int) {
	stdout, stderr, code := runCLI(args...)
	if code != 0 {
		tb.Fatalf("sieve distill %v: exit %d\n%s", args, code, stderr)
	}
	return stdout, code
}

// treeBytes is the bytes of the files under dir, their number, and the
// disk they take in 4 KiB blocks.
func treeBytes(dir string) (bytes, files, disk int64) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				bytes += fi.Size()
				disk += (fi.Size() + 4095) / 4096 * 4096
				files++
			}
		}
		return nil
	})
	return
}

// BenchmarkWARCDistill is make bench-scale's page figures: sieve distill
// of a WARC file of the first 40 scrapinghub pages (gzip per record, as
// Common Crawl writes them), static tier, with the evidence bundle, into
// directories (--out) and into a shard (--shard): pages/s per core (run
// with -cpu 1), and artifact bytes per page in both output modes, against
// the page's own HTML bytes.
func BenchmarkWARCDistill(b *testing.B) {
	pages := benchPages(b, 40)
	var recs []warctest.Rec
	var html int64
	for i, p := range pages {
		recs = append(recs, warctest.Page(fmt.Sprintf("http://bench%02d.scrapinghub.test/article", i), p))
		html += int64(len(p))
	}
	work := b.TempDir()
	file := filepath.Join(work, "bench.warc.gz")
	if err := os.WriteFile(file, warctest.File(true, recs...), 0o644); err != nil {
		b.Fatal(err)
	}
	n := float64(len(pages))
	for _, mode := range []string{"dir", "shard"} {
		b.Run("out="+mode, func(b *testing.B) {
			var el time.Duration
			for i := 0; i < b.N; i++ {
				out := filepath.Join(work, fmt.Sprintf("%s-%d", mode, i))
				args := []string{"--out", out, file}
				if mode == "shard" {
					args = []string{"--shard", filepath.Join(out, "shard-0001"), file}
				}
				t0 := time.Now()
				distillTB(b, args...)
				el += time.Since(t0)
				size, files, disk := treeBytes(out)
				b.ReportMetric(float64(size)/n, "B/page")
				b.ReportMetric(float64(disk)/n, "disk-B/page")
				b.ReportMetric(float64(files)/n, "files/page")
				b.ReportMetric(float64(size)/float64(html), "x-html")
				if mode == "shard" {
					r, err := shard.Open(filepath.Join(out, "shard-0001"))
					if err != nil {
						b.Fatal(err)
					}
					var unpacked int64
					for _, e := range r.Entries() {
						unpacked += e.Size
					}
					b.ReportMetric(float64(unpacked)/n, "unpacked-B/page")
				}
				os.RemoveAll(out)
			}
			b.ReportMetric(n*float64(b.N)/el.Seconds()/float64(runtime.GOMAXPROCS(0)), "pages/s/core")
			b.ReportMetric(float64(html)/n, "html-B/page")
		})
	}
}
