package graph

import (
	"testing"

	"github.com/sieve-dev/sieve/normalize"
)

// TestStaticCanvasFallback: in the static tier, the fallback content of a
// closed <canvas> becomes blocks with source canvas_fallback, in reading
// order; the rest of the page stays static.
func TestStaticCanvasFallback(t *testing.T) {
	g := buildHTML(t, `<html><head><title>Chart</title></head><body><main>
<h1>Monthly sales</h1>
<p>The chart below shows the monthly sales figures for the year.</p>
<canvas id="chart" width="600" height="300"><p>Sales rose twelve percent in May and fell in June.</p></canvas>
<p>The figures come from the quarterly report of the sales team.</p>
</main></body></html>`)
	var order []string
	src := map[string]string{}
	for _, b := range g.Blocks {
		order = append(order, b.Text)
		src[b.Text] = b.Source
	}
	const fb = "Sales rose twelve percent in May and fell in June."
	if src[fb] != normalize.SourceCanvas {
		t.Fatalf("fallback block source %q, want canvas_fallback; blocks %q", src[fb], order)
	}
	if s := src["The figures come from the quarterly report of the sales team."]; s != "static" {
		t.Errorf("block after the canvas is %q", s)
	}
	pos := map[string]int{}
	for i, t := range order {
		pos[t] = i
	}
	if !(pos["The chart below shows the monthly sales figures for the year."] < pos[fb] && pos[fb] < pos["The figures come from the quarterly report of the sales team."]) {
		t.Errorf("reading order %q", order)
	}
}
