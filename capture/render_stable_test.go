package capture_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
)

// stableShape is what the stability bench compares between runs: the
// outcome and the blocks (with their texts, the ticker's aside).
func stableShape(rec capture.Record, g *graph.Record) (string, []string) {
	var texts []string
	for _, b := range g.Blocks {
		if strings.HasPrefix(b.Text, "tick ") {
			b.Text = "tick"
		}
		texts = append(texts, b.Text)
	}
	return string(g.Outcome.Status), texts
}

// TestRenderStableReads: a saved page read again and again gives the same
// read. Two pages that used not to: one whose script navigates away while
// the document is still being parsed (stopped only at its request, the
// navigation aborted the parser wherever it had got to), and one whose
// timer keeps changing the DOM for ever (never quiet: the read ends at the
// settle cap in whatever state the timer reached).
func TestRenderStableReads(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	dir := t.TempDir()
	para := `<p>A paragraph of the saved article, long enough to be read as a block of its own by the graph stage.</p>`
	pages := map[string]string{
		// the navigation starts before the rest of the document is parsed
		"leaves.html": `<!doctype html><html><head><title>Leaves</title></head><body><main><h1>Leaves early</h1>` + para +
			`<script>location.href = "http://example.invalid/elsewhere";</script>` +
			strings.Repeat(para, 30) + `<p>LAST PARAGRAPH of the saved page, after the script that tried to leave.</p></main></body></html>`,
		"ticks.html": `<!doctype html><html><head><title>Ticks</title></head><body><main><h1>Ticks for ever</h1>` + strings.Repeat(para, 6) +
			`<p id="t">tick 0</p></main><script>let n = 0; setInterval(() => { document.getElementById("t").textContent = "tick " + (++n); }, 30);</script></body></html>`,
	}
	site := newContainSite(t, map[string]string{})
	cp := containCapturerWith(t, site, capture.TierRender, func(o *capture.Options) {
		o.Browser.Settle = 1500 * time.Millisecond
	})
	for name, body := range pages {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		var first []string
		var firstStatus string
		for run := 0; run < 3; run++ {
			rec, g := captureAndGraph(t, cp, path)
			if rec.Render == nil || rec.Render.Error != nil || rec.Tier != capture.TierRender {
				t.Fatalf("%s run %d: not rendered: %+v", name, run, rec.Render)
			}
			status, texts := stableShape(rec, g)
			if name == "leaves.html" {
				if !strings.Contains(allText(rec, g), "LAST PARAGRAPH") {
					t.Errorf("%s run %d: the document after the leaving script was not read (%d blocks)", name, run, len(texts))
				}
				if topRefusal(rec) == "" {
					t.Errorf("%s run %d: the stopped navigation is not recorded: %+v", name, run, rec.Render.Refused)
				}
			}
			if run == 0 {
				first, firstStatus = texts, status
				continue
			}
			if status != firstStatus || strings.Join(texts, "\n") != strings.Join(first, "\n") {
				t.Errorf("%s run %d: %s with %d blocks, first run %s with %d blocks", name, run, status, len(texts), firstStatus, len(first))
			}
		}
	}
}

// topRefusal is the URL of the page's own refused navigation, "" when none.
func topRefusal(rec capture.Record) string {
	for _, r := range rec.Render.Refused {
		if r.TopLevel {
			return r.URL
		}
	}
	return ""
}
