package pdf

import (
	"cmp"
	"errors"
	"slices"

	"github.com/klippa-app/go-pdfium/requests"
)

// A text object whose glyphs PDFium cannot load (a font not embedded that
// no font here stands in for, as a CJK font in the sandbox) has empty
// glyph boxes: when it draws one glyph, as scanners' OCR layers do, its
// bounds shrink to a point, its origin, and PDFium's text page leaves it
// out (it skips objects under 0.01 pt wide). Such points with no
// character near them are revived (revive.go); those that still give no
// character are counted, and a page reports them (Page.Unmapped) when
// there are at least unmappedMin and at least unmappedShare of the
// page's characters: empty strings and stray space runs leave a few
// points on many ordinary pages.
const (
	unmappedMin   = 20
	unmappedShare = 0.5
	// unmappedPad is how far (points) an object's origin may lie outside
	// the box of a character drawn from it.
	unmappedPad = 1.0
)

// UnmappedAt is where on page i (0-based) of the PDF in data text is drawn
// that gives no character: the origins (boxes of no size) of the text
// objects Page.Unmapped counts; nil when the page reports none. It reads
// that page alone, as Parse reads it.
func UnmappedAt(data []byte, i int) ([]Box, error) {
	return watched(func(e *engine) ([]Box, error) { return e.unmappedAt(data, i) })
}

func (e *engine) unmappedAt(data []byte, i int) ([]Box, error) {
	opened, err := e.inst.FPDF_LoadMemDocument(&requests.FPDF_LoadMemDocument{Data: &data})
	if err != nil {
		return nil, openError(err, false)
	}
	doc := opened.Document
	defer e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	r := e.readPage(doc, i, limits.pageChars, e.isTagged(doc))
	if r.page.Err != "" {
		return nil, errors.New(r.page.Err)
	}
	return r.page.unmappedAt, nil
}

// unmappedPoints are the boxes (points) of the text objects with no
// character of the text layer drawn from them, when there are enough to
// pass the page's bar (see unmappedMin); else nil.
func unmappedPoints(texts []Box, chars []Char) []Box {
	ids := pointsAlone(texts, chars)
	if !overBar(len(ids), chars) {
		return nil
	}
	out := make([]Box, len(ids))
	for k, i := range ids {
		out[k] = texts[i]
	}
	return out
}

// overBar reports n points without characters that a page reports.
func overBar(n int, chars []Char) bool {
	drawn := 0
	for _, c := range chars {
		if !c.Generated && c.Box != (Box{}) {
			drawn++
		}
	}
	return n >= unmappedMin && float64(n) >= unmappedShare*float64(drawn)
}

// pointsAlone lists the indexes of the text objects whose boxes are
// points with no character of chars drawn from them: none whose box,
// padded by unmappedPad, holds the point.
func pointsAlone(texts []Box, chars []Char) []int {
	boxes := make([]Box, 0, len(chars))
	tallest := 0.0
	for _, c := range chars {
		if !c.Generated && c.Box != (Box{}) {
			boxes = append(boxes, c.Box)
			tallest = max(tallest, c.Box.Y1-c.Box.Y0)
		}
	}
	slices.SortFunc(boxes, func(a, b Box) int { return cmp.Compare(a.Y0, b.Y0) })
	var out []int
	for i, t := range texts {
		if t.X1-t.X0 >= unmappedPad || t.Y1-t.Y0 >= unmappedPad {
			continue // a box with some size: PDFium loaded its glyphs
		}
		from := t.Y0 - unmappedPad - tallest
		k, _ := slices.BinarySearchFunc(boxes, from, func(b Box, y float64) int { return cmp.Compare(b.Y0, y) })
		found := false
		for ; k < len(boxes) && boxes[k].Y0 <= t.Y0+unmappedPad; k++ {
			b := boxes[k]
			if t.Y0 <= b.Y1+unmappedPad && t.X0 >= b.X0-unmappedPad && t.X0 <= b.X1+unmappedPad {
				found = true
				break
			}
		}
		if !found {
			out = append(out, i)
		}
	}
	return out
}
