// Package gcstart sets the garbage collector up for a process that may
// live for one page: no collection until the heap reaches Floor, then the
// ordinary GOGC=100 pacing once the live heap is half of it. A Go process
// otherwise collects from a 4 MB heap on, and one `sieve distill` of a news
// page spent about a third of its CPU time in four collections that free
// nothing it would have needed (issue 17; docs/DECISIONS.md).
package gcstart

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Floor is the heap a process may use before its first collection.
const Floor = 32 << 20

// Soft is the heap up to which GOGC=100 paces alone. Past it, a soft
// memory limit of the live heap and an eighth (never below Soft) holds
// the heap: GOGC=100 lets a page whose records are 850 MB live reach 1.7
// GB, the limit about 950 MB, for more (shorter-spaced) collections: on a
// page of a million paragraphs 2–8 % more CPU time (issue 17;
// docs/DECISIONS.md). A limit is soft: a live heap past it is not cut,
// only collected more often, as it would be at GOGC=12.
const Soft = 512 << 20

// Start turns collection off below Floor, unless the user set GOGC or
// GOMEMLIMIT (theirs win). After each collection it looks at the live
// heap; at Floor/2 or more it hands pacing back to GOGC=100, without a
// limit while twice the live heap is under Soft and with limitFor(live)
// above, so a small page costs at most Floor and a large one about 1.125×
// its live heap instead of 2×.
func Start() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(Floor)
	arm()
}

// sentinel is garbage whose finalizer runs after the collection that
// found it: a hook on every cycle. Large enough not to be a tiny
// allocation (those may share a block and never be finalized).
type sentinel struct{ _ [32]byte }

func arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { afterGC() })
}

var live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

var handed bool // pacing is GOGC=100's (only the finalizer goroutine reads it)

func afterGC() {
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		if !handed {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
		}
		return
	}
	l := live[0].Value.Uint64()
	if !handed && l < Floor/2 {
		arm()
		return
	}
	if !handed {
		debug.SetGCPercent(100)
		handed = true
	}
	debug.SetMemoryLimit(limitFor(l))
	arm()
}

// limitFor is the memory limit after a collection that left live bytes
// live: none while GOGC=100's target (twice live) is within Soft, else
// live and an eighth, at least Soft.
func limitFor(live uint64) int64 {
	if 2*live <= Soft {
		return math.MaxInt64
	}
	return int64(max(Soft, live+live/8))
}
