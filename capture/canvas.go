package capture

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/sieve-dev/sieve/internal/ocr"
)

// Canvas OCR budgets.
const (
	// MaxCanvasPixels bounds the pixels of one canvas's screenshot: a
	// larger canvas is shot downscaled (CanvasRead.Scale < 1, Downscaled).
	MaxCanvasPixels = 4_000_000
	// maxCanvasScale upscales small canvases: Tesseract reads 14 px text
	// better at twice the size.
	maxCanvasScale = 2.0
	// MaxCanvases is how many canvases of one page are read by OCR; the
	// rest are gaps.
	MaxCanvases = 20
)

// threeHook runs before any page script: three.js announces each Scene and
// WebGLRenderer it makes to __THREE_DEVTOOLS__ when that exists, which is
// how the walker finds scenes no global names.
const threeHook = `try { if (typeof window.__THREE_DEVTOOLS__ === "undefined") { const t = new EventTarget(); window.__sieveThree = []; t.addEventListener("observe", (e) => { if (window.__sieveThree.length < 100) window.__sieveThree.push(e.detail); }); Object.defineProperty(window, "__THREE_DEVTOOLS__", {value: t, configurable: true}); } } catch (e) {}`

// walkCanvas is one <canvas> as the walker saw it.
type walkCanvas struct {
	N int         `json:"n"` // its walker node
	B []int       `json:"b"` // its box
	H string      `json:"h"` // why it is not shown (a hidden reason, or hidden_ancestor)
	S []sceneText `json:"s"` // text objects of a scene graph drawn on it
}

// sceneText is a text object the walker read out of a scene graph.
type sceneText struct {
	X string `json:"x"`
	B []int  `json:"b"` // page box, CSS px
	H string `json:"h"` // hidden reason: latent
	R string `json:"r"` // the rule that hid it
	L string `json:"l"` // library
}

// readCanvases adds the text read off each canvas of r, as nodes after the
// canvas's own subtree (its place in reading order): scene-graph texts
// when a scene graph was found, else OCR of its pixels.
func (br *Browser) readCanvases(ctx context.Context, p *rod.Page, r *pageRead, cs []walkCanvas) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].N < cs[j].N })
	reads := make([]CanvasRead, 0, len(cs))
	added := make([][]DOMNode, len(cs))
	ocrd := 0
	for i, c := range cs {
		if c.N <= 0 || c.N >= len(r.nodes) || len(c.B) != 4 {
			continue
		}
		box := Box{X: c.B[0], Y: c.B[1], W: c.B[2], H: c.B[3]}
		parent := r.nodes[c.N].Parent
		switch {
		case len(c.S) > 0:
			cr, nodes := sceneNodes(box, parent, c.S)
			reads, added[i] = append(reads, cr), nodes
		case c.H != "" || !shown(box, r.render.PageHeight, br.opts.Width):
			// nothing a visitor sees: nothing to read
		case ocrd >= MaxCanvases:
			reads = append(reads, CanvasRead{Box: box, Gap: fmt.Sprintf("not read by OCR: the page has more than %d visible canvases", MaxCanvases)})
		case ctx.Err() != nil:
			reads = append(reads, CanvasRead{Box: box, Gap: "not read by OCR: the render timeout ran out before it was read"})
		default:
			ocrd++
			cr, nodes := br.ocrCanvas(ctx, p, r, box, parent)
			reads, added[i] = append(reads, cr), nodes
		}
	}
	for i := len(cs) - 1; i >= 0; i-- {
		if len(added[i]) > 0 {
			r.nodes = splice(r.nodes, subtreeEnd(r.nodes, cs[i].N), added[i])
		}
	}
	if len(reads) > 0 {
		r.render.Canvases = reads
	}
}

// shown reports whether a canvas box has a size and lies on the page.
func shown(b Box, pageH, pageW int) bool {
	return b.W > 0 && b.H > 0 && b.X+b.W > 0 && b.Y+b.H > 0 && b.X < max(pageW, 1) && b.Y < max(pageH, 1)
}

// sceneNodes turns a canvas's scene texts into nodes; hidden ones keep
// their reason, so they go to latent[] as hidden DOM text does.
func sceneNodes(box Box, parent int, ss []sceneText) (CanvasRead, []DOMNode) {
	cr := CanvasRead{Box: box, Source: SourceCanvasScene, Library: ss[0].L, Lines: len(ss)}
	var nodes []DOMNode
	for _, s := range ss {
		b := box
		if len(s.B) == 4 {
			b = Box{X: s.B[0], Y: s.B[1], W: max(0, s.B[2]), H: max(0, s.B[3])}
		}
		if s.H != "" {
			cr.Latent++
		}
		nodes = append(nodes, textBlock(parent, len(nodes), SourceCanvasScene, s.X, b, s.H, s.R)...)
	}
	return cr, nodes
}

// textBlock is a <p> node with its text: the shape a block of text read
// off a canvas takes among the walker's nodes. at is its offset among the
// nodes being added (the text node's parent is fixed up by splice).
func textBlock(parent, at int, source, text string, b Box, hidden, rule string) []DOMNode {
	bb := b
	return []DOMNode{
		{Parent: parent, Tag: "p", Source: source, Box: &bb, Hidden: hidden, HiddenRule: rule},
		{Parent: -2 - at, Tag: "#text", Text: text, Source: source},
	}
}

// ocrCanvas shoots one canvas and reads it with Tesseract.
func (br *Browser) ocrCanvas(ctx context.Context, p *rod.Page, r *pageRead, box Box, parent int) (CanvasRead, []DOMNode) {
	cr := CanvasRead{Box: box}
	v, err := ocr.Version()
	if err != nil {
		cr.Gap = "not read by OCR: " + err.Error()
		return cr, nil
	}
	scale := canvasScale(box)
	cr.Scale, cr.Downscaled = math.Round(scale*1000)/1000, scale < 1
	png, err := shootCanvas(p, box, scale)
	if err != nil {
		cr.Gap = "not read by OCR: the canvas screenshot failed: " + err.Error()
		return cr, nil
	}
	pixels, err := ocr.VisibleGray(png)
	if err != nil {
		cr.Gap = "not read by OCR: the canvas screenshot: " + err.Error()
		return cr, nil
	}
	res, err := ocr.ReadImage(ctx, pixels, ocr.Options{Scale: scale})
	if err != nil {
		cr.Gap = "not read by OCR: " + err.Error()
		if errors.Is(err, ocr.ErrMissing) {
			cr.Gap = "not read by OCR: " + ocr.ErrMissing.Error()
		}
		return cr, nil
	}
	r.ocr = v
	cr.Source, cr.Lines, cr.Dropped = SourceCanvasOCR, len(res.Lines), res.Dropped
	var nodes []DOMNode
	for _, l := range res.Lines {
		b := Box{X: box.X + int(math.Round(l.Box.X)), Y: box.Y + int(math.Round(l.Box.Y)), W: int(math.Round(l.Box.W)), H: int(math.Round(l.Box.H))}
		nodes = append(nodes, textBlock(parent, len(nodes), SourceCanvasOCR, l.Text, b, "", "")...)
	}
	return cr, nodes
}

// canvasScale is the screenshot scale of a canvas: up to maxCanvasScale,
// and down so the shot holds at most MaxCanvasPixels.
func canvasScale(b Box) float64 {
	return min(maxCanvasScale, math.Sqrt(MaxCanvasPixels/float64(max(1, b.W*b.H))))
}

// shootCanvas is a PNG of the page clipped to a canvas's box.
func shootCanvas(p *rod.Page, b Box, scale float64) ([]byte, error) {
	res, err := proto.PageCaptureScreenshot{
		Format:                proto.PageCaptureScreenshotFormatPng,
		CaptureBeyondViewport: true,
		Clip:                  &proto.PageViewport{X: float64(b.X), Y: float64(b.Y), Width: float64(b.W), Height: float64(b.H), Scale: scale},
	}.Call(p)
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// subtreeEnd is the index just past node n's subtree (pre-order: its
// descendants follow it, each with a parent at or after n).
func subtreeEnd(nodes []DOMNode, n int) int {
	j := n + 1
	for j < len(nodes) && nodes[j].Parent >= n {
		j++
	}
	return j
}

// splice inserts add at index at, shifting the parents of the nodes after
// it. A parent of -2-k in add means add[k].
func splice(nodes []DOMNode, at int, add []DOMNode) []DOMNode {
	k := len(add)
	out := make([]DOMNode, 0, len(nodes)+k)
	out = append(out, nodes[:at]...)
	for _, d := range add {
		if d.Parent <= -2 {
			d.Parent = at + (-2 - d.Parent)
		}
		out = append(out, d)
	}
	for _, d := range nodes[at:] {
		if d.Parent >= at {
			d.Parent += k
		}
		out = append(out, d)
	}
	return out
}
