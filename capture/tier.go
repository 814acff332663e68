package capture

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sieve-dev/sieve/internal/markers"
)

// staticRead is what the tier decision knows about a static read.
type staticRead struct {
	chars    int    // visible text characters (served HTML, scripts not run)
	scripts  int    // <script> elements
	mount    string // an empty application mount point, if any
	vendor   string // a bot-protection marker, if any
	noscript bool   // a <noscript> asks for JavaScript
	low      []byte // marker's buffer
}

// Escalation thresholds: a static read is a shell below shellChars of
// text with scripts, and thin below fullChars.
const (
	shellChars = 200
	fullChars  = 1500
)

var challengeMarkers = []string{"challenge-platform", "cf-chl", "_cf_chl_opt", "turnstile", "hcaptcha", "px-captcha", "captcha-delivery", "_incapsula_resource", "datadome", "awswaf"}

// decideTier scores a static capture and says whether to render it:
// score is 0–1, how well the static read stands on its own.
func decideTier(rec *Record) (score *float64, render bool, reason string) {
	if rec.Error != nil {
		return nil, false, "the static fetch failed (" + rec.Error.Kind + "): there is nothing to render"
	}
	if rec.ContentType != "text/html" && rec.ContentType != "application/xhtml+xml" {
		return nil, false, fmt.Sprintf("content type %q is read as served", rec.ContentType)
	}
	s, doc := scanStatic(rec.Body)
	rec.KeepParsedBody(doc)
	v := math.Round(math.Min(1, float64(s.chars)/fullChars)*100) / 100
	if s.scripts == 0 {
		v = 1
	}
	if s.vendor != "" || strings.EqualFold(rec.Headers["cf-mitigated"], "challenge") {
		v = 0
	}
	score = &v
	facts := fmt.Sprintf("%d characters of visible text, %d scripts", s.chars, s.scripts)
	if s.mount != "" {
		facts += ", empty mount point " + s.mount
	}
	if s.vendor != "" {
		facts += ", bot-protection marker " + s.vendor
	}
	switch {
	case s.scripts == 0:
		return score, false, "static read kept: " + facts + " (no scripts could change it)"
	case rec.Status >= 400 && v > 0:
		return score, false, fmt.Sprintf("static read kept: HTTP %d without challenge markers", rec.Status)
	case s.chars < shellChars || s.mount != "" || v == 0:
		return score, true, fmt.Sprintf("static read scored %.2f (%s): rendered", v, facts)
	}
	return score, false, fmt.Sprintf("static read scored %.2f (%s): kept", v, facts)
}

// scanStatic reads the facts decideTier needs from served HTML.
func scanStatic(body string) (staticRead, *html.Node) {
	var s staticRead
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		return s, nil
	}
	var visit func(n *html.Node, hidden bool)
	visit = func(n *html.Node, hidden bool) {
		switch n.Type {
		case html.TextNode:
			if !hidden {
				s.chars += spacedLen(n.Data)
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script:
				s.scripts++
				s.marker(textOf(n), attrOf(n, "src"))
				return
			case atom.Noscript:
				s.noscript = s.noscript || strings.Contains(strings.ToLower(textOf(n)), "javascript")
				return
			case atom.Style, atom.Template, atom.Head:
				s.headScripts(n)
				return
			}
			s.marker(attrOf(n, "class"), attrOf(n, "id"), attrOf(n, "src"))
			hidden = hidden || hasAttrOf(n, "hidden") || strings.Contains(strings.ReplaceAll(attrOf(n, "style"), " ", ""), "display:none")
			if id := attrOf(n, "id"); s.mount == "" && markers.MountIDs[id] && strings.TrimSpace(textOf(n)) == "" {
				s.mount = fmt.Sprintf("<%s id=%q>", n.Data, id)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, hidden)
		}
	}
	visit(doc, false)
	return s, doc
}

// headScripts counts the scripts inside head (visit skips head's text).
func (s *staticRead) headScripts(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Script {
			s.scripts++
			s.marker(textOf(c), attrOf(c, "src"))
		}
	}
}

func textOf(n *html.Node) string {
	var sb strings.Builder
	var f func(*html.Node)
	f = func(n *html.Node) {
		if n.Type == html.TextNode {
			sb.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.DataAtom == atom.Script || c.DataAtom == atom.Style) && n.DataAtom != atom.Script {
				continue
			}
			f(c)
		}
	}
	f(n)
	return sb.String()
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttrOf(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// Ready reports a setup error before any target is read: --tier render
// without a usable Chromium fails here, once and fast. (--tier auto falls
// back to the static read page by page instead.)
func (c *Capturer) Ready() error {
	if c.opts.Tier != TierRender {
		return nil
	}
	return c.browser.Start()
}

// tiered applies the render tier to a finished static capture, as the
// tier option asks: rendering it, keeping it, or keeping it because the
// browser read failed (tier_fell_back).
func (c *Capturer) tiered(ctx context.Context, rec *Record) {
	score, want, reason := decideTier(rec)
	rec.TierScore, rec.TierReason = score, reason
	if c.opts.Tier == TierRender && rec.Error == nil && (rec.ContentType == "text/html" || rec.ContentType == "application/xhtml+xml") {
		want, rec.TierReason = true, "--tier render: "+reason
	}
	if !want || c.browser == nil {
		return
	}
	// Not held while the page renders: the render replaces what was parsed.
	rec.KeepParsedBody(nil)
	var store blobPutter // a nil *blob.Store must stay a nil interface
	if c.blobs != nil {
		store = c.blobs
	}
	r, err := c.render(ctx, rec, store)
	if err != nil {
		rec.TierFellBack = true
		rec.Render = &Render{FrameGaps: []FrameGap{}, Error: &Error{Kind: ErrRender, Message: err.Error()}}
		var st *starvedError
		if errors.As(err, &st) {
			rec.TierReason += "; the browser read far less text than the static read twice, the static read is kept"
			rec.Render.Retried = true
		} else {
			rec.TierReason += "; the browser read failed, the static read is kept"
		}
		return
	}
	c.mergeRender(rec, r)
}

// render reads rec's page in the browser: once more when the first read
// ran out of time (a busy machine), and once more with three times the
// settle cap when it showed far less text than the static read (a render
// that ended before the page had drawn). A page still starved then is a
// *starvedError: the static read stands.
func (c *Capturer) render(ctx context.Context, rec *Record, store blobPutter) (*pageRead, error) {
	nav := navigationFor(rec)
	r, err := c.browser.read(ctx, nav, store)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		if r, err = c.browser.read(ctx, nav, store); err == nil {
			r.render.Retried = true
		}
	}
	if err != nil || refusedTop(r, rec) {
		return r, err
	}
	static := c.farLess(rec, r)
	if static == 0 {
		return r, nil
	}
	nav.settle = 3 * c.browser.opts.Settle
	if r2, err := c.browser.read(ctx, nav, store); err == nil && c.farLess(rec, r2) == 0 {
		r2.render.Retried = true
		return r2, nil
	}
	return nil, &starvedError{rendered: visibleChars(r.nodes), static: static, settle: nav.settle}
}

// starvedError is a render that showed far less text than the static
// read, twice.
type starvedError struct {
	rendered, static int
	settle           time.Duration
}

func (e *starvedError) Error() string {
	return fmt.Sprintf("the rendered page showed %d characters of visible text against %d in the static read, also when read again with a %d ms settle cap",
		e.rendered, e.static, e.settle.Milliseconds())
}

// fileOrigin is the stand-in origin a local file is rendered under: the
// browser is given the file's bytes for it and nothing else, so the page
// can reach neither the network nor another file:// path.
const fileOrigin = "http://sieve-local-file.invalid"

// navigationFor is how the browser reads rec's page: it is served the
// bytes the static read received (and the policy checked); a local file is
// served under fileOrigin with every other request refused.
func navigationFor(rec *Record) navigation {
	doc := &servedDoc{status: rec.Status, contentType: rec.ContentType, body: rec.Body}
	if path, ok := strings.CutPrefix(rec.FinalURL, "file://"); ok {
		return navigation{url: fileOrigin + path, served: doc, deny: "a local file renders with access to itself only", unmap: unmapFileURL}
	}
	return navigation{url: rec.FinalURL, served: doc}
}

func unmapFileURL(u string) string {
	if rest, ok := strings.CutPrefix(u, fileOrigin+"/"); ok {
		return "file:///" + rest
	}
	return u
}

// unmapRead turns the browser's URLs of a stand-in origin back.
func unmapRead(r *pageRead, unmap func(string) string) {
	r.finalURL, r.render.FinalURL = unmap(r.finalURL), unmap(r.render.FinalURL)
	for i := range r.nodes {
		for _, k := range []string{"href", "src", "action"} {
			if v, ok := r.nodes[i].Attrs[k]; ok {
				r.nodes[i].Attrs[k] = unmap(v)
			}
		}
	}
	for i := range r.render.FrameGaps {
		r.render.FrameGaps[i].Src = unmap(r.render.FrameGaps[i].Src)
	}
	for i := range r.render.Refused {
		r.render.Refused[i].URL = unmap(r.render.Refused[i].URL)
	}
	for i := range r.redirects {
		r.redirects[i].URL = unmap(r.redirects[i].URL)
	}
}

// refusedTop reports whether the page left for a refused address (a local
// file's stopped navigation does not count: its page stays).
func refusedTop(r *pageRead, rec *Record) bool {
	return topRefusal(r.render.Refused) != nil && !strings.HasPrefix(rec.URL, "file://")
}

// farLess returns the static read's character count when the render read
// far less visible text (under a quarter of a static read of some length);
// 0 when the render stands.
func (c *Capturer) farLess(rec *Record, r *pageRead) int {
	got := visibleChars(r.nodes)
	if got >= fullChars {
		return 0
	}
	s, _ := scanStatic(rec.Body)
	static := s.chars
	if static < 500 || got*4 >= static {
		return 0
	}
	return static
}

// visibleChars counts the rendered text outside hidden elements.
func visibleChars(nodes []DOMNode) int {
	hidden := make([]bool, len(nodes))
	n := 0
	for i := range nodes {
		d := &nodes[i]
		hidden[i] = d.Hidden != "" || (d.Parent >= 0 && d.Parent < i && hidden[d.Parent])
		if !hidden[i] && d.Tag == "#text" {
			n += utf8.RuneCountInString(strings.Join(strings.Fields(d.Text), " "))
		}
	}
	return n
}

// mergeRender makes rec the render-tier capture: the browser's view of the
// main document and the walker's nodes; the served body stays (its bytes
// are what source_fingerprint covers).
func (c *Capturer) mergeRender(rec *Record, r *pageRead) {
	rec.Tier = TierRender
	rec.Trace.Tier = TierRender
	rec.Trace.Browser = c.browserTrace()
	rec.Trace.Browser.OCR = r.ocr
	rec.Render = &r.render
	if top := topRefusal(r.render.Refused); top != nil && !strings.HasPrefix(rec.URL, "file://") {
		// the page tried to leave for a refused address (or out of the
		// crawl's scope): that is the outcome, never a silently different page
		kind := ErrPrivate
		if top.OutOfScope {
			kind = ErrOutOfScope
		}
		rec.Error = &Error{Kind: kind, Message: "the page's own navigation to " + top.URL + " was refused: " + top.Reason}
		return
	}
	if r.render.Navigated && r.status > 0 {
		rec.Status, rec.Headers = r.status, r.headers
	}
	rec.Redirects = append(rec.Redirects, r.redirects...)
	if r.finalURL != "" {
		rec.FinalURL = r.finalURL
	}
	rec.DOM = r.nodes
}

func topRefusal(rs []Refusal) *Refusal {
	for i := range rs {
		if rs[i].TopLevel {
			return &rs[i]
		}
	}
	return nil
}

func (c *Capturer) browserTrace() *BrowserTrace {
	v := c.browser.Version()
	o := c.browser.opts
	on, user, note := c.browser.Sandbox()
	return &BrowserTrace{
		Chromium:        v.Product,
		UserAgent:       v.UserAgent,
		WalkerSHA256:    WalkerSHA256,
		Viewport:        fmt.Sprintf("%dx%d", o.Width, o.Height),
		Locale:          o.Locale,
		Timezone:        o.Timezone,
		Flags:           c.browser.Flags(),
		SettleMS:        o.Settle.Milliseconds(),
		SweepSteps:      o.SweepSteps,
		RenderTimeoutMS: o.Timeout.Milliseconds(),
		Sandboxed:       on,
		RunAs:           user,
		SandboxNote:     note,
		HeapMB:          o.HeapMB,
		MemoryMB:        o.MemoryMB,
	}
}
