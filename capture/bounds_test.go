package capture_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
)

const longText = `<p>The greedy page still has an article of its own: a few sentences that a static read finds and keeps, so that when the browser read is cut off the artifact says so and shows the served text instead. The sentences go on long enough to make the page read as an article rather than as an application shell, which is what a real page would look like before its scripts ran away with the memory of the machine.</p>`

// TestRenderMemoryBudget: a page that allocates without end is cut off —
// by its JavaScript heap limit, or (memory outside the JS heap) by the
// watchdog over the browser tree — read as partial with evidence, and the
// next page renders normally.
func TestRenderMemoryBudget(t *testing.T) {
	needChromium(t)
	site := newContainSite(t, map[string]string{
		"/heap":    `<html><body>` + filler + longText + `<img src="/hang"><script>setInterval(() => { document.title = Math.random(); }, 50); const keep = []; setInterval(() => { for (let i = 0; i < 200; i++) keep.push(new Array(10000).fill(Math.random())); }, 5);</script></body></html>`,
		"/buffers": `<html><body>` + filler + longText + `<img src="/hang"><script>setInterval(() => { document.title = Math.random(); }, 50); const keep = []; setInterval(() => { const b = new Uint8Array(32 << 20); b.fill(1); keep.push(b); }, 20);</script></body></html>`,
		"/fine":    page("fine", `<p>An ordinary page after the greedy ones, rendered as usual with all of its text intact and readable.</p>`),
	})
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) {
		o.Browser.HeapMB = 256
		o.Browser.MemoryMB = 1024
		// A greedy page is cut off as soon as it passes a budget; the long
		// settle only gives it time to get there on a loaded machine (a
		// throttled page read at an 8 s cap had not yet passed 256 MiB).
		o.Browser.Settle = 30 * time.Second
		o.Browser.Timeout = 60 * time.Second
	})
	for _, p := range []struct{ path, want string }{
		{"/heap", "JavaScript heap limit of 256 MiB"},
		{"/buffers", "memory budget of 1024 MiB"},
	} {
		t.Run(p.path[1:], func(t *testing.T) {
			rec, g := captureAndGraph(t, cp, site.srv.URL+p.path)
			if !rec.TierFellBack || rec.Render == nil || rec.Render.Error == nil {
				t.Fatalf("the greedy page was not cut off: fell back %v, render %+v", rec.TierFellBack, rec.Render)
			}
			if !strings.Contains(rec.Render.Error.Message, p.want) {
				t.Errorf("render error %q does not say %q", rec.Render.Error.Message, p.want)
			}
			if g.Outcome.Status != graph.StatusPartial {
				t.Errorf("outcome %s, want partial", g.Outcome.Status)
			}
			if peak := cp.Browser().PeakMemory(); peak > (1024+512)<<20 {
				t.Errorf("the browser tree reached %d MiB, well past its 1024 MiB budget", peak>>20)
			}
		})
	}
	rec, g := captureAndGraph(t, cp, site.srv.URL+"/fine")
	if rec.Render == nil || rec.Render.Error != nil || !strings.Contains(allText(rec, g), "rendered as usual") {
		t.Errorf("the page after the greedy ones did not render: %+v", rec.Render)
	}
}
