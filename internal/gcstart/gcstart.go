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

// Start turns collection off below Floor, unless the user set GOGC or
// GOMEMLIMIT (theirs win). After each collection it looks at the live
// heap; at Floor/2 or more it hands pacing back to GOGC=100 without a
// limit, so a large page costs at most what it did (twice its live heap)
// and a small one at most Floor.
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

func afterGC() {
	metrics.Read(live)
	if live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() < Floor/2 {
		arm()
		return
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}
