package capture_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

// canary is a listener the browser must never reach: it counts TCP
// connections (not HTTP requests: a connection that is refused after it was
// made is not containment) and UDP datagrams on the same port number.
type canary struct {
	ln    net.Listener
	udp   net.PacketConn
	conns atomic.Int64
	dgram atomic.Int64
	mu    sync.Mutex
	seen  []string // first line of each request, for the failure message
}

func newCanary(t *testing.T) *canary {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &canary{ln: ln}
	if u, err := net.ListenPacket("udp", ln.Addr().String()); err == nil {
		c.udp = u
		go func() {
			buf := make([]byte, 2048)
			for {
				if _, _, err := u.ReadFrom(buf); err != nil {
					return
				}
				c.dgram.Add(1)
			}
		}()
	}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.conns.Add(1)
			go func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(2 * time.Second))
				buf := make([]byte, 4096)
				n, _ := conn.Read(buf)
				line, _, _ := strings.Cut(string(buf[:n]), "\r\n")
				c.mu.Lock()
				c.seen = append(c.seen, line)
				c.mu.Unlock()
				io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 40\r\n\r\n<p>root:x:0:0 canary private text</p>\n")
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		if c.udp != nil {
			c.udp.Close()
		}
	})
	return c
}

func (c *canary) url() string  { return "http://" + c.ln.Addr().String() }
func (c *canary) host() string { return c.ln.Addr().String() }

func (c *canary) assertUntouched(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := c.conns.Load(); n != 0 {
		t.Errorf("the canary on %s received %d TCP connections (requests: %q)", c.host(), n, c.seen)
	}
	if n := c.dgram.Load(); n != 0 {
		t.Errorf("the canary on %s received %d UDP datagrams", c.host(), n)
	}
}

// containSite serves the test pages on 127.0.0.1, the one address the
// capturer may reach (--allow-addr); pings record what the pages did.
type containSite struct {
	srv   *httptest.Server
	pages map[string]string
	mu    sync.Mutex
	pings map[string]int
	uas   []string
}

func newContainSite(t *testing.T, pages map[string]string) *containSite {
	s := &containSite{pages: pages, pings: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/ping", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.pings[r.URL.Query().Get("c")]++
		s.mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Content-Type", "image/gif")
	})
	// /hang never answers: a page that loads it never goes network-quiet
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.uas = append(s.uas, r.UserAgent())
		s.mu.Unlock()
		body, ok := s.pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasPrefix(body, "REDIRECT ") {
			http.Redirect(w, r, strings.TrimPrefix(body, "REDIRECT "), http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	})
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	return s
}

func (s *containSite) pinged(c string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pings[c]
}

// containCapturer may reach only site's address; everything else private
// (the canary among it) is refused.
func containCapturer(t *testing.T, site *containSite, tier string) *capture.Capturer {
	t.Helper()
	return containCapturerWith(t, site, tier, nil)
}

func containCapturerWith(t *testing.T, site *containSite, tier string, set func(*capture.Options)) *capture.Capturer {
	t.Helper()
	cp := capture.New(containOptions(site, tier, set))
	t.Cleanup(cp.Close)
	if tier != capture.TierStatic {
		if err := cp.Browser().Start(); err != nil {
			t.Fatal(err)
		}
	}
	return cp
}

// containOptions are the options of containCapturerWith.
func containOptions(site *containSite, tier string, set func(*capture.Options)) capture.Options {
	ap := netip.MustParseAddrPort(strings.TrimPrefix(site.srv.URL, "http://"))
	o := capture.DefaultOptions()
	o.AllowAddrs = []netip.AddrPort{ap}
	o.Tier = tier
	o.Concurrency = 2
	o.Browser.Settle = 3 * time.Second
	o.Browser.Timeout = 45 * time.Second // not under test: a loaded CI machine must not cut a read
	o.Browser.LaunchWait = time.Minute   // nor is this
	o.Browser.SweepSteps = 3
	if set != nil {
		set(&o)
	}
	return o
}

// captureAndGraph captures target with cp and builds its graph; both
// records must validate.
func captureAndGraph(t *testing.T, cp *capture.Capturer, target string) (capture.Record, *graph.Record) {
	t.Helper()
	tg, err := capture.ParseTarget([]byte(target))
	if err != nil {
		t.Fatal(err)
	}
	rec := cp.Capture(context.Background(), tg)
	b, err := codec.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.ValidateRecord(b); err != nil {
		t.Fatalf("capture record does not validate: %v", err)
	}
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.Build(n)
	gb, _ := codec.Marshal(g)
	if err := schemas.ValidateRecord(gb); err != nil {
		t.Fatalf("graph record does not validate: %v", err)
	}
	return rec, g
}

func allText(rec capture.Record, g *graph.Record) string {
	var sb strings.Builder
	sb.WriteString(rec.FinalURL + "\n")
	for _, b := range g.Blocks {
		sb.WriteString(b.Text + "\n")
	}
	for _, n := range rec.DOM {
		sb.WriteString(n.Text + "\n")
	}
	return sb.String()
}

const filler = `<h1>A public page</h1><p>This page is public and its text is long enough to read as an article on its own, so the tier decision has something to keep.</p>`

// page wraps body in a document whose script pings the site when it has run
// (the control: the page's scripts did run).
func page(name, body string) string {
	return `<!doctype html><html><head><title>` + name + `</title></head><body>` + filler + body +
		`<script>setTimeout(() => { new Image().src = "/ping?c=` + name + `"; }, 300);</script></body></html>`
}

// TestRenderContainment renders pages that try every way out to a private
// address; the canary listener must see no connection at all, and each page
// must have run its scripts (the ping).
func TestRenderContainment(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	can := newCanary(t)
	cu := can.url()
	wsURL := "ws://" + can.host() + "/socket"
	cases := map[string]string{
		"img":         `<img src="` + cu + `/img.png">`,
		"script":      `<script src="` + cu + `/s.js"></script>`,
		"style":       `<link rel="stylesheet" href="` + cu + `/s.css">`,
		"font":        `<style>@font-face{font-family:X;src:url(` + cu + `/f.woff)} p{font-family:X}</style>`,
		"iframe":      `<iframe src="` + cu + `/frame"></iframe>`,
		"fetch":       `<script>fetch("` + cu + `/fetch").catch(()=>{}); fetch("` + cu + `/post", {method: "POST", body: "secret", mode: "no-cors"}).catch(()=>{});</script>`,
		"xhr":         `<script>const x = new XMLHttpRequest(); x.open("GET", "` + cu + `/xhr"); x.send();</script>`,
		"beacon":      `<script>navigator.sendBeacon("` + cu + `/beacon", "secret");</script>`,
		"eventsource": `<script>new EventSource("` + cu + `/events");</script>`,
		"websocket":   `<script>try { new WebSocket("` + wsURL + `"); } catch (e) {}</script>`,
		// the page stays busy (an attribute a tick) until the worker has sent its request: a slow machine starts it late
		"worker":         `<script>const w = new Worker(URL.createObjectURL(new Blob(['fetch("` + cu + `/from-worker").catch(()=>{}); postMessage(1)'], {type: "text/javascript"}))); const busy = setInterval(() => { document.body.dataset.t = Date.now(); }, 100); w.onmessage = () => clearInterval(busy);</script>`,
		"serviceworker":  `<script>if (navigator.serviceWorker) navigator.serviceWorker.register("/sw.js").catch(()=>{});</script>`,
		"prefetch":       `<link rel="prefetch" href="` + cu + `/prefetch"><link rel="preload" as="image" href="` + cu + `/preload.png"><link rel="dns-prefetch" href="` + cu + `">`,
		"media":          `<video src="` + cu + `/v.mp4" autoplay muted></video><audio src="` + cu + `/a.mp3" autoplay></audio>`,
		"webrtc":         `<script>try { const pc = new RTCPeerConnection({iceServers: [{urls: "stun:` + can.host() + `"}]}); pc.createDataChannel("x"); pc.createOffer().then(o => pc.setLocalDescription(o)); } catch (e) {}</script>`,
		"popup":          `<script>window.open("` + cu + `/popup");</script>`,
		"popup_noopener": `<script>window.open("` + cu + `/popup2", "_blank", "noopener");</script>`,
		"blank_link":     `<a id="l" target="_blank" href="` + cu + `/link">go</a><script>document.getElementById("l").click();</script>`,
		"form_post":      `<form id="f" target="_blank" method="post" action="` + cu + `/form"><input name="secret" value="s3cret"></form><script>document.getElementById("f").submit();</script>`,
		"redirect_sub":   `<img src="/hop">`,
	}
	pages := map[string]string{"/hop": "REDIRECT " + cu + "/after-hop", "/sw.js": "fetch('" + cu + "/sw')"}
	for name, body := range cases {
		pages["/"+name] = page(name, body)
	}
	site := newContainSite(t, pages)
	// four pages at a time: each read mostly waits (settle, the ping)
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) {
		o.Concurrency = 4
		o.Browser.Settle = 6 * time.Second // the cap; a page ends once quiet
	})
	t.Run("pages", func(t *testing.T) {
		for name := range cases {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				rec, _ := captureAndGraph(t, cp, site.srv.URL+"/"+name)
				if rec.Render == nil || rec.Render.Error != nil || rec.Error != nil {
					t.Fatalf("render failed: %+v %+v", rec.Render, rec.Error)
				}
				if site.pinged(name) == 0 {
					t.Errorf("the page's script did not run (no ping): the test proves nothing")
				}
				if b := rec.Trace.Browser; b == nil || !b.Sandboxed {
					t.Errorf("Chromium ran without its sandbox: %+v", b)
				}
				if len(rec.Render.Refused) == 0 && name != "serviceworker" && name != "webrtc" {
					t.Errorf("nothing recorded in render.refused")
				}
				t.Logf("settled %s after %d ms; refused: %+v", rec.Render.Settled, rec.Render.WaitedMS, rec.Render.Refused)
			})
		}
	})
	time.Sleep(500 * time.Millisecond) // late stragglers would arrive now
	can.assertUntouched(t)
}

// TestRenderTopLevelNavigationRefused: a public page that leaves for a
// private address by meta refresh, location.replace or a redirect is not
// read as the private page: the refused navigation is the outcome.
func TestRenderTopLevelNavigationRefused(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	can := newCanary(t)
	cu := can.url()
	site := newContainSite(t, map[string]string{
		"/meta":    `<html><head><meta http-equiv="refresh" content="0; url=` + cu + `/meta"><script>1</script></head><body><p>moving</p></body></html>`,
		"/replace": `<html><body><p>moving</p><script>location.replace("` + cu + `/replace");</script></body></html>`,
		"/chain":   `<html><body><p>moving</p><script>location.href = "/hop";</script></body></html>`,
		"/hop":     "REDIRECT " + cu + "/hop",
	})
	cp := containCapturer(t, site, capture.TierAuto)
	for _, p := range []string{"/meta", "/replace", "/chain"} {
		t.Run(p[1:], func(t *testing.T) {
			rec, g := captureAndGraph(t, cp, site.srv.URL+p)
			text := allText(rec, g)
			if strings.Contains(text, "canary private text") || strings.Contains(rec.FinalURL, can.host()) {
				t.Errorf("the private page was read: final_url %s\n%s", rec.FinalURL, text)
			}
			if rec.Error == nil || rec.Error.Kind != capture.ErrPrivate {
				t.Fatalf("error = %+v, want private_address; render %+v", rec.Error, rec.Render)
			}
			if g.Outcome.Status != graph.StatusBlocked || !strings.Contains(strings.Join(g.Outcome.Evidence, " "), can.host()) {
				t.Errorf("outcome %s %q, want blocked naming %s", g.Outcome.Status, g.Outcome.Evidence, can.host())
			}
			var top bool
			for _, r := range rec.Render.Refused {
				top = top || r.TopLevel && r.ResourceType == "Document"
			}
			if !top {
				t.Errorf("no top-level refusal recorded: %+v", rec.Render.Refused)
			}
		})
	}
	can.assertUntouched(t)
}

// TestRenderServesCheckedBytes: a server that answers Chromium's
// User-Agent differently (here: a redirect to a private address) cannot
// swap the page: the browser renders the bytes the static fetch checked.
func TestRenderServesCheckedBytes(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	can := newCanary(t)
	var docs atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", http.NotFound)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r) // favicon.ico
			return
		}
		docs.Add(1)
		if strings.Contains(r.UserAgent(), "Chrome") {
			http.Redirect(w, r, can.url()+"/for-chrome", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><body><div id="app"></div><script>document.getElementById("app").innerHTML = "<h1>Checked</h1><p>The checked page, rendered from the bytes the static fetch received and the address policy passed.</p>";</script></body></html>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	site := &containSite{srv: srv}
	cp := containCapturer(t, site, capture.TierAuto)
	rec, g := captureAndGraph(t, cp, srv.URL+"/")
	if rec.Tier != capture.TierRender || rec.Error != nil {
		t.Fatalf("tier %s error %+v render %+v", rec.Tier, rec.Error, rec.Render)
	}
	if !strings.Contains(allText(rec, g), "The checked page") {
		t.Errorf("the rendered page is not the checked one:\n%s", allText(rec, g))
	}
	if n := docs.Load(); n != 1 {
		t.Errorf("the document was fetched %d times, want once (by the static fetch)", n)
	}
	can.assertUntouched(t)
}

// TestRenderLocalFileStaysLocal: a saved page renders with access to
// itself only: no other file:// path, no network.
func TestRenderLocalFileStaysLocal(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	can := newCanary(t)
	site := newContainSite(t, map[string]string{})
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.txt")
	os.WriteFile(secret, []byte("root:x:0:0 local secret"), 0o644)
	cases := map[string]string{
		"replace.html": `<p>saved</p><script>location.replace("file:///etc/passwd");</script>`,
		"sibling.html": `<p>saved</p><iframe src="secret.txt"></iframe><script>location.href = "file://` + secret + `";</script>`,
		"leave.html":   `<p>saved page that stays</p><script>setTimeout(() => { location.href = "http://example.invalid/elsewhere"; }, 100);</script>`,
		"net.html": `<p>saved page text</p><img src="` + can.url() + `/i.png"><img src="` + site.srv.URL + `/ping?c=file">` +
			`<script>fetch("` + can.url() + `/f").catch(()=>{}); new Image().src = "` + can.url() + `/img2"; document.body.insertAdjacentHTML("beforeend", "<p>script ran</p>");</script>`,
	}
	cp := containCapturer(t, site, capture.TierRender)
	for name, body := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(`<!doctype html><html><body>`+filler+body+`</body></html>`), 0o644)
		t.Run(name, func(t *testing.T) {
			rec, g := captureAndGraph(t, cp, path)
			text := allText(rec, g)
			if strings.Contains(text, "root:x:0:0") {
				t.Errorf("another local file was read:\n%s", text)
			}
			if !strings.HasPrefix(rec.FinalURL, "file://") {
				t.Errorf("final_url %q, want the file's URL", rec.FinalURL)
			}
			if name == "leave.html" {
				if rec.Error != nil || !strings.Contains(text, "saved page that stays") {
					t.Errorf("the page that tried to leave was not read as itself: error %+v\n%s", rec.Error, text)
				}
				var stopped bool
				for _, r := range rec.Render.Refused {
					stopped = stopped || r.TopLevel && strings.Contains(r.URL, "example.invalid")
				}
				if !stopped || rec.Render.Navigated {
					t.Errorf("the stopped navigation is not recorded: navigated %v, refused %+v", rec.Render.Navigated, rec.Render.Refused)
				}
			}
			if name == "net.html" {
				if !strings.Contains(text, "script ran") {
					t.Errorf("the page's script did not run:\n%s", text)
				}
				if len(rec.Render.Refused) == 0 {
					t.Errorf("no refusal recorded")
				}
			}
		})
	}
	if n := site.pinged("file"); n != 0 {
		t.Errorf("a local file reached the network (even the allowed address): %d requests", n)
	}
	can.assertUntouched(t)
}

// TestRenderDialogsDismissed: alert() on load does not hold the read until
// the render timeout, and what the page writes after it is read.
func TestRenderDialogsDismissed(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	site := newContainSite(t, map[string]string{
		"/dialogs": `<html><body><div id="app"></div><script>alert("first"); confirm("sure?"); prompt("name?");
document.getElementById("app").innerHTML = "<h1>After</h1><p>Text written after three dialogs were answered, long enough to be an article paragraph of its own.</p>";
window.onbeforeunload = (e) => { e.preventDefault(); return "stay"; };</script></body></html>`,
	})
	// A dialog left open holds the read until the render timeout: a long
	// one, so that the bound below holds on a loaded machine too.
	const timeout = time.Minute
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) { o.Browser.Timeout = timeout })
	start := time.Now()
	rec, g := captureAndGraph(t, cp, site.srv.URL+"/dialogs")
	if d := time.Since(start); d > timeout/2 {
		t.Errorf("the read took %v of its %v render timeout: a dialog held it", d, timeout)
	}
	if rec.Render == nil || rec.Render.Error != nil {
		t.Fatalf("render failed: %+v", rec.Render)
	}
	if !strings.Contains(allText(rec, g), "Text written after three dialogs") {
		t.Errorf("the text written after the dialogs is missing")
	}
	var types []string
	for _, d := range rec.Render.Dialogs {
		types = append(types, d.Type+":"+d.Message)
	}
	if got := strings.Join(types, ","); got != "alert:first,confirm:sure?,prompt:name?" {
		t.Errorf("dialogs = %s", got)
	}
}

// TestAllowAddrIsExact: --allow-addr allows one address:port; the static
// fetch of another loopback port stays refused.
func TestAllowAddrIsExact(t *testing.T) {
	can := newCanary(t)
	site := newContainSite(t, map[string]string{"/": "<p>ok</p>"})
	cp := containCapturer(t, site, capture.TierStatic)
	rec, _ := captureAndGraph(t, cp, site.srv.URL+"/")
	if rec.Error != nil {
		t.Fatalf("the allowed address was refused: %+v", rec.Error)
	}
	rec, _ = captureAndGraph(t, cp, can.url()+"/")
	if rec.Error == nil || rec.Error.Kind != capture.ErrPrivate {
		t.Errorf("another loopback port was not refused: %+v", rec.Error)
	}
	can.assertUntouched(t)
}
