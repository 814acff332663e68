package normalize

import (
	"math"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// Bounds of the paint lookup: a page of 200,000 glyphs over 5,000 filled
// paths (capture's limit) asked every path for every glyph, a billion
// box tests.
const (
	pdfPaintGrid = 32 // the page is cut into at most this many cells each way
	pdfPaintCell = 64 // … of this many points at least
	pdfPaintBig  = 64 // a path over more cells than this is tested for every box
)

// paintIndex finds the filled paths that may lie under a box: a path
// that holds a box holds the box's top-left corner, so only the paths
// over that corner's cell (and the big ones) are tested.
type paintIndex struct {
	rects  []capture.PDFRect
	page   capture.PDFBox
	cell   float64
	nx, ny int
	cells  [][]int // per cell, the filled paths over it, in paint order
	big    []int   // filled paths over more than pdfPaintBig cells, in paint order
}

func newPaintIndex(p *capture.PDFPage) *paintIndex {
	ix := &paintIndex{rects: p.Rects, page: capture.PDFBox{W: p.Width, H: p.Height}}
	ix.cell = max(pdfPaintCell, p.Width/pdfPaintGrid, p.Height/pdfPaintGrid)
	ix.nx, ix.ny = ix.cells1(p.Width), ix.cells1(p.Height)
	ix.cells = make([][]int, ix.nx*ix.ny)
	for i := range p.Rects {
		r := &p.Rects[i]
		if r.Fill == "" {
			continue
		}
		x0, x1 := ix.at(r.Box.X, ix.nx), ix.at(r.Box.X+r.Box.W, ix.nx)
		y0, y1 := ix.at(r.Box.Y, ix.ny), ix.at(r.Box.Y+r.Box.H, ix.ny)
		if (x1-x0+1)*(y1-y0+1) > pdfPaintBig {
			ix.big = append(ix.big, i)
			continue
		}
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				ix.cells[y*ix.nx+x] = append(ix.cells[y*ix.nx+x], i)
			}
		}
	}
	return ix
}

// cells1 is the number of cells along a page side of length n.
func (ix *paintIndex) cells1(n float64) int {
	if !(n > 0) {
		return 1
	}
	return min(max(int(math.Ceil(n/ix.cell)), 1), pdfPaintGrid)
}

// at is the cell of coordinate v along a side of n cells, clamped to the
// page (monotone, so a path's cell range holds the cell of every point in
// it).
func (ix *paintIndex) at(v float64, n int) int {
	if !(v > 0) { // also NaN
		return 0
	}
	return min(int(v/ix.cell), n-1)
}

// under is the colour a box of text in colour fill is seen on: the fill
// of the last (topmost) filled path whose box holds the whole box and is
// at most pdfPaintLines sizes tall or covers pdfPageShare of the page
// both ways (a page background: Chromium paints one, slides a dark one),
// else the white page. Paths are taken to lie under text (backgrounds
// are painted first). Capture gives a path's bounding box, not its shape:
// a tall box is as often a filled curve of a drawing, with its labels
// inside the box but not on the paint, as a background; cell shading,
// highlight and redaction bars are a few lines tall. So a taller path
// only ever shows text, never hides it: one whose fill differs from the
// text's is what the text is seen on (white headings on a grey header
// band five lines tall, a white label on a pie slice, a side tab's
// white title), and one of the text's own colour is passed over.
func (ix *paintIndex) under(b capture.PDFBox, size float64, fill string) (color, where string) {
	local := ix.cells[ix.at(b.Y, ix.ny)*ix.nx+ix.at(b.X, ix.nx)]
	i, j := len(local)-1, len(ix.big)-1
	for i >= 0 || j >= 0 {
		var k int // the topmost candidate not yet tested
		if j < 0 || i >= 0 && local[i] > ix.big[j] {
			k, i = local[i], i-1
		} else {
			k, j = ix.big[j], j-1
		}
		r := &ix.rects[k].Box
		if b.X < r.X || b.Y < r.Y || b.X+b.W > r.X+r.W || b.Y+b.H > r.Y+r.H {
			continue
		}
		fits := r.H <= pdfPaintLines*max(size, b.H) || r.W >= pdfPageShare*ix.page.W && r.H >= pdfPageShare*ix.page.H
		if fits || colorDistance(fill, ix.rects[k].Fill) > pdfColorNear {
			return ix.rects[k].Fill, "filled path " + boxText(*r)
		}
	}
	return pdfPageWhite, "page background"
}
