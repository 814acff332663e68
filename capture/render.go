package capture

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

//go:embed render_walker.js
var walkerJS string

// WalkerSHA256 identifies the in-page walker script in traces.
var WalkerSHA256 = func() string {
	s := sha256.Sum256([]byte(walkerJS))
	return hex.EncodeToString(s[:])
}()

// Settle and sweep thresholds.
const (
	quietFor      = 500 * time.Millisecond  // network and DOM quiet for this long…
	thinQuietFor  = 2500 * time.Millisecond // …or this long when the page is still thin
	thinText      = 200                     // characters of body text below which a page is thin
	sweepSettle   = time.Second             // cap of the wait after each scroll step
	pollEvery     = 100 * time.Millisecond
	maxShotHeight = 8000 // CSS px: taller pages are shot down to here (beyond, Chromium returns blank tiles)
)

// markMutations records the time of the last DOM mutation, for the
// DOM-quiet wait. It runs before any page script.
const markMutations = `window.__sieveMut = 0; new MutationObserver(() => { window.__sieveMut = performance.now(); }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});`

const pollJS = `() => JSON.stringify([performance.now() - (window.__sieveMut || 0), document.body ? document.body.innerText.length : 0])`

// pageRead is what one browser read returns.
type pageRead struct {
	status    int
	finalURL  string
	mime      string
	headers   map[string]string
	redirects []Redirect
	nodes     []DOMNode
	render    Render
}

// netWatch follows the main document and the requests in flight.
type netWatch struct {
	mu        sync.Mutex
	frame     proto.PageFrameID
	inflight  map[proto.NetworkRequestID]bool
	lastNet   time.Time
	mainID    proto.NetworkRequestID
	redirects []Redirect
	status    int
	url       string
	mime      string
	headers   proto.NetworkHeaders
	loaded    bool
	crashed   bool
	navigated bool // the page replaced the served document
}

func (w *netWatch) handlers() []any {
	return []any{
		func(e *proto.NetworkRequestWillBeSent) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.inflight[e.RequestID] = true
			w.lastNet = time.Now()
			if e.Type != proto.NetworkResourceTypeDocument || e.FrameID != w.frame {
				return
			}
			switch {
			case e.RedirectResponse != nil:
				w.redirects = append(w.redirects, Redirect{URL: e.RedirectResponse.URL, Status: e.RedirectResponse.Status})
			case w.mainID != "" && w.status != 0:
				// a script or meta navigation to a new document
				w.redirects = append(w.redirects, Redirect{URL: w.url, Status: w.status})
				w.navigated = true
			}
			w.mainID = e.RequestID
		},
		func(e *proto.NetworkResponseReceived) {
			w.mu.Lock()
			defer w.mu.Unlock()
			if e.RequestID == w.mainID && e.Response != nil {
				w.status, w.url, w.mime, w.headers = e.Response.Status, e.Response.URL, e.Response.MIMEType, e.Response.Headers
			}
		},
		func(e *proto.NetworkLoadingFinished) { w.done(e.RequestID) },
		func(e *proto.NetworkLoadingFailed) { w.done(e.RequestID) },
		func(e *proto.PageLoadEventFired) { w.mu.Lock(); w.loaded = true; w.mu.Unlock() },
		func(e *proto.InspectorTargetCrashed) { w.mu.Lock(); w.crashed = true; w.mu.Unlock() },
	}
}

func (w *netWatch) done(id proto.NetworkRequestID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.inflight, id)
	w.lastNet = time.Now()
}

// state reports whether the page loaded, for how long the network has been
// quiet (0 while requests are in flight) and whether the tab crashed.
func (w *netWatch) state() (loaded bool, quiet time.Duration, crashed bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.inflight) == 0 {
		quiet = time.Since(w.lastNet)
	}
	return w.loaded, quiet, w.crashed
}

// errCrashed is the failure of a tab whose renderer died.
var errCrashed = errors.New("the tab crashed (renderer process gone)")

// read renders rawURL in a tab of br and walks it.
func (br *Browser) read(ctx context.Context, rawURL string, store blobPutter) (*pageRead, error) {
	ctx, cancel := context.WithTimeout(ctx, br.opts.Timeout)
	defer cancel()
	t, err := br.acquire(ctx)
	if err != nil {
		return nil, err
	}
	r, err := br.readIn(ctx, t, rawURL, store)
	if err == nil {
		// stop what the page still does before the tab is reused
		_, _ = proto.PageNavigate{URL: "about:blank"}.Call(t.page.Timeout(3 * time.Second))
	}
	br.release(t, err != nil)
	return r, err
}

// blobPutter stores screenshots.
type blobPutter interface {
	Put([]byte) (string, error)
}

func (br *Browser) readIn(ctx context.Context, t *tab, rawURL string, store blobPutter) (*pageRead, error) {
	p := t.page.Context(ctx)
	if err := br.setupTab(p, t); err != nil {
		return nil, fmt.Errorf("tab setup: %w", err)
	}
	w := &netWatch{frame: proto.PageFrameID(p.TargetID), inflight: map[proto.NetworkRequestID]bool{}, lastNet: time.Now()}
	evCtx, stopEvents := context.WithCancel(ctx)
	defer stopEvents()
	wait := p.Context(evCtx).EachEvent(w.handlers()...)
	go wait()

	start := time.Now()
	nav, err := proto.PageNavigate{URL: rawURL}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("navigation: %w", err)
	}
	if nav.ErrorText != "" {
		return nil, fmt.Errorf("navigation failed: %s", nav.ErrorText)
	}
	if f := br.afterNav.Load(); f != nil {
		(*f)(p, rawURL)
	}
	r := &pageRead{render: Render{FrameGaps: []FrameGap{}}}
	if err := br.settle(ctx, p, w, start, &r.render); err != nil {
		return nil, err
	}
	if err := br.sweep(ctx, p, w, &r.render); err != nil {
		return nil, err
	}
	if err := walk(p, r); err != nil {
		return nil, err
	}
	if _, _, crashed := w.state(); crashed {
		return nil, errCrashed
	}
	if store != nil {
		br.screenshot(p, r, store)
	}
	w.mu.Lock()
	r.status, r.mime, r.redirects = w.status, w.mime, append([]Redirect{}, w.redirects...)
	r.render.Navigated = w.navigated
	r.headers = cdpHeaders(w.headers)
	w.mu.Unlock()
	r.finalURL = r.render.FinalURL
	r.render.Status = r.status
	return r, nil
}

// setupTab enables the events and emulation a read needs, once per tab.
func (br *Browser) setupTab(p *rod.Page, t *tab) error {
	if t.init {
		return nil
	}
	o := br.opts
	steps := []func() error{
		func() error { return proto.NetworkEnable{}.Call(p) },
		func() error { return proto.PageEnable{}.Call(p) },
		func() error {
			return proto.EmulationSetDeviceMetricsOverride{Width: o.Width, Height: o.Height, DeviceScaleFactor: 1}.Call(p)
		},
		func() error { return proto.EmulationSetLocaleOverride{Locale: o.Locale}.Call(p) },
		func() error { return proto.EmulationSetTimezoneOverride{TimezoneID: o.Timezone}.Call(p) },
		func() error { _, err := p.EvalOnNewDocument(markMutations); return err },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	t.init = true
	return nil
}

// settle waits until the page has loaded and network and DOM have been
// quiet for a while (longer while the page is still thin), at most
// Settle after navigation started.
func (br *Browser) settle(ctx context.Context, p *rod.Page, w *netWatch, start time.Time, r *Render) error {
	first := -1
	for {
		loaded, netQuiet, crashed := w.state()
		if crashed {
			return errCrashed
		}
		domQuiet, text, err := poll(p)
		if err != nil {
			return fmt.Errorf("settle: %w", err)
		}
		if loaded && first < 0 {
			first = text
		}
		quiet := min(netQuiet, domQuiet)
		waited := time.Since(start)
		switch {
		case loaded && quiet >= quietFor && text >= thinText:
			r.Settled = "quiet"
		case loaded && quiet >= thinQuietFor:
			r.Settled = "thin_quiet"
		case waited >= br.opts.Settle:
			r.Settled = "cap"
		}
		if r.Settled != "" {
			r.WaitedMS = waited.Milliseconds()
			r.Hydrated = first >= 0 && text > first
			return nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return fmt.Errorf("settle: %w", err)
		}
	}
}

func poll(p *rod.Page) (domQuiet time.Duration, text int, err error) {
	res, err := p.Eval(pollJS)
	if err != nil {
		return 0, 0, err
	}
	var v [2]float64
	if err := json.Unmarshal([]byte(res.Value.Str()), &v); err != nil {
		return 0, 0, err
	}
	return time.Duration(v[0] * float64(time.Millisecond)), int(v[1]), nil
}

const scrollJS = `(step) => { if (step) window.scrollBy(0, window.innerHeight); const d = document.documentElement; return JSON.stringify([window.scrollY + window.innerHeight, Math.max(d.scrollHeight, document.body ? document.body.scrollHeight : 0)]); }`

// sweep scrolls down a viewport at a time, letting lazy and infinite
// content load, until the bottom is reached or SweepSteps steps were made.
func (br *Browser) sweep(ctx context.Context, p *rod.Page, w *netWatch, r *Render) error {
	for step := 0; ; step++ {
		if step > 0 {
			if _, err := p.Eval(`() => window.scrollBy(0, window.innerHeight)`); err != nil {
				return fmt.Errorf("sweep: %w", err)
			}
			if err := stepSettle(ctx, p, w); err != nil {
				return err
			}
		}
		res, err := p.Eval(scrollJS, false)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		var v [2]float64
		if err := json.Unmarshal([]byte(res.Value.Str()), &v); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if step > 0 {
			r.Checkpoints++
		}
		r.PageHeight = int(v[1])
		if v[0] >= v[1]-2 {
			r.ReachedBottom = true
			break
		}
		if step >= br.opts.SweepSteps {
			break
		}
	}
	_, err := p.Eval(`() => window.scrollTo(0, 0)`)
	return err
}

// stepSettle waits up to sweepSettle for network and DOM quiet after a
// scroll step (infinite lists fetch and append here).
func stepSettle(ctx context.Context, p *rod.Page, w *netWatch) error {
	end := time.Now().Add(sweepSettle)
	if err := sleep(ctx, 150*time.Millisecond); err != nil {
		return err
	}
	for time.Now().Before(end) {
		_, netQuiet, crashed := w.state()
		if crashed {
			return errCrashed
		}
		domQuiet, _, err := poll(p)
		if err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		if min(netQuiet, domQuiet) >= 300*time.Millisecond {
			return nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return err
		}
	}
	return nil
}

// walkOut is the walker's JSON.
type walkOut struct {
	Nodes []struct {
		P int               `json:"p"`
		T string            `json:"t"`
		X string            `json:"x"`
		A map[string]string `json:"a"`
		H string            `json:"h"`
		R string            `json:"r"`
		S string            `json:"s"`
		B []int             `json:"b"`
	} `json:"nodes"`
	Gaps   []FrameGap `json:"gaps"`
	Title  string     `json:"title"`
	Lang   string     `json:"lang"`
	URL    string     `json:"url"`
	Height int        `json:"height"`
	Width  int        `json:"width"`
}

// walk runs the in-page walker once and converts its answer.
func walk(p *rod.Page, r *pageRead) error {
	res, err := p.Eval(walkerJS)
	if err != nil {
		return fmt.Errorf("walker: %w", err)
	}
	var out walkOut
	if err := json.Unmarshal([]byte(res.Value.Str()), &out); err != nil {
		return fmt.Errorf("walker answer: %w", err)
	}
	r.nodes = make([]DOMNode, len(out.Nodes))
	for i, n := range out.Nodes {
		d := DOMNode{Parent: n.P, Tag: n.T, Text: n.X, Attrs: n.A, Hidden: n.H, HiddenRule: n.R, Source: n.S}
		if len(n.B) == 4 {
			d.Box = &Box{X: n.B[0], Y: n.B[1], W: max(0, n.B[2]), H: max(0, n.B[3])}
		}
		r.nodes[i] = d
	}
	if out.Gaps != nil {
		r.render.FrameGaps = out.Gaps
	}
	r.render.Title, r.render.Lang, r.render.FinalURL = strings.TrimSpace(out.Title), out.Lang, out.URL
	r.render.PageHeight = out.Height
	return nil
}

// screenshot stores a PNG of the page, from the top down to maxShotHeight.
// A failed screenshot leaves the key empty; the read itself stands.
func (br *Browser) screenshot(p *rod.Page, r *pageRead, store blobPutter) {
	h := r.render.PageHeight
	if h > maxShotHeight {
		h, r.render.ScreenshotClipped = maxShotHeight, true
	}
	res, err := proto.PageCaptureScreenshot{
		Format:                proto.PageCaptureScreenshotFormatPng,
		CaptureBeyondViewport: true,
		Clip:                  &proto.PageViewport{Width: float64(br.opts.Width), Height: float64(max(h, 1)), Scale: 1},
	}.Call(p)
	if err != nil {
		return
	}
	if key, err := store.Put(res.Data); err == nil {
		r.render.Screenshot = key
	}
}

// cdpHeaders keeps the headers later stages read, lower-cased.
func cdpHeaders(h proto.NetworkHeaders) map[string]string {
	hh := http.Header{}
	for k, v := range h {
		for _, line := range strings.Split(v.Str(), "\n") {
			hh.Add(k, line)
		}
	}
	return pickHeaders(hh)
}
