package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/go-rod/rod"
)

// A read waits for what the page does, not for fixed times: requests in
// flight (netWatch), DOM mutations (markMutations) and the page's own
// pending timers (markTimers) are watched, and each look first lets the
// page draw a few frames, so that work queued by a scroll (intersection
// observers, animation frames, the timers they set) has been scheduled
// before it is counted. A page with nothing in flight, no timer due soon
// and no change for quietMin is quiet; a page that keeps timers going
// without changing anything falls back to the fixed quiet windows
// (quietFor, stepQuiet), so no page is read sooner than it settles.
const (
	quietMin   = 200 * time.Millisecond  // nothing pending and no change for this long: quiet
	stepQuiet  = 400 * time.Millisecond  // after a scroll, quiet for this long although timers are pending
	bottomHold = 1200 * time.Millisecond // at the bottom, the height held for this long although timers are pending
	// soonTimer is the longest setTimeout delay a quiet page waits for: a
	// timer due later would not have been caught by the quietFor window
	// either.
	soonTimer = quietFor
)

// markTimers counts the page's pending setTimeout callbacks whose delay is
// at most soonTimer; it runs before any page script. Intervals are not
// counted there (a carousel's never ends): a page that changes on one is
// not quiet by its DOM mutations. For a thin page (idleJS) it also counts
// everything else that could still change it without a request: timeouts
// due within thinQuietFor, running intervals, pending animation frames and
// idle callbacks, and workers.
var markTimers = fmt.Sprintf(`(() => { const set = window.setTimeout, clear = window.clearTimeout, setI = window.setInterval, clearI = window.clearInterval,
  raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame, ric = window.requestIdleCallback, cic = window.cancelIdleCallback,
  soon = new Set(), later = new Set(), every = new Set(), frames = new Set(), idles = new Set(); let workers = 0;
window.setTimeout = function (fn, delay, ...args) {
  if (typeof fn !== "function") return set.call(window, fn, delay, ...args);
  const d = Number(delay) || 0; let id;
  id = set.call(window, function () { soon.delete(id); later.delete(id); return fn.apply(this, args); }, d);
  if (d <= %d) soon.add(id);
  if (d <= %d) later.add(id);
  return id;
};
window.clearTimeout = function (id) { soon.delete(id); later.delete(id); return clear.call(window, id); };
window.setInterval = function (...args) { const id = setI.apply(window, args); every.add(id); return id; };
window.clearInterval = function (id) { soon.delete(id); later.delete(id); every.delete(id); return clearI.call(window, id); };
if (raf) {
  window.requestAnimationFrame = function (fn) { let id; id = raf.call(window, function (t) { frames.delete(id); return fn(t); }); frames.add(id); return id; };
  window.cancelAnimationFrame = function (id) { frames.delete(id); return caf.call(window, id); };
}
if (ric) {
  window.requestIdleCallback = function (fn, o) { let id; id = ric.call(window, function (d) { idles.delete(id); return fn(d); }, o); idles.add(id); return id; };
  window.cancelIdleCallback = function (id) { idles.delete(id); return cic.call(window, id); };
}
if (window.Worker) window.Worker = new Proxy(window.Worker, {construct(t, a, n) { workers++; return Reflect.construct(t, a, n); }});
Object.defineProperty(window, "__sieveTimers", {value: () => soon.size});
Object.defineProperty(window, "__sievePending", {value: () => later.size + every.size + frames.size + idles.size + workers});
Object.defineProperty(window, "__sieveSetTimeout", {value: set});
Object.defineProperty(window, "__sieveRAF", {value: raf});
})();`, soonTimer.Milliseconds(), thinQuietFor.Milliseconds())

// pollJS lets the page draw frames frames (at most 200 ms on a page that
// draws none), then reports [ms since the last DOM mutation, body text
// length, pending soon timers, anything else pending (markTimers)]. After
// a scroll it takes three: an intersection observer's callback runs after
// the first, the animation frame it asks for in the second, and the timer
// that frame sets is counted after the third.
const pollJS = `async (frames) => {
  const later = window.__sieveSetTimeout || setTimeout, raf = window.__sieveRAF || requestAnimationFrame;
  const frame = (n) => new Promise((r) => n > 0 ? raf.call(window, () => frame(n - 1).then(r)) : r());
  await Promise.race([frame(frames), new Promise((r) => later.call(window, r, 200))]);
  return JSON.stringify([performance.now() - (window.__sieveMut || 0), document.body ? document.body.innerText.length : 0,
    window.__sieveTimers ? window.__sieveTimers() : 0, window.__sievePending ? window.__sievePending() : 1]);
}`

// pageState is one look at the page.
type pageState struct {
	domQuiet time.Duration // since the last DOM mutation
	text     int           // characters of body text
	timers   int           // setTimeout callbacks due within soonTimer, not run yet
	pending  int           // anything else that could still change the page (markTimers)
}

func poll(p *rod.Page, frames int) (pageState, error) {
	res, err := p.Eval(pollJS, frames)
	if err != nil {
		return pageState{}, err
	}
	var v [4]float64
	if err := json.Unmarshal([]byte(res.Value.Str()), &v); err != nil {
		return pageState{}, err
	}
	return pageState{domQuiet: time.Duration(v[0] * float64(time.Millisecond)), text: int(v[1]), timers: int(v[2]), pending: int(v[3])}, nil
}

// quietAfter reports whether the page is quiet: no request in flight and
// no DOM change for long, or for quietMin with no timer due soon either.
// netQuiet is 0 while requests are in flight.
func (s pageState) quietAfter(netQuiet, long time.Duration) bool {
	quiet := min(netQuiet, s.domQuiet)
	return quiet >= long || (quiet >= quietMin && s.timers == 0)
}

// idle reports whether a thin page can no longer change by itself: quiet
// for quietFor, no request in flight, no WebSocket, and nothing pending
// that thinQuietFor would have waited for (markTimers). Such a page is
// read at once rather than after thinQuietFor.
func (s pageState) idle(netQuiet time.Duration, sockets bool) bool {
	return min(netQuiet, s.domQuiet) >= quietFor && s.timers == 0 && s.pending == 0 && !sockets
}

// stillSince reports whether nothing has happened for d: no request
// started or ended, no DOM change, no timer due soon.
func (s pageState) stillSince(netQuiet, d time.Duration) bool {
	return netQuiet >= d && s.domQuiet >= d && s.timers == 0
}

// settle waits until the page has loaded and is quiet (quietAfter; a page
// still thin waits for thinQuietFor of quiet), at most settleCap after
// navigation started.
func (br *Browser) settle(ctx context.Context, p *rod.Page, w *netWatch, start time.Time, settleCap time.Duration, r *Render) error {
	first := -1
	for {
		loaded, netQuiet, crashed := w.state()
		if crashed {
			return errCrashed
		}
		s, err := poll(p, 1)
		if err != nil {
			return fmt.Errorf("settle: %w", err)
		}
		if loaded && first < 0 {
			first = s.text
		}
		waited := time.Since(start)
		switch {
		case loaded && s.text >= thinText && s.quietAfter(netQuiet, quietFor):
			r.Settled = "quiet"
		case loaded && settleCap <= br.opts.Settle && (min(netQuiet, s.domQuiet) >= thinQuietFor || s.idle(netQuiet, w.socketsOpen())):
			// (a second, longer read waits for text or the cap)
			r.Settled = "thin_quiet"
		case waited >= settleCap:
			r.Settled = "cap"
		}
		if r.Settled != "" {
			r.WaitedMS = waited.Milliseconds()
			r.Hydrated = first >= 0 && s.text > first
			return nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return fmt.Errorf("settle: %w", err)
		}
	}
}

// stepSettle waits, after a scroll step, until what the scroll started
// (lazy images, an infinite list's fetch and append) is done: at once when
// the scroll started nothing (stillSince), else once quiet (quietAfter with
// stepQuiet), at most sweepSettle. The first look comes after three frames.
func stepSettle(ctx context.Context, p *rod.Page, w *netWatch) error {
	scrolled := time.Now()
	end := scrolled.Add(sweepSettle)
	for {
		_, netQuiet, crashed := w.state()
		if crashed {
			return errCrashed
		}
		s, err := poll(p, 3)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if s.stillSince(netQuiet, time.Since(scrolled)) || s.quietAfter(netQuiet, stepQuiet) || !time.Now().Before(end) {
			return nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return err
		}
	}
}

// heightGrows waits for the page to grow past height once scrolled to its
// bottom (a feed appends after a frame and a timer, later on a busy
// machine): until it grows, or until nothing is pending that could still
// append (stillSince the look began, or quietAfter with bottomHold), at
// most bottomHold.
func heightGrows(ctx context.Context, p *rod.Page, w *netWatch, height int) (bool, error) {
	begun := time.Now()
	end := begun.Add(bottomHold)
	for {
		_, netQuiet, crashed := w.state()
		if crashed {
			return false, errCrashed
		}
		s, err := poll(p, 3)
		if err != nil {
			return false, fmt.Errorf("sweep: %w", err)
		}
		_, h, err := scrollState(p)
		if err != nil {
			return false, err
		}
		if h > height+2 {
			return true, nil
		}
		if s.stillSince(netQuiet, time.Since(begun)) || s.quietAfter(netQuiet, bottomHold) || !time.Now().Before(end) {
			return false, nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return false, err
		}
	}
}
