package capture

import (
	"context"
	"sync"
	"time"
)

// hostGates holds, per host, how many requests may be in flight and when
// the next request may start.
type hostGates struct {
	perHost int
	mu      sync.Mutex
	m       map[string]*hostGate
}

type hostGate struct {
	slots chan struct{}
	mu    sync.Mutex
	next  time.Time // earliest start of the next request
}

func newHostGates(perHost int) *hostGates {
	return &hostGates{perHost: perHost, m: map[string]*hostGate{}}
}

func (h *hostGates) gate(host string) *hostGate {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.m[host]
	if g == nil {
		g = &hostGate{slots: make(chan struct{}, h.perHost)}
		h.m[host] = g
	}
	return g
}

// acquire waits for a free slot on host and then for the host's next start
// time. The returned func frees the slot.
func (h *hostGates) acquire(ctx context.Context, host string, delay time.Duration) (func(), error) {
	g := h.gate(host)
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() { <-g.slots }
	if err := g.await(ctx, delay); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// await returns when the host's next start time has come, and sets the one
// after it delay from now. A start is claimed when it happens, not booked
// ahead: two requests whose booked times came due together after a stall
// (a slow timer on a loaded machine) would otherwise leave back to back.
func (g *hostGate) await(ctx context.Context, delay time.Duration) error {
	for {
		g.mu.Lock()
		now := time.Now()
		if !now.Before(g.next) {
			g.next = now.Add(delay)
			g.mu.Unlock()
			return ctx.Err()
		}
		wait := g.next.Sub(now)
		g.mu.Unlock()
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// pushBack makes host's next request wait until at least until (a server
// asked for it with Retry-After).
func (h *hostGates) pushBack(host string, until time.Time) {
	g := h.gate(host)
	g.mu.Lock()
	defer g.mu.Unlock()
	if until.After(g.next) {
		g.next = until
	}
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
