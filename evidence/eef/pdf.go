package eef

import (
	"fmt"
	"math"

	"github.com/sieve-dev/sieve/graph"
)

// A PDF's bundle has one page per PDF page (p0001 is the first), each with
// its displayed size in points rounded up and its /Rotate; boxes are
// page-local points, top-left, and every element, span, region, table and
// latent entry names its page.

// MediaPDF is a PDF source's media type.
const MediaPDF = "application/pdf"

func isPDF(rec *graph.Record) bool { return rec.PDF != nil }

func pageID(n int) string { return id("p%04d", n) }

// placer gives items their page refs and boxes. A web page is one page of
// unknown size, whose boxes are kept as the graph has them; a PDF's boxes
// are clipped to their page, so that no box claims area off the page.
type placer struct {
	pages []Page
	byNum map[int]int    // 1-based page number → index into pages
	byID  map[string]int // page ref → index into pages
	last  string         // the page of the previous element
}

func newPlacer(rec *graph.Record) *placer {
	pl := &placer{byNum: map[int]int{}, byID: map[string]int{}}
	if !isPDF(rec) || len(rec.PDF.Pages) == 0 {
		pl.pages = []Page{{ID: PageID, Index: 0, URL: rec.FinalURL}}
		return pl
	}
	for _, p := range rec.PDF.Pages {
		n := p.Index + 1
		if _, dup := pl.byNum[n]; dup || n < 1 {
			continue
		}
		pg := Page{ID: pageID(n), Index: p.Index, URL: fmt.Sprintf("%s#page=%d", rec.FinalURL, n)}
		if w, h := int(math.Ceil(p.Width)), int(math.Ceil(p.Height)); w > 0 && h > 0 {
			pg.Width, pg.Height = &w, &h
		}
		rot := p.Rotation
		pg.Rotation = &rot
		pl.byNum[n] = len(pl.pages)
		pl.byID[pg.ID] = len(pl.pages)
		pl.pages = append(pl.pages, pg)
	}
	return pl
}

// pageRef is the ref of 1-based page n; an unknown page (0: the block
// did not say) is the previous element's page, else the first page.
func (pl *placer) pageRef(n int) string {
	if i, ok := pl.byNum[n]; ok {
		pl.last = pl.pages[i].ID
		return pl.last
	}
	if pl.last != "" {
		return pl.last
	}
	return pl.pages[0].ID
}

// bbox is b as [x, y, w, h] on page ref; nil for no box, and for a PDF box
// with no area on its page.
func (pl *placer) bbox(ref string, b *graph.Box) []int {
	if b == nil {
		return nil
	}
	i, ok := pl.byID[ref]
	if !ok || pl.pages[i].Width == nil || pl.pages[i].Height == nil {
		return []int{b.X, b.Y, b.W, b.H}
	}
	pg := &pl.pages[i]
	x0, y0 := max(b.X, 0), max(b.Y, 0)
	x1, y1 := min(b.X+b.W, *pg.Width), min(b.Y+b.H, *pg.Height)
	if x1 <= x0 || y1 <= y0 {
		return nil
	}
	return []int{x0, y0, x1 - x0, y1 - y0}
}

// pdfBox rounds a capture box (points) outwards to integers.
func pdfBox(x, y, w, h float64) *graph.Box {
	x0, y0 := math.Floor(x), math.Floor(y)
	x1, y1 := math.Ceil(x+w), math.Ceil(y+h)
	return &graph.Box{X: int(x0), Y: int(y0), W: int(x1 - x0), H: int(y1 - y0)}
}

// chunkPages are the distinct pages of els, in order.
func chunkPages(els []Element, g chunkGroup) []string {
	var out []string
	seen := map[string]bool{}
	for _, i := range g.els {
		if e := &els[i]; !seen[e.PageRef] {
			seen[e.PageRef] = true
			out = append(out, e.PageRef)
		}
	}
	return out
}
