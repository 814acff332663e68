package frontier_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/frontier"
)

// scaleURL is the k-th of a crawl's URLs: 10,000 hosts, paths of the
// length Common Crawl's URLs have (about 70 bytes in all).
func scaleURL(k int) string {
	return fmt.Sprintf("https://www.host-%04d.example.com/section-%d/article-%08d.html", k%10000, k%37, k)
}

// BenchmarkSeenSet is make bench-scale's frontier figure: the seen-set of
// a crawl (frontier.Set behind Frontier.Offer: canonical form, shard,
// seen check, one appended line each) at 10^6 URLs: heap bytes and file
// bytes per URL, URLs admitted per second, and the time to load the file
// again on a resume.
func BenchmarkSeenSet(b *testing.B) {
	const n = 1_000_000
	for i := 0; i < b.N; i++ {
		path := filepath.Join(b.TempDir(), "seen")
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		seen, err := frontier.OpenSet(path)
		if err != nil {
			b.Fatal(err)
		}
		f := &frontier.Frontier{MaxDepth: -1, Seen: seen}
		var urlBytes int
		t0 := time.Now()
		for k := 0; k < n; k++ {
			u := scaleURL(k)
			urlBytes += len(u)
			if _, why, err := f.Offer(u, 1); err != nil || why != "" {
				b.Fatalf("%s: refused %q %v", u, why, err)
			}
		}
		el := time.Since(t0)
		if _, why, _ := f.Offer(scaleURL(n/2), 1); why != frontier.RefuseSeen {
			b.Fatalf("a URL offered twice: %q", why)
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		heap := float64(m1.HeapAlloc) - float64(m0.HeapAlloc)
		runtime.KeepAlive(seen)
		seen.Close()
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		again, err := frontier.OpenSet(path)
		if err != nil || again.Len() != n {
			b.Fatalf("reload: %v, %d URLs", err, again.Len())
		}
		reload := time.Since(t1)
		again.Close()
		b.ReportMetric(heap/n, "heap-B/url")
		b.ReportMetric(float64(fi.Size())/n, "file-B/url")
		b.ReportMetric(float64(urlBytes)/n, "url-B")
		b.ReportMetric(n/el.Seconds(), "urls/s")
		b.ReportMetric(reload.Seconds(), "s-reload-1e6")
	}
}
