package pdf

import (
	"cmp"
	"slices"
)

// A text object whose glyphs PDFium cannot load or map to Unicode (a CID
// font with neither a ToUnicode map nor a character collection PDFium
// reads, as in some scanners' OCR layers) gives no characters, and its
// bounds shrink to a point: its origin. Such points with no character
// near them are counted, and a page reports them (Page.Unmapped) when
// there are at least unmappedMin and at least unmappedShare of the
// page's characters: empty strings and stray space runs leave a few
// points on many ordinary pages.
const (
	unmappedMin   = 20
	unmappedShare = 0.5
	// unmappedGlyph is where (points) a glyph drawn from an origin lies:
	// up to unmappedRise above it and unmappedRun to its right.
	unmappedRise = 8.0
	unmappedRun  = 6.0
	unmappedPad  = 1.0
)

// unmapped is the number of text objects (their boxes) that are points
// with no character of the text layer drawn from them, when it passes the
// page's bar (see unmappedMin); else 0.
func unmapped(texts []Box, chars []Char) int {
	type mid struct{ x, y float64 }
	mids := make([]mid, 0, len(chars))
	for _, c := range chars {
		if !c.Generated && c.Box != (Box{}) {
			mids = append(mids, mid{(c.Box.X0 + c.Box.X1) / 2, (c.Box.Y0 + c.Box.Y1) / 2})
		}
	}
	slices.SortFunc(mids, func(a, b mid) int { return cmp.Compare(a.y, b.y) })
	n := 0
	for _, t := range texts {
		if t.X1-t.X0 >= unmappedPad || t.Y1-t.Y0 >= unmappedPad {
			continue // a box with some size: PDFium loaded its glyphs
		}
		g := Box{t.X0 - unmappedPad, t.Y0 - unmappedRise, t.X0 + unmappedRun, t.Y0 + unmappedPad}
		k, _ := slices.BinarySearchFunc(mids, g.Y0, func(m mid, y float64) int { return cmp.Compare(m.y, y) })
		found := false
		for ; k < len(mids) && mids[k].y <= g.Y1; k++ {
			if mids[k].x >= g.X0 && mids[k].x <= g.X1 {
				found = true
				break
			}
		}
		if !found {
			n++
		}
	}
	if n < unmappedMin || float64(n) < unmappedShare*float64(len(mids)) {
		return 0
	}
	return n
}
