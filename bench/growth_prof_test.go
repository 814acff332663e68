package bench

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// TestGrowthProfile writes CPU and heap profiles of each in-process stage
// for a page of SIEVE_GROWTH_N tiny paragraphs into SIEVE_GROWTH_PROF.
func TestGrowthProfile(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SIEVE_GROWTH_N"))
	dir := os.Getenv("SIEVE_GROWTH_PROF")
	if n == 0 || dir == "" {
		t.Skip("set SIEVE_GROWTH_N and SIEVE_GROWTH_PROF")
	}
	unit := os.Getenv("SIEVE_GROWTH_UNIT")
	if unit == "" {
		unit = "<p>x</p>"
	}
	page := filepath.Join(t.TempDir(), "m.html")
	body := "<html><body><main>" + strings.Repeat(unit, n) + "</main></body></html>\n"
	if err := os.WriteFile(page, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := capture.DefaultOptions()
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	tg, err := capture.ParseTarget([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	rec := cp.Capture(context.Background(), tg)
	prof := func(name string, f func()) {
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		cf, _ := os.Create(filepath.Join(dir, name+".cpu"))
		pprof.StartCPUProfile(cf)
		var top atomic.Uint64
		done, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			var m runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
					runtime.ReadMemStats(&m)
					if m.HeapInuse > top.Load() {
						top.Store(m.HeapInuse)
						if m.HeapInuse > m0.HeapInuse+(64<<20) {
							hf, _ := os.Create(filepath.Join(dir, name+".peak"))
							pprof.Lookup("heap").WriteTo(hf, 0)
							hf.Close()
						}
					}
				}
			}
		}()
		f()
		close(done)
		<-stopped
		t.Logf("%s: peak heap in use %d MB", name, top.Load()>>20)
		pprof.StopCPUProfile()
		cf.Close()
		runtime.ReadMemStats(&m1)
		hf, _ := os.Create(filepath.Join(dir, name+".heap"))
		pprof.Lookup("allocs").WriteTo(hf, 0)
		hf.Close()
		runtime.GC()
		var m2 runtime.MemStats
		runtime.ReadMemStats(&m2)
		t.Logf("%s: alloc %d MB, heap after %d MB, live after GC %d MB", name, (m1.TotalAlloc-m0.TotalAlloc)>>20, m1.HeapInuse>>20, m2.HeapInuse>>20)
	}
	var nr *normalize.Record
	prof("normalize", func() {
		nr, err = normalize.Normalize(&rec)
		if err != nil {
			t.Fatal(err)
		}
	})
	var g *graph.Record
	prof("graph", func() { g = graph.Build(nr) })
	nr = nil
	out := t.TempDir()
	prof("render", func() {
		if _, err := render.Write(render.Options{Out: out, NoEvidence: true}, g); err != nil {
			t.Fatal(err)
		}
	})
	prof("evidence", func() {
		if _, err := render.Write(render.Options{Out: out}, g); err != nil {
			t.Fatal(err)
		}
	})
}
