package normalize

import (
	"strings"
	"testing"
)

// TestCanvasFallbackStatic: the fallback content of a <canvas> the markup
// closes is read, as canvas_fallback nodes; an unclosed or self-closing
// <canvas>, which swallows the rest of its parent, stays opaque.
func TestCanvasFallbackStatic(t *testing.T) {
	r := mustNormalize(t, `<main><p>Before the chart.</p>
<canvas id="c"><p>Sales rose <b>12%</b> in May.</p></canvas>
<p>After the chart.</p></main>`)
	sources := map[string]string{}
	for _, n := range r.Nodes {
		if n.Tag == textTag {
			sources[n.Text] = n.Source
		}
	}
	for text, want := range map[string]string{
		"Before the chart.": SourceStatic, "Sales rose ": SourceCanvas, "12%": SourceCanvas,
		" in May.": SourceCanvas, "After the chart.": SourceStatic,
	} {
		if sources[text] != want {
			t.Errorf("%q: source %q, want %q (all: %v)", text, sources[text], want, sources)
		}
	}
	for _, n := range r.Nodes {
		if n.Tag == "canvas" && n.Source != SourceStatic {
			t.Errorf("the canvas element itself is %q", n.Source)
		}
	}

	for name, page := range map[string]string{
		"unclosed":     `<div><p>Intro.</p><canvas id="c"><p>Swallowed text.</p></div><p>More swallowed.</p>`,
		"self-closing": `<div><p>Intro.</p><canvas id="c"/><p>Swallowed text.</p></div><p>More swallowed.</p>`,
		// one closed, one not: the counts pair them, the open one stays opaque
		"one of two": `<canvas><p>Swallowed text.</p><canvas>x</canvas>`,
	} {
		r := mustNormalize(t, page)
		for _, n := range r.Nodes {
			if n.Source == SourceCanvas || strings.Contains(n.Text, "Swallowed") {
				t.Errorf("%s: node %+v read from an unclosed canvas", name, n)
			}
		}
	}
}

func TestHasCanvasTag(t *testing.T) {
	for s, want := range map[string]bool{"<CANVAS>": true, "x <canvas id=a>": true, "canvas": false, "<canva": false, "": false, "<<canvas": true} {
		if hasCanvasTag(s) != want {
			t.Errorf("hasCanvasTag(%q) = %v", s, !want)
		}
	}
}
