package mcp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/sieve-dev/sieve/internal/shard"
)

// BenchmarkShardIndexHeap is what serving shards costs the server in
// memory: the heap held per artifact once the indexes of shards of 10^5
// artifacts (URLs of Common Crawl's length) are open in a store, and in a
// whole server (the artifacts listed as resources too).
func BenchmarkShardIndexHeap(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	archive, index := shard.Names(filepath.Join(dir, "cc-00001"))
	if err := os.WriteFile(archive, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(index)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < n; i++ {
		u := fmt.Sprintf("https://www.example-%d.com/news/2026/01/02/an-article-with-a-long-slug-%d.html", i%997, i)
		line, _ := json.Marshal(shard.Entry{URL: u, Path: fmt.Sprintf("www.example-%d.com/news-2026-01-02-an-article-%d", i%997, i),
			Offset: int64(i) * 43000, Length: 43000, Size: 270000, Files: 11, Outcome: "ok",
			ContentHash: fmt.Sprintf("sha256:%064x", i), Evidence: fmt.Sprintf("sha256:%064x", i+n)})
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	var inIndex, server float64
	for i := 0; i < b.N; i++ {
		before := heap()
		st, err := OpenStore(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		if err := st.addShards([]string{dir}); err != nil {
			b.Fatal(err)
		}
		inIndex = float64(heap()-before) / n
		runtime.KeepAlive(st)
		st = nil
		before = heap()
		s, err := New(Options{Store: b.TempDir(), Shards: []string{dir}})
		if err != nil {
			b.Fatal(err)
		}
		server = float64(heap()-before) / n
		s.Close()
	}
	b.ReportMetric(inIndex, "index-heap-B/artifact")
	b.ReportMetric(server, "server-heap-B/artifact")
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
