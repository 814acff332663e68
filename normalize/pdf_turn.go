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
// A page whose text is mirrored (capture's text_mirrored: glyphs that
// advance against their baselines) is mirrored back in that frame too,
// so its lines read left to right and its words in their order.

// turnedPage is a copy of a page in its text's frame: width and height
// swap for a quarter turn, and every box is mapped by frameBox.
func turnedPage(p *capture.PDFPage) *capture.PDFPage {
	out := *p
	dir, w, h := p.TextDir, p.Width, p.Height
	if dir == 90 || dir == 270 {
		out.Width, out.Height = h, w
	}
	frame := func(b capture.PDFBox) capture.PDFBox { return frameBox(b, dir, p.TextMirrored, w, h) }
	out.Lines = make([]capture.PDFLine, len(p.Lines))
	for i, l := range p.Lines {
		nl := capture.PDFLine{Box: frame(l.Box), Spans: make([]capture.PDFSpan, len(l.Spans))}
		for k, s := range l.Spans {
			s.Box = frame(s.Box)
			nl.Spans[k] = s
		}
		out.Lines[i] = nl
	}
	out.Rects = make([]capture.PDFRect, len(p.Rects))
	for i, r := range p.Rects {
		r.Box = frame(r.Box)
		out.Rects[i] = r
	}
	out.Images = make([]capture.PDFBox, len(p.Images))
	for i, b := range p.Images {
		out.Images[i] = frame(b)
	}
	return &out
}

// frameBox maps a box on the displayed page (w by h points) into the frame
// of text whose baselines run dir degrees clockwise, mirrored left to
// right in that frame when mirror is set.
func frameBox(b capture.PDFBox, dir int, mirror bool, w, h float64) capture.PDFBox {
	out := turnBox(b, dir, w, h)
	if mirror {
		out.X = frameWidth(dir, w, h) - out.X - out.W
	}
	return out
}

// frameWidth is the width of the frame of text running dir degrees on a
// page w by h points.
func frameWidth(dir int, w, h float64) float64 {
	if dir == 90 || dir == 270 {
		return h
	}
	return w
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

// unframeBox maps a node box in the frame of dir (mirrored when mirror
// is set) back to the displayed page (w by h points).
func unframeBox(b *Box, dir int, mirror bool, w, h float64) *Box {
	if mirror {
		m := *b
		m.X = int(math.Round(frameWidth(dir, w, h))) - b.X - b.W
		b = &m
	}
	return unturnBox(b, dir, w, h)
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
