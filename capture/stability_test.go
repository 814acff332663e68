package capture_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
)

// feedPage loads more items as its sentinel scrolls into view
// (IntersectionObserver, requestAnimationFrame, timers: what background
// tabs throttle), without end.
const feedPage = `<!doctype html><html><head><title>Feed</title></head><body><main><h1>Endless feed</h1><div id="feed"></div><div id="end" style="height:10px"></div></main><script>
let n = 0;
function more() { requestAnimationFrame(() => setTimeout(() => { for (let i = 0; i < 8; i++, n++) { const p = document.createElement("p"); p.style.height = "110px"; p.textContent = "FEED-ITEM " + n + " with words to read in the endless feed."; document.getElementById("feed").appendChild(p); } }, 50)); }
more();
new IntersectionObserver((es) => { if (es.some(e => e.isIntersecting)) more(); }).observe(document.getElementById("end"));
</script></body></html>`

// busyPage keeps its renderer and the DOM busy for the whole read.
const busyPage = `<!doctype html><html><head><title>Busy</title></head><body><h1>Busy</h1><p id="x">busy</p><script>
setInterval(() => { const t = performance.now(); while (performance.now() - t < 40) {} document.getElementById("x").textContent = "busy " + t; }, 50);
</script></body></html>`

func feedShape(rec capture.Record) (items int, bottom bool, steps int) {
	for _, n := range rec.DOM {
		if strings.HasPrefix(n.Text, "FEED-ITEM ") {
			items++
		}
	}
	return items, rec.Render.ReachedBottom, rec.Render.Checkpoints
}

// TestRenderSameBesideBusyPages: an infinite-scroll page reads the same
// alone and beside three busy pages (every tab is a focused, visible
// foreground tab: no background throttling).
func TestRenderSameBesideBusyPages(t *testing.T) {
	needChromium(t)
	site := newContainSite(t, map[string]string{"/feed": feedPage, "/busy1": busyPage, "/busy2": busyPage, "/busy3": busyPage})
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) {
		o.Concurrency = 4
		o.Browser.SweepSteps = 6
		o.Browser.Settle = 6 * time.Second
		o.Browser.Timeout = 60 * time.Second
	})
	read := func(path string) capture.Record {
		tg, _ := capture.ParseTarget([]byte(site.srv.URL + path))
		return cp.Capture(context.Background(), tg)
	}
	alone := read("/feed")
	if alone.Render == nil || alone.Render.Error != nil {
		t.Fatalf("render failed: %+v", alone.Render)
	}
	ai, ab, as := feedShape(alone)
	if ai < 40 || ab {
		t.Fatalf("alone: %d items, reached_bottom %v: the sweep did not load the feed", ai, ab)
	}
	for round := 0; round < 2; round++ {
		var wg sync.WaitGroup
		var beside capture.Record
		for _, p := range []string{"/busy1", "/busy2", "/busy3", "/feed"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := read(p)
				if p == "/feed" {
					beside = r
				}
			}()
		}
		wg.Wait()
		if beside.Render == nil || beside.Render.Error != nil {
			t.Fatalf("render beside busy pages failed: %+v %+v", beside.Render, beside.Render.Error)
		}
		bi, bb, bs := feedShape(beside)
		if bi != ai || bb != ab || bs != as {
			t.Errorf("round %d: alone %d items (bottom %v, %d steps), beside busy pages %d items (bottom %v, %d steps)", round, ai, ab, as, bi, bb, bs)
		}
	}
}

// TestRenderFarLessThanStatic: a render that shows far less text than the
// static read is not taken at its word: the page is read again with a
// longer settle, and when that still shows little, the static read stays
// (tier_fell_back) and the evidence says why.
func TestRenderFarLessThanStatic(t *testing.T) {
	needChromium(t)
	article := strings.Repeat(`<p>A paragraph of the article that the static read finds in the served HTML, long enough to count.</p>`, 12)
	site := newContainSite(t, map[string]string{
		// shows its text only after 4 s: past the first settle cap, within the second
		"/slow": `<html><body style="visibility:hidden"><h1>Slow</h1>` + article + `<script>setTimeout(() => { document.body.style.visibility = "visible"; }, 4000);</script></body></html>`,
		// never shows it in the browser
		"/never": `<html><body><h1>Never</h1>` + article + `<script>document.body.style.display = "none";</script></body></html>`,
	})
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) {
		o.Browser.Settle = 2 * time.Second
		o.Browser.Timeout = 30 * time.Second
	})
	rec, _ := captureAndGraph(t, cp, site.srv.URL+"/slow")
	if rec.Tier != capture.TierRender || rec.Render == nil || !rec.Render.Retried || rec.TierFellBack {
		t.Errorf("/slow: tier %s, fell back %v, render %+v: want a second, successful read", rec.Tier, rec.TierFellBack, rec.Render)
	}
	rec, g := captureAndGraph(t, cp, site.srv.URL+"/never")
	if !rec.TierFellBack || rec.Render == nil || rec.Render.Error == nil || !strings.Contains(rec.Render.Error.Message, "in the static read") {
		t.Fatalf("/never: fell back %v, render %+v: want the static read kept", rec.TierFellBack, rec.Render)
	}
	if g.Outcome.Status == "empty_after_render" || g.Outcome.Status == "challenge" {
		t.Errorf("/never: outcome %s from a render that read less than the static read", g.Outcome.Status)
	}
	if !strings.Contains(strings.Join(g.Outcome.Evidence, " "), "in the static read") {
		t.Errorf("/never: evidence %q does not say why", g.Outcome.Evidence)
	}
}

// TestRenderSpareHasNoDeadline: the tab opened ahead of a read (the spare)
// waits for as long as no read comes, so its page's session, which carries
// the page's events, has no deadline. Attached under the 10 s cap of
// attaching, a spare that waited longer went deaf and its read failed and
// was made again (and a setup slowed past 10 s failed as "tab setup:
// context deadline exceeded").
func TestRenderSpareHasNoDeadline(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	site := newContainSite(t, map[string]string{
		"/a": page("a", `<p>A paragraph the browser reads.</p><img src="/ping?c=a">`),
	})
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) { o.Concurrency = 1 })
	for round := range 2 { // the spare of Start, then the one a read leaves
		if d, ok, err := capture.SpareDeadline(cp.Browser()); err != nil || ok {
			t.Fatalf("round %d: the spare's page session ends at %v (deadline %v, error %v)", round, d, ok, err)
		}
		rec, _ := captureAndGraph(t, cp, site.srv.URL+"/a")
		if rec.Render == nil || rec.Render.Error != nil || rec.TierFellBack || site.pinged("a") == 0 {
			t.Fatalf("round %d: render %+v, fell back %v, pinged %d", round, rec.Render, rec.TierFellBack, site.pinged("a"))
		}
	}
}

// TestRenderWorkerPageSettles: a page that starts a dedicated worker goes
// quiet like any other. The worker's script request is announced to the
// page but ends on the worker's own target: counted in flight, it kept
// every such page from quiet until the settle cap.
func TestRenderWorkerPageSettles(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	site := newContainSite(t, map[string]string{
		"/worker": page("worker", `<script>const w = new Worker("/w.js"); w.onmessage = (e) => { document.getElementById("out").textContent = e.data; };</script><p id="out"></p>`),
		"/blob":   page("blob", `<script>new Worker(URL.createObjectURL(new Blob(["postMessage(1)"], {type: "text/javascript"})));</script>`),
		"/w.js":   `postMessage("A line the worker wrote.");`,
	})
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) {
		o.Concurrency = 1
		o.Browser.Settle = 20 * time.Second // a read that ends at the cap was held by the worker
	})
	for _, name := range []string{"worker", "blob"} {
		rec, _ := captureAndGraph(t, cp, site.srv.URL+"/"+name)
		if rec.Render == nil || rec.Render.Error != nil {
			t.Fatalf("/%s: render %+v", name, rec.Render)
		}
		if rec.Render.Settled == "cap" {
			t.Errorf("/%s: settled at the cap after %d ms: the worker's script kept the page from quiet", name, rec.Render.WaitedMS)
		}
	}
}
