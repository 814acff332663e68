//go:build unix

package graph

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/normalize"
)

// normalized is the normalized record of a page whose <main> repeats unit
// n times.
func normalized(t *testing.T, unit string, n int) *normalize.Record {
	t.Helper()
	rec, err := normalize.Normalize(captureOf("<html><body><main>" + strings.Repeat(unit, n) + "</main></body></html>"))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// allocated is what f allocates, in bytes.
func allocated(f func()) uint64 {
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// Consecutive hidden siblings merge into one latent entry; its text was
// grown by concatenation, so n of them allocated O(n²) bytes (900 MB at
// 30,000 spans).
func TestLatentMergeLinear(t *testing.T) {
	const n = 30000
	rec := normalized(t, "<span hidden>x</span>", n)
	var g *Record
	a := allocated(func() { g = Build(rec) })
	if len(g.Latent) != 1 {
		t.Fatalf("%d latent entries, want 1 merged", len(g.Latent))
	}
	if want := strings.TrimSuffix(strings.Repeat("x\n", n), "\n"); g.Latent[0].Text != want {
		t.Fatalf("merged latent text is %d bytes, want %d", len(g.Latent[0].Text), len(want))
	}
	if a > 100<<20 {
		t.Fatalf("Build allocated %d MB for %d hidden spans (quadratic merge?)", a>>20, n)
	}
}

// Each media block finds its media entry by index, not by scanning every
// media entry (which was O(n²): 4.8 s of CPU at 40,000 images).
func TestMediaIDsLinear(t *testing.T) {
	unit := `<img src="a.png" alt="x">`
	cost := func(n int) time.Duration {
		rec := normalized(t, unit, n)
		best := time.Duration(1 << 62)
		for range 3 {
			runtime.GC()
			start := cpuTime()
			g := Build(rec)
			best = min(best, cpuTime()-start)
			if g.Blocks[len(g.Blocks)-1].MediaID == "" {
				t.Fatal("last media block has no media_id")
			}
		}
		return best
	}
	small, large := cost(5000), cost(30000)
	// Linear is 6×; quadratic was 36×. CPU time, not wall time: the
	// machine is shared.
	if r := float64(large) / float64(small); r > 18 {
		t.Fatalf("Build on 30,000 images took %.1f× the CPU time of 5,000 (%v vs %v): superlinear", r, large, small)
	}
}

// cpuTime is the CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
