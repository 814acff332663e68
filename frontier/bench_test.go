package frontier_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/frontier/sitetest"
)

// BenchmarkCrawl is make bench-crawl: sieve crawl (static tier, no
// evidence bundle, --delay 5ms, --per-host 2, --concurrency 8) over the
// same 900 pages on one host and spread over three, in-process; pages/s and
// the per-host request spacing the server saw (median gap, and the
// shortest span of 50 consecutive requests over 49).
func BenchmarkCrawl(b *testing.B) {
	const pages, delay = 900, 5 * time.Millisecond
	for _, hosts := range []int{1, 3} {
		b.Run(fmt.Sprintf("hosts=%d", hosts), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				per := pages/hosts - 2
				s, err := sitetest.New(hosts, per, 0)
				if err != nil {
					b.Fatal(err)
				}
				out := b.TempDir()
				t0 := time.Now()
				stdout, stderr, code := runCrawlTB(b, crawlArgs(s, out, delay, "--quiet", "--no-sitemaps")...)
				el := time.Since(t0)
				if code != 0 {
					b.Fatalf("exit %d\n%s", code, stderr)
				}
				n := strings.Count(stdout, "\n")
				b.ReportMetric(float64(n)/el.Seconds(), "pages/s")
				med, win := spacing(s)
				b.ReportMetric(float64(med.Microseconds())/1000, "ms-median-gap/host")
				b.ReportMetric(float64(win.Microseconds())/1000/49, "ms-min-avg-gap-of-50/host")
				s.Close()
			}
		})
	}
}

func spacing(s *sitetest.Site) (median, minWin time.Duration) {
	byHost := map[string][]time.Time{}
	for _, h := range s.Hits() {
		if h.Path != "/robots.txt" {
			byHost[h.Host] = append(byHost[h.Host], h.At)
		}
	}
	var gaps []time.Duration
	minWin = 1 << 62
	for _, ts := range byHost {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		for i := 1; i < len(ts); i++ {
			gaps = append(gaps, ts[i].Sub(ts[i-1]))
		}
		for i := 0; i+49 < len(ts); i++ {
			minWin = min(minWin, ts[i+49].Sub(ts[i]))
		}
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
	if len(gaps) > 0 {
		median = gaps[len(gaps)/2]
	}
	return median, minWin
}
