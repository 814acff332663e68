package capture

import (
	"context"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// A read's tab is opened before the read needs it: when the browser
// starts and when a read ends, the next read's browser context, proxy and
// page are created and set up (a spare), so that the next read starts at
// its navigation. A
// spare is a fresh context no page has used, exactly what a read would
// open for itself, so isolation is unchanged. Its proxy refuses
// everything (spareIdle) until a read takes it and sets the read's own
// policy. One spare is kept at a time; a restart, Close or a new dialer
// drops it.

// spareIdle is the refusal of a spare's proxy before a read takes it.
const spareIdle = "the browser context is not in use by a read yet"

// spare is a tab being opened, or opened, ahead of the read that takes it.
type spare struct {
	done    chan struct{} // closed once t and err are set
	t       *tab
	err     error
	gen     int // the browser launch it belongs to
	dialGen int // the dialer it was opened with
}

// warmSpare starts opening a spare unless one is ready or on its way;
// br.mu is held.
func (br *Browser) warmSpare() {
	if br.spare != nil || br.closed || br.b == nil || br.broken != nil {
		return
	}
	s := &spare{done: make(chan struct{}), gen: br.gen, dialGen: br.dialGen}
	br.spare = s
	t, dial := &tab{b: br.b, gen: br.gen, guard: br.guard}, br.dial
	br.spares.Add(1)
	go func() {
		defer br.spares.Done()
		s.t, s.err = br.openTab(t, dial)
		close(s.done)
	}()
}

// takeSpare returns the spare tab for a read of launch gen, waiting while
// it is being opened; nil when there is none to take (the read opens its
// own).
func (br *Browser) takeSpare(ctx context.Context, gen int) *tab {
	br.mu.Lock()
	s := br.spare
	br.spare = nil
	current := s != nil && s.gen == gen && s.dialGen == br.dialGen
	br.mu.Unlock()
	if s == nil {
		return nil
	}
	if !current {
		br.dropSpare(s)
		return nil
	}
	select {
	case <-s.done:
	case <-ctx.Done():
		br.dropSpare(s)
		return nil
	}
	if s.err != nil {
		br.dropSpare(s)
		return nil
	}
	return s.t
}

// dropSpare disposes of a spare no read will take, once it is opened.
func (br *Browser) dropSpare(s *spare) {
	br.spares.Add(1)
	go func() {
		defer br.spares.Done()
		<-s.done
		if s.t != nil {
			disposeTab(s.t)
		}
	}()
}

// disposeTab ends a tab: its browser context (and every page, worker and
// connection in it) and its proxy.
func disposeTab(t *tab) {
	if t.ctxID != "" {
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: t.ctxID}.Call(t.b.Timeout(5 * time.Second))
	}
	if t.page != nil {
		t.guard.forget(t.page.TargetID)
	}
	if t.end != nil {
		t.end()
	}
	if t.proxy != nil {
		t.proxy.Close()
	}
}
