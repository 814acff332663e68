package normalize

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// closedCanvases returns the <canvas> elements of doc whose fallback
// content is read in the static tier (source canvas_fallback): those the
// served markup closes with their own </canvas>. An unclosed <canvas> (or
// a self-closing <canvas/>, which HTML reads as a start tag) swallows the
// rest of its parent, often the rest of the page, into what the parser
// calls its fallback; a browser that draws the canvas shows none of it,
// yet the page shows it all. Such a canvas stays opaque, as before.
//
// The markup is tokenized again (only when it holds "<canvas") and each
// start tag paired with the end tag that closes it; the n-th start tag is
// the n-th canvas element of the tree. When the two counts differ (markup
// the parser rearranged), no canvas is read.
func closedCanvases(doc *html.Node, body string) map[*html.Node]bool {
	if !hasCanvasTag(body) {
		return nil
	}
	var elems []*html.Node
	for n := doc; n != nil; n = nextInTree(n, doc) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Canvas && n.Namespace == "" {
			elems = append(elems, n)
		}
	}
	var closed []bool
	var open []int // indexes into closed of the canvases not yet closed
	z := html.NewTokenizer(strings.NewReader(body))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.EndTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, _ := z.TagName()
		if atom.Lookup(name) != atom.Canvas {
			continue
		}
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			closed = append(closed, false)
			open = append(open, len(closed)-1)
		case html.EndTagToken:
			if len(open) > 0 {
				closed[open[len(open)-1]] = true
				open = open[:len(open)-1]
			}
		}
	}
	if len(closed) != len(elems) {
		return nil
	}
	out := map[*html.Node]bool{}
	for i, n := range elems {
		if closed[i] && n.FirstChild != nil {
			out[n] = true
		}
	}
	return out
}

// hasCanvasTag reports whether s holds "<canvas", ignoring ASCII case.
func hasCanvasTag(s string) bool {
	const tag = "<canvas"
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return false
		}
		i += j
		if len(s)-i >= len(tag) && equalFoldASCII(s[i:i+len(tag)], tag) {
			return true
		}
		i++
	}
}
