package normalize

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/internal/textnorm"
)

// Node sources of the render tier.
const (
	SourceDOM    = "dom"             // read from the rendered page
	SourceCanvas = "canvas_fallback" // fallback content of a <canvas>
	// text read off a canvas (capture.SourceCanvasScene, capture.SourceCanvasOCR)
	SourceCanvasScene = "canvas_scene" // a text object of the canvas's scene graph
	SourceCanvasOCR   = "canvas_ocr"   // read off the canvas's pixels by OCR
)

// readDOM replaces the served HTML's nodes by the render tier's walker
// nodes: the same flat pre-order shape, with the browser's visibility
// verdicts and page boxes. Roles, levels, paths and text follow the rules
// of the served-HTML walk; document facts (meta, JSON-LD, scripts) stay
// those of the served HTML, except the title, which is the rendered one.
func readDOM(out *Record, rec *capture.Record, maxNodes int) {
	nodes := make([]Node, 0, len(rec.DOM))
	remap := make([]int, len(rec.DOM)) // walker index → node id, -1 when dropped
	scopes := make([]scope, len(rec.DOM))
	paths := make([]string, len(rec.DOM))
	sibs := map[int]*siblings{}
	out.Stats.Elements, out.Stats.TextNodes, out.Stats.CutNodes = 0, 0, 0
	for i, d := range rec.DOM {
		remap[i] = -1
		if len(nodes) >= maxNodes {
			out.Stats.CutNodes = len(rec.DOM) - i // pre-order: the rest of the page
			break
		}
		parent := -1
		if d.Parent >= 0 && d.Parent < i {
			parent = remap[d.Parent]
			if parent < 0 {
				continue // under a dropped node
			}
		} else if i > 0 {
			continue // malformed: only the root has no parent
		}
		var sc scope
		if d.Parent >= 0 {
			sc = scopes[d.Parent]
		}
		n := Node{ID: len(nodes), Parent: parent, Tag: d.Tag, Hidden: d.Hidden, HiddenRule: d.HiddenRule, Source: SourceDOM}
		switch d.Source {
		case SourceCanvas, SourceCanvasScene, SourceCanvasOCR:
			n.Source = d.Source
		}
		if d.Box != nil {
			n.Box = &Box{X: d.Box.X, Y: d.Box.Y, W: d.Box.W, H: d.Box.H}
		}
		if d.Tag == textTag {
			if !domText(&n, d, sc, rec.DOM) {
				continue
			}
			out.Stats.TextNodes++
		} else {
			domElement(&n, d, sc, parentPath(paths, sibs, d.Parent, d.Tag))
			paths[i] = n.Path
			scopes[i] = sc.inside(fakeElement(d))
			out.Stats.Elements++
		}
		remap[i] = n.ID
		nodes = append(nodes, n)
	}
	out.Nodes = nodes
	if rec.Render != nil && rec.Render.Navigated {
		// the served HTML is not the document that was rendered (a passed
		// bot check, a meta refresh): its facts would describe the wrong page
		out.Doc = Doc{Lang: rec.Render.Lang}
	}
	if rec.Render != nil && rec.Render.Title != "" {
		out.Doc.Title = textnorm.Text(rec.Render.Title)
	}
}

// domText fills a text node; false drops it (nothing left after the text
// rules).
func domText(n *Node, d capture.DOMNode, sc scope, all []capture.DOMNode) bool {
	if sc.pre {
		n.Text, n.Pre = textnorm.Pre(d.Text), true
	} else {
		n.Text = textnorm.Text(d.Text)
	}
	if n.Text == "" {
		return false
	}
	n.Box = nil
	if p := d.Parent; p >= 0 && all[p].Tag == "details" {
		if _, open := all[p].Attrs["open"]; !open {
			n.Hidden, n.HiddenRule = HiddenDetails, ruleDetails
		}
	}
	return true
}

func domElement(n *Node, d capture.DOMNode, sc scope, path string) {
	el := fakeElement(d)
	n.Path = path
	n.Role = role(el, sc)
	n.Level = level(el, n.Role)
	if len(d.Attrs) > 0 {
		n.Attrs = make(map[string]string, len(d.Attrs))
		for k, v := range d.Attrs {
			if kept[k] {
				n.Attrs[k] = v
			}
		}
	}
	if n.Tag == "input" && n.Attrs != nil {
		if t := strings.ToLower(n.Attrs["type"]); t == "password" || t == "hidden" {
			delete(n.Attrs, "value") // never a password value, whatever the walker sent
		}
	}
}

// parentPath is the element path of a child with tag under the walker
// node parent.
func parentPath(paths []string, sibs map[int]*siblings, parent int, tag string) string {
	if parent < 0 {
		return tag
	}
	s := sibs[parent]
	if s == nil {
		s = &siblings{}
		sibs[parent] = s
	}
	return childPath(paths[parent], tag, s.next(tag))
}

// fakeElement gives the role and scope rules of the served-HTML walk an
// element to look at.
func fakeElement(d capture.DOMNode) *html.Node {
	n := &html.Node{Type: html.ElementNode, Data: d.Tag, DataAtom: atom.Lookup([]byte(d.Tag))}
	for k, v := range d.Attrs {
		n.Attr = append(n.Attr, html.Attribute{Key: k, Val: v})
	}
	return n
}
