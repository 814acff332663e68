package capture

import (
	"cmp"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
	setupWait     = 30 * time.Second        // cap of waiting for a tab and setting it up
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

// pageRead is what one browser read returns.
type pageRead struct {
	status    int
	finalURL  string
	mime      string
	headers   map[string]string
	redirects []Redirect
	nodes     []DOMNode
	render    Render
	canvases  []walkCanvas // the walker's canvases, read by readCanvases
	ocr       string       // Tesseract's version when a canvas was read by OCR
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
	reqs      map[proto.NetworkRequestID]netReq
	refused   []Refusal       // requests the proxy refused, as the page saw them
	unlisted  int             // refusals past maxLogged, counted only
	sockets   map[string]bool // WebSocket URLs the page opened (at most maxLogged)
	onCrash   func()
}

type netReq struct {
	url      string
	kind     proto.NetworkResourceType
	topLevel bool
}

// refusedText is how Chromium reports a CONNECT the proxy refused.
const refusedText = "ERR_TUNNEL_CONNECTION_FAILED"

func (w *netWatch) handlers() []any {
	return []any{
		func(e *proto.NetworkRequestWillBeSent) {
			w.mu.Lock()
			defer w.mu.Unlock()
			// A request of no document loader (a worker's script: its
			// response and end are sent to the worker's own target) would
			// stay in flight here forever and keep the page from quiet.
			if e.LoaderID != "" {
				w.inflight[e.RequestID] = true
			}
			w.lastNet = time.Now()
			top := e.Type == proto.NetworkResourceTypeDocument && e.FrameID == w.frame
			if e.Request != nil {
				w.reqs[e.RequestID] = netReq{url: e.Request.URL, kind: e.Type, topLevel: top}
			}
			if !top {
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
			if e.Response == nil {
				return
			}
			if e.Response.Status == 403 && hasHeader(e.Response.Headers, refusedHeader) {
				w.refuse(e.RequestID)
				return
			}
			if e.RequestID == w.mainID {
				w.status, w.url, w.mime, w.headers = e.Response.Status, e.Response.URL, e.Response.MIMEType, e.Response.Headers
			}
		},
		func(e *proto.NetworkLoadingFinished) { w.done(e.RequestID) },
		func(e *proto.NetworkLoadingFailed) {
			if strings.Contains(e.ErrorText, refusedText) {
				w.mu.Lock()
				w.refuse(e.RequestID)
				w.mu.Unlock()
			}
			w.done(e.RequestID)
		},
		func(e *proto.NetworkWebSocketCreated) {
			w.mu.Lock()
			if len(w.sockets) < maxLogged {
				w.sockets[e.URL] = true
			}
			w.mu.Unlock()
		},
		func(e *proto.PageWindowOpen) {
			w.mu.Lock()
			w.note(Refusal{URL: e.URL, ResourceType: "Popup", Reason: "a new window or tab (window.open, target=_blank): not opened"})
			w.mu.Unlock()
		},
		func(e *proto.PageLoadEventFired) { w.mu.Lock(); w.loaded = true; w.mu.Unlock() },
		func(e *proto.InspectorTargetCrashed) {
			w.mu.Lock()
			w.crashed = true
			w.mu.Unlock()
			if w.onCrash != nil {
				w.onCrash()
			}
		},
	}
}

// refuse notes a request the proxy refused; w.mu is held.
func (w *netWatch) refuse(id proto.NetworkRequestID) {
	r, ok := w.reqs[id]
	if !ok {
		return
	}
	kind := string(r.kind)
	if kind == "" {
		kind = "Other"
	}
	w.note(Refusal{URL: r.url, ResourceType: kind, TopLevel: r.topLevel})
}

// note keeps a refusal; past maxLogged it is only counted (the page's own
// navigation is always kept: it is the outcome's evidence). w.mu is held.
func (w *netWatch) note(r Refusal) {
	if len(w.refused) >= maxLogged && !r.TopLevel {
		w.unlisted++
		return
	}
	w.refused = append(w.refused, r)
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

// crashError says why a tab's renderer died, as far as sieve knows: the
// memory watchdog killed it, or (the common case of a page that allocates
// without end) it ran out of its JavaScript heap.
func (br *Browser) crashError(err error, kills0 int) error {
	if !errors.Is(err, errCrashed) {
		return err
	}
	br.mu.Lock()
	mem := br.mem
	br.mu.Unlock()
	if k, last := mem.state(); k > kills0 {
		return fmt.Errorf("%w: %s", errCrashed, last)
	}
	return fmt.Errorf("%w: a page that passes its JavaScript heap limit of %d MiB (--js-heap-mb) ends this way", errCrashed, br.opts.HeapMB)
}

// navigation is what one browser read loads.
type navigation struct {
	url string // what the browser navigates to
	// served, when set, is answered to the page's own first document
	// request instead of fetching it again: the browser renders the bytes
	// the static fetch received and the address policy checked.
	served *servedDoc
	// deny, when set, refuses every other request (a local file's read).
	deny string
	// unmap turns a URL of the browser's back into the target's (a local
	// file is rendered under a stand-in origin); nil keeps URLs as they are.
	unmap func(string) string
	// settle, when set, is the settle cap of this read (a second read waits longer).
	settle time.Duration
	// scope, when set, is the crawl's scope (WithScope): a top-level
	// navigation (or its redirect hop) it refuses is stopped before it
	// leaves, and ends the read as a refused navigation does.
	scope func(string) error
}

// servedDoc is a checked document as the browser is given it.
type servedDoc struct {
	status      int
	contentType string
	body        string
}

// read renders nav in a fresh browser context of br and walks it.
//
// The render timeout counts from the navigation: waiting for a free tab and
// setting it up have a budget of their own (setupWait), so a page does not
// lose its read to a busy machine before it was even loaded.
func (br *Browser) read(ctx context.Context, nav navigation, store blobPutter) (*pageRead, error) {
	nav.scope = scopeOf(ctx)
	setupCtx, cancel := context.WithTimeout(ctx, setupWait)
	t, err := br.acquire(setupCtx, nav.deny)
	cancel()
	if err != nil {
		return nil, err
	}
	br.mu.Lock()
	kills0, _ := br.mem.state()
	br.mu.Unlock()
	r, err := br.readIn(ctx, t, nav, store)
	err = br.crashError(err, kills0)
	br.release(t, err != nil)
	return r, err
}

// blobPutter stores screenshots.
type blobPutter interface {
	Put([]byte) (string, error)
}

func (br *Browser) readIn(ctx context.Context, t *tab, nav navigation, store blobPutter) (_ *pageRead, err error) {
	// a crash cancels every call in flight: a dead renderer answers none
	ctx, crashed := context.WithCancel(ctx)
	defer crashed()
	p := t.page.Context(ctx)
	w := &netWatch{frame: proto.PageFrameID(p.TargetID), inflight: map[proto.NetworkRequestID]bool{}, lastNet: time.Now(),
		reqs: map[proto.NetworkRequestID]netReq{}, sockets: map[string]bool{}, onCrash: crashed}
	defer func() {
		if _, _, crashed := w.state(); err != nil && crashed {
			err = errCrashed // a call cut off by the crash says less
		}
	}()
	d := &dialogs{}
	evCtx, stopEvents := context.WithCancel(ctx)
	defer stopEvents()
	handlers := append(w.handlers(), d.handler(p), serveHandler(p, w, nav))
	wait := p.Context(evCtx).EachEvent(handlers...)
	go wait()
	setupCtx, cancelSetup := context.WithTimeout(ctx, setupWait)
	err = proto.TargetActivateTarget{TargetID: p.TargetID}.Call(p.Context(setupCtx).Browser())
	cancelSetup()
	if err != nil {
		return nil, fmt.Errorf("tab setup: %w", err)
	}
	if nav.deny != "" {
		if _, err := p.Context(ctx).EvalOnNewDocument(stayJS); err != nil {
			return nil, fmt.Errorf("tab setup: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, br.opts.Timeout)
	defer cancel()
	p = p.Context(ctx)

	start := time.Now()
	navRes, err := proto.PageNavigate{URL: nav.url}.Call(p)
	if err != nil {
		return nil, fmt.Errorf("navigation: %w", err)
	}
	if navRes.ErrorText != "" && !strings.Contains(navRes.ErrorText, refusedText) {
		return nil, fmt.Errorf("navigation failed: %s", navRes.ErrorText)
	}
	if f := br.afterNav.Load(); f != nil {
		(*f)(p, nav.url)
	}
	r := &pageRead{render: Render{FrameGaps: []FrameGap{}}}
	if err := br.settle(ctx, p, w, start, cmp.Or(nav.settle, br.opts.Settle), &r.render); err != nil {
		return nil, err
	}
	if !w.refusedTop() || nav.deny != "" {
		if err := br.sweep(ctx, p, w, &r.render); err != nil {
			return nil, err
		}
		if err := walk(p, r); err != nil {
			return nil, err
		}
		if nav.deny != "" {
			stopped(p, w, nav.deny)
		}
		br.readCanvases(ctx, p, r, r.canvases)
	}
	if _, _, crashed := w.state(); crashed {
		return nil, errCrashed
	}
	if store != nil && (!w.refusedTop() || nav.deny != "") {
		br.screenshot(p, r, store)
	}
	w.mu.Lock()
	r.status, r.mime, r.redirects = w.status, w.mime, append([]Redirect{}, w.redirects...)
	r.render.Navigated = w.navigated
	if nav.deny != "" {
		// a local file's page stays itself: its navigations were stopped
		r.render.Navigated, r.redirects = false, nil
	}
	r.headers = cdpHeaders(w.headers)
	page := append([]Refusal{}, w.refused...)
	sockets, unlisted := w.sockets, w.unlisted
	w.mu.Unlock()
	r.render.Refused, r.render.RefusedMore = listRefusals(mergeRefusals(page, t.proxy.Refused(), sockets, t.guard.closedIn(t.ctxID)), unlisted+t.proxy.Unlisted())
	r.render.Dialogs = d.list()
	r.finalURL = r.render.FinalURL
	r.render.Status = r.status
	if nav.unmap != nil {
		unmapRead(r, nav.unmap)
	}
	return r, nil
}

// socketsOpen reports whether the page opened a WebSocket (which could
// still bring it content).
func (w *netWatch) socketsOpen() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sockets) > 0
}

// stayJS keeps a local file's page in place (nav.deny): the page's own
// navigations to another document are cancelled in the page, before the
// navigation starts, and listed in __sieveStopped. Stopped only at the
// request (serveHandler), a navigation would abort the document where its
// parser had got to, so how much of the page is read would depend on when
// its script ran (the request stop stays, for navigations the page cannot
// cancel).
const stayJS = `try { if (window.top === window && window.navigation) { const list = [];
Object.defineProperty(window, "__sieveStopped", {value: list});
navigation.addEventListener("navigate", (e) => { if (e.cancelable && !e.destination.sameDocument) { e.preventDefault(); if (list.length < 20) list.push(e.destination.url); } });
} } catch (e) {}`

// stopped notes the navigations stayJS cancelled as refusals, as the
// request stop does.
func stopped(p *rod.Page, w *netWatch, deny string) {
	res, err := p.Eval(`() => JSON.stringify(window.__sieveStopped || [])`)
	if err != nil {
		return
	}
	var urls []string
	if json.Unmarshal([]byte(res.Value.Str()), &urls) != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, u := range urls {
		w.note(Refusal{URL: u, ResourceType: "Document", Reason: deny + ": the page's navigation away was stopped", TopLevel: true})
	}
}

// refusedTop reports whether the page's own navigation was refused.
func (w *netWatch) refusedTop() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, r := range w.refused {
		if r.TopLevel {
			return true
		}
	}
	return false
}

// serveHandler answers the page's first top-level document request with
// the checked bytes, and lets every other paused request go on to the
// proxy. Only document requests are paused (Fetch.enable's pattern). A
// local file's page (nav.deny set) may not leave itself: its later
// top-level navigations are aborted, which keeps the document in place. A
// crawl's page may not leave its scope: a top-level navigation or redirect
// hop out of it is blocked before it is requested.
func serveHandler(p *rod.Page, w *netWatch, nav navigation) func(*proto.FetchRequestPaused) {
	var once sync.Once
	return func(e *proto.FetchRequestPaused) {
		serve, top := false, e.FrameID == w.frame
		if nav.served != nil && top {
			once.Do(func() { serve = true })
		}
		go func() {
			var outside error
			if top && !serve {
				outside = outsideScope(nav.scope, e.Request.URL)
			}
			switch {
			case serve:
				doc := nav.served
				status := doc.status
				if status < 200 || status > 599 || (status >= 300 && status < 400) {
					status = 200
				}
				_ = proto.FetchFulfillRequest{
					RequestID:       e.RequestID,
					ResponseCode:    status,
					ResponseHeaders: []*proto.FetchHeaderEntry{{Name: "Content-Type", Value: doc.contentType + "; charset=utf-8"}},
					Body:            []byte(doc.body),
				}.Call(p)
			case top && nav.deny != "":
				w.mu.Lock()
				w.note(Refusal{URL: e.Request.URL, ResourceType: "Document", Reason: nav.deny + ": the page's navigation away was stopped", TopLevel: true})
				w.mu.Unlock()
				_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonAborted}.Call(p)
			case outside != nil:
				w.mu.Lock()
				w.note(Refusal{URL: e.Request.URL, ResourceType: "Document", Reason: outside.Error(), TopLevel: true, OutOfScope: true})
				w.mu.Unlock()
				_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(p)
			default:
				_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(p)
			}
		}()
	}
}

// outsideScope is why scope refuses u, nil when it does not (or there is
// no scope).
func outsideScope(scope func(string) error, u string) error {
	if scope == nil {
		return nil
	}
	return scope(u)
}

// dialogs dismisses every JavaScript dialog as it opens, and lists them.
type dialogs struct {
	mu  sync.Mutex
	all []Dialog
}

const maxDialogs = 20

func (d *dialogs) handler(p *rod.Page) func(*proto.PageJavascriptDialogOpening) {
	return func(e *proto.PageJavascriptDialogOpening) {
		d.mu.Lock()
		if len(d.all) < maxDialogs {
			d.all = append(d.all, Dialog{Type: string(e.Type), Message: clip(e.Message, 200)})
		}
		d.mu.Unlock()
		go func() { _ = proto.PageHandleJavaScriptDialog{Accept: false}.Call(p) }()
	}
}

func (d *dialogs) list() []Dialog {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Dialog{}, d.all...)
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// maxLogged bounds what a page's read keeps of its refused requests while
// it runs; maxRefusals bounds what the record lists. A page that makes
// thousands of distinct refused requests costs a count, not memory.
const (
	maxLogged   = 1000
	maxRefusals = 100
)

// listRefusals keeps the first maxRefusals of the sorted list (the page's
// own navigation sorts first) and counts the rest with those never logged.
func listRefusals(all []Refusal, unlisted int) ([]Refusal, int) {
	if len(all) <= maxRefusals {
		return all, unlisted
	}
	return all[:maxRefusals:maxRefusals], unlisted + len(all) - maxRefusals
}

// mergeRefusals joins what the page saw refused (with resource types) and
// what the proxy refused (every target of the context: workers, sockets),
// and the targets the guard closed.
func mergeRefusals(page, proxy []Refusal, sockets map[string]bool, closed []Refusal) []Refusal {
	reasons := map[string]string{}
	for _, r := range proxy {
		reasons[r.URL] = r.Reason
	}
	covered := map[string]bool{}
	out := append([]Refusal{}, closed...)
	for _, r := range page {
		u, err := url.Parse(r.URL)
		hp := ""
		if err == nil {
			hp = hostPort(u.Scheme, u.Host)
		}
		if r.Reason == "" {
			r.Reason = cmp.Or(reasons[r.URL], reasons[hp], "refused by the address policy")
		}
		covered[r.URL], covered[hp] = true, true
		out = append(out, r)
	}
	for ws := range sockets {
		u, err := url.Parse(ws)
		if err != nil {
			continue
		}
		hp := hostPort(u.Scheme, u.Host)
		if reason, ok := reasons[hp]; ok && !covered[hp] {
			out = append(out, Refusal{URL: ws, ResourceType: "WebSocket", Reason: reason})
			covered[hp] = true
		}
	}
	for _, r := range proxy {
		if !covered[r.URL] {
			out = append(out, r)
		}
	}
	return sortRefusals(out)
}

func hasHeader(h proto.NetworkHeaders, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// noServiceWorkers runs before any page script in every document: service
// workers are off (the guard also closes any that start).
const noServiceWorkers = `try { delete Navigator.prototype.serviceWorker; } catch (e) {}`

// setupTab enables the events, interception and emulation a read needs
// (when the tab is opened: the read itself only activates it). Every tab
// behaves as a focused, visible foreground tab, so timers, scroll sweeps
// and IntersectionObservers run alike alone and beside other tabs.
func (br *Browser) setupTab(p *rod.Page) error {
	o := br.opts
	steps := []func() error{
		func() error { return proto.NetworkEnable{}.Call(p) },
		func() error { return proto.PageEnable{}.Call(p) },
		func() error { return proto.NetworkSetBypassServiceWorker{Bypass: true}.Call(p) },
		func() error {
			return proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{{URLPattern: "*", ResourceType: proto.NetworkResourceTypeDocument, RequestStage: proto.FetchRequestStageRequest}}}.Call(p)
		},
		func() error {
			return proto.EmulationSetDeviceMetricsOverride{Width: o.Width, Height: o.Height, DeviceScaleFactor: 1}.Call(p)
		},
		func() error { return proto.EmulationSetFocusEmulationEnabled{Enabled: true}.Call(p) },
		func() error {
			return proto.PageSetWebLifecycleState{State: proto.PageSetWebLifecycleStateStateActive}.Call(p)
		},
		func() error { return proto.EmulationSetLocaleOverride{Locale: o.Locale}.Call(p) },
		func() error { return proto.EmulationSetTimezoneOverride{TimezoneID: o.Timezone}.Call(p) },
		func() error {
			_, err := p.EvalOnNewDocument(markMutations + "\n" + markTimers + "\n" + noServiceWorkers + "\n" + threeHook)
			return err
		},
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return err
		}
	}
	return nil
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
			r.Checkpoints++
		}
		at, height, err := scrollState(p)
		if err != nil {
			return err
		}
		r.PageHeight = height
		if at >= height-2 {
			// a feed appends after a frame and a timer, later on a busy
			// machine: once scrolled, the bottom counts when the height
			// has held (a page that fits the first screen settled already)
			grew := false
			if step > 0 {
				if grew, err = heightGrows(ctx, p, w, height); err != nil {
					return err
				}
			}
			if !grew || step >= br.opts.SweepSteps {
				r.ReachedBottom = !grew
				break
			}
			continue
		}
		if step >= br.opts.SweepSteps {
			break
		}
	}
	_, err := p.Eval(`() => window.scrollTo(0, 0)`)
	return err
}

// scrollState is the bottom of the viewport and the page's height, CSS px.
func scrollState(p *rod.Page) (at, height int, err error) {
	res, err := p.Eval(scrollJS, false)
	if err != nil {
		return 0, 0, fmt.Errorf("sweep: %w", err)
	}
	var v [2]float64
	if err := json.Unmarshal([]byte(res.Value.Str()), &v); err != nil {
		return 0, 0, fmt.Errorf("sweep: %w", err)
	}
	return int(v[0]), int(v[1]), nil
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
	Gaps     []FrameGap   `json:"gaps"`
	Canvases []walkCanvas `json:"canvases"`
	Title    string       `json:"title"`
	Lang     string       `json:"lang"`
	URL      string       `json:"url"`
	Height   int          `json:"height"`
	Width    int          `json:"width"`
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
	r.canvases = out.Canvases
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
