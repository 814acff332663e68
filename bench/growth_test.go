package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// chainMemory runs a page of n tiny paragraphs through the in-process
// static chain (capture of a local file, normalize, graph, render with the
// evidence bundle) and returns the bytes allocated and the peak HeapInuse,
// sampled every millisecond under GOGC=10.
func chainMemory(t *testing.T, n int) (total, peak uint64) {
	t.Helper()
	page := filepath.Join(t.TempDir(), "m.html")
	body := "<html><body><main>" + strings.Repeat("<p>x</p>", n) + "</main></body></html>\n"
	if err := os.WriteFile(page, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	body = ""
	opts := capture.DefaultOptions()
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	tg, err := capture.ParseTarget([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()

	// A collection after every 10 % of growth: the peak heap in use is
	// then the data the chain holds at once, not the collector's slack.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var top atomic.Uint64
	top.Store(before.HeapInuse)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var m runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				if m.HeapInuse > top.Load() {
					top.Store(m.HeapInuse)
				}
			}
		}
	}()
	rec := cp.Capture(context.Background(), tg)
	nr, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	rec = capture.Record{}
	g := graph.Build(nr)
	nr = nil
	a, err := render.Write(render.Options{Out: out}, g)
	if err != nil {
		t.Fatal(err)
	}
	close(done)
	<-stopped
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if a.Outcome != "ok" || len(g.Blocks) != n {
		t.Fatalf("outcome %s, %d blocks, want ok and %d", a.Outcome, len(g.Blocks), n)
	}
	return after.TotalAlloc - before.TotalAlloc, max(top.Load(), after.HeapInuse) - before.HeapInuse
}

// TestChainMemory100k keeps what the in-process chain allocates for a
// page of 100,000 tiny paragraphs, and its peak heap, under a bound
// (issue 17: 9 KB per paragraph once). Memory, not wall time: the machine
// is shared.
func TestChainMemory100k(t *testing.T) {
	if testing.Short() {
		t.Skip("a 100,000-paragraph page: not in -short")
	}
	const n = 100_000
	total, peak := chainMemory(t, n)
	t.Logf("%d paragraphs: %d MB allocated (%d B/paragraph), peak heap in use %d MB (%d B/paragraph)",
		n, total>>20, total/n, peak>>20, peak/n)
	if total > maxAllocPerParagraph*n {
		t.Errorf("allocated %d MB, over the bound of %d MB", total>>20, maxAllocPerParagraph*n>>20)
	}
	if peak > maxPeakPerParagraph*n {
		t.Errorf("peak heap in use %d MB, over the bound of %d MB", peak>>20, maxPeakPerParagraph*n>>20)
	}
}
