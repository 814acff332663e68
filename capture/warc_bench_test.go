package capture

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/warctest"
)

// benchWARC is a Common Crawl-style file of n records: HTML pages of
// about 20 KiB each (a warcinfo record first, a request before every
// response, as crawlers write them).
func benchWARC(n int) []byte {
	recs := []warctest.Rec{{Type: "warcinfo", Block: []byte("software: bench\r\n")}}
	para := strings.Repeat("Words of an ordinary paragraph, with <a href=\"/x\">a link</a> and some <em>emphasis</em>. ", 6)
	for i := 0; len(recs) < n; i++ {
		uri := fmt.Sprintf("http://bench.test/page/%d", i)
		var body strings.Builder
		fmt.Fprintf(&body, "<!doctype html><html><head><title>Page %d</title></head><body><main><h1>Page %d</h1>", i, i)
		for j := 0; j < 35; j++ {
			fmt.Fprintf(&body, "<p>%d. %s</p>\n", j, para)
		}
		body.WriteString("</main></body></html>")
		recs = append(recs,
			warctest.Rec{Type: "request", URI: uri, Block: []byte("GET / HTTP/1.1\r\nHost: bench.test\r\n\r\n")},
			warctest.Rec{Type: "response", URI: uri, Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html; charset=utf-8"}, []byte(body.String()))})
	}
	return warctest.File(true, recs[:n]...)
}

// BenchmarkWARC reads a 1,000-record WARC file into capture records: one
// read is sequential, so pages/s is per core.
func BenchmarkWARC(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.warc.gz")
	if err := os.WriteFile(path, benchWARC(1000), 0o644); err != nil {
		b.Fatal(err)
	}
	c := New(DefaultOptions())
	defer c.Close()
	pages := 0
	start := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stats, err := c.ReadWARC(context.Background(), path, func(p WARCPage) error {
			if p.Err != nil {
				return p.Err
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		pages += stats.Pages
	}
	b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
}
