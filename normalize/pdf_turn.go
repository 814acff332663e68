package normalize

import (
	"math"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// A page whose text runs down, up or upside down on the displayed page
// (capture's text_direction: a /Rotate page with upright text, a scan
// put in sideways) is laid out in its text's own frame, where that text
// runs left to right from the top: the page is turned before the layout
// reads it, and the boxes of its nodes are turned back to the displayed
// page (boxes stay what a reader of the page sees, for crops and anchors).

// turnedPage is a copy of a page in its text's frame: width and height
// swap for a quarter turn, and every box is mapped by turnBox.
func turnedPage(p *capture.PDFPage) *capture.PDFPage {
	out := *p
	dir, w, h := p.TextDir, p.Width, p.Height
	if dir == 90 || dir == 270 {
		out.Width, out.Height = h, w
	}
	out.Lines = make([]capture.PDFLine, len(p.Lines))
	for i, l := range p.Lines {
		nl := capture.PDFLine{Box: turnBox(l.Box, dir, w, h), Spans: make([]capture.PDFSpan, len(l.Spans))}
		for k, s := range l.Spans {
			s.Box = turnBox(s.Box, dir, w, h)
			nl.Spans[k] = s
		}
		out.Lines[i] = nl
	}
	out.Rects = make([]capture.PDFRect, len(p.Rects))
	for i, r := range p.Rects {
		r.Box = turnBox(r.Box, dir, w, h)
		out.Rects[i] = r
	}
	out.Images = make([]capture.PDFBox, len(p.Images))
	for i, b := range p.Images {
		out.Images[i] = turnBox(b, dir, w, h)
	}
	return &out
}

// turnBox maps a box on the displayed page (w by h points) into the frame
// of text whose baselines run dir degrees clockwise.
func turnBox(b capture.PDFBox, dir int, w, h float64) capture.PDFBox {
	switch dir {
	case 90:
		return capture.PDFBox{X: b.Y, Y: w - b.X - b.W, W: b.H, H: b.W}
	case 180:
		return capture.PDFBox{X: w - b.X - b.W, Y: h - b.Y - b.H, W: b.W, H: b.H}
	case 270:
		return capture.PDFBox{X: h - b.Y - b.H, Y: b.X, W: b.H, H: b.W}
	}
	return b
}

// unturnBox maps a node box in the frame of dir back to the displayed
// page (w by h points): its size is kept and its corner rounded to the
// nearest point, so that a box is not widened by rounding twice.
func unturnBox(b *Box, dir int, w, h float64) *Box {
	x, y := float64(b.X), float64(b.Y)
	switch dir {
	case 90:
		return &Box{X: int(math.Round(w - y - float64(b.H))), Y: b.X, W: b.H, H: b.W}
	case 180:
		return &Box{X: int(math.Round(w - x - float64(b.W))), Y: int(math.Round(h - y - float64(b.H))), W: b.W, H: b.H}
	case 270:
		return &Box{X: b.Y, Y: int(math.Round(h - x - float64(b.W))), W: b.H, H: b.W}
	}
	return b
}
