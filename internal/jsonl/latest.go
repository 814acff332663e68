package jsonl

import (
	"context"
	"sync"
	"sync/atomic"
)

// Latest runs commit for the line of Run that ctx belongs to, unless a
// later line of the same run has already committed under the same key; it
// reports whether commit ran. Lines are transformed concurrently, so two
// lines with one key (the same URL twice in a batch: one artifact
// directory) can finish in either order; with Latest the later line's
// commit is the one that stands, as when the lines are handled one after
// the other. Commits under one run are serialised: keep commit short (a
// rename). A failed commit counts as none. Outside Run (ctx carries no
// line), commit always runs.
func Latest(ctx context.Context, key string, commit func() error) (bool, error) {
	li, ok := ctx.Value(lineKey{}).(*lineInfo)
	if !ok {
		return true, commit()
	}
	o := li.order
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.last[key] > li.no {
		return false, nil
	}
	if err := commit(); err != nil {
		return true, err
	}
	o.last[key] = li.no
	if o.commits++; o.commits%1024 == 0 {
		o.prune()
	}
	return true, nil
}

type lineKey struct{}

// lineInfo is what a line's ctx carries: its number and its run's order.
type lineInfo struct {
	no    int
	order *order
}

// order is one run's latest commit per key.
type order struct {
	mu      sync.Mutex
	last    map[string]int // key → number of the line that committed last
	commits int
	written atomic.Int64 // every line numbered up to this one is written
}

func newOrder() *order { return &order{last: map[string]int{}} }

// prune forgets the keys whose last commit is from a written line: every
// line before it is written too, so no earlier line can commit again, and a
// later one finds no entry and commits. The map holds the keys of the
// lines in flight, not of the whole run.
func (o *order) prune() {
	w := int(o.written.Load())
	for k, no := range o.last {
		if no <= w {
			delete(o.last, k)
		}
	}
}

// withLine is the ctx a line is transformed with.
func withLine(ctx context.Context, no int, o *order) context.Context {
	return context.WithValue(ctx, lineKey{}, &lineInfo{no: no, order: o})
}
