package gcstart

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// A small heap is never collected; a live heap past Floor/2 hands pacing
// back to GOGC=100 with no limit.
func TestStartThenOrdinaryPacing(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	Start()
	if p, l := settings(); p != -1 || l != Floor {
		t.Fatalf("GOGC %d, limit %d after Start, want off and %d", p, l, Floor)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var keep [][]byte
	for i := 0; i < 8; i++ { // 8 MB of garbage: no collection
		_ = make([]byte, 1<<20)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if after.NumGC != before.NumGC {
		t.Errorf("%d collections below the floor", after.NumGC-before.NumGC)
	}
	for i := 0; i < Floor>>20; i++ { // Floor live: past Floor/2
		keep = append(keep, make([]byte, 1<<20))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if p, l := settings(); p == 100 && l == math.MaxInt64 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("pacing not handed back to GOGC=100 without a limit")
		}
	}
	runtime.KeepAlive(keep)
}

func TestUserSettingsWin(t *testing.T) {
	t.Setenv("GOGC", "200")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Start()
	if p, _ := settings(); p != 100 {
		t.Errorf("Start changed the GC percent to %d although GOGC is set", p)
	}
}

// settings reads the GC percent and the memory limit without changing them.
func settings() (int64, int64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	p := int64(s[0].Value.Uint64())
	if p == 0 { // off reads as 0
		p = -1
	}
	return p, int64(s[1].Value.Uint64())
}

// Past Soft, the limit holds the heap to the live heap and an eighth,
// never below Soft; under it, GOGC=100 alone.
func TestLimitFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, math.MaxInt64},
		{Soft / 2, math.MaxInt64},
		{Soft/2 + 1, Soft},
		{Soft, Soft + Soft/8},
		{800 << 20, 900 << 20},
	} {
		if got := limitFor(c.live); got != c.want {
			t.Errorf("limitFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}
