package normalize

import (
	"cmp"
	"slices"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// Layout thresholds of the reading order (font sizes are the region's
// median word size).
const (
	pdfGutter      = 0.8 // a column gutter is at least this many font sizes wide
	pdfGutterMin   = 4.0 // … and at least this many points
	pdfColumnRows  = 2   // a column has at least this many text rows
	pdfColumnWords = 3   // … and its median row has at least this many words
	pdfRegionRows  = 4   // a column split covers at least this many rows in all
	pdfGappedShare = 4   // at most one row in this many of a column has a table-wide gap inside
	pdfCellGapCol  = 2.0 // a gap this many font sizes wide inside a row is a table's
	pdfColumnEms   = 6.0 // a column's median row is at least this many font sizes wide
	// a side of a gutter that is itself several columns has at least this many rows
	pdfMultiColumnRows = 8
)

// pdfAtom is what the reading order places: a visible word, or a table
// found on the page (one box for the whole grid).
type pdfAtom struct {
	box   capture.PDFBox
	size  float64
	word  *pdfWord
	table *pdfTable
}

func (a *pdfAtom) top() float64    { return a.box.Y }
func (a *pdfAtom) bottom() float64 { return a.box.Y + a.box.H }
func (a *pdfAtom) left() float64   { return a.box.X }
func (a *pdfAtom) right() float64  { return a.box.X + a.box.W }

// span is an interval on one axis.
type span struct{ lo, hi float64 }

func (s span) width() float64 { return s.hi - s.lo }

// readingOrder cuts a page's atoms into regions in reading order (a
// recursive XY-cut): rows of the page are read top to bottom, except that
// a run of rows sharing a column gutter is read a column at a time, each
// column cut again the same way. Each region is a run of rows read top to
// bottom.
func readingOrder(atoms []pdfAtom) [][]pdfAtom {
	c := &xyCut{budget: pdfColumnWork*len(atoms) + pdfColumnWorkMin}
	c.cut(atoms, 0)
	return c.out
}

// Bounds of the XY-cut on hostile pages.
const (
	pdfMaxDepth = 32 // columns within columns: far beyond any real page
	// A region's column test reads every atom of the run of rows, and a
	// run that fails is tested again from its next row with each candidate
	// gutter: a lattice of single glyphs (a thousand rows, a hundred
	// gutters) took minutes. The tests of a page may read pdfColumnWork
	// times its atoms (pdfColumnWorkMin at least) in all; past that the
	// rest of the page reads row by row. Real pages use a small part of it.
	pdfColumnWork    = 64
	pdfColumnWorkMin = 100_000
)

// xyCut is one page's cut: the regions so far and the atom reads its
// column tests have left.
type xyCut struct {
	out    [][]pdfAtom
	budget int
}

func (c *xyCut) cut(atoms []pdfAtom, depth int) {
	if len(atoms) == 0 {
		return
	}
	bands := rowBands(atoms)
	x0, x1 := atomsExtent(atoms)
	empties := make([][]span, len(bands))
	for i, b := range bands {
		empties[i] = emptyRuns(b, x0, x1)
	}
	size := medianSize(atoms)
	var leaf []pdfAtom
	flush := func() {
		if len(leaf) > 0 {
			c.out = append(c.out, leaf)
			leaf = nil
		}
	}
	for i := 0; i < len(bands); {
		j, at := c.columnRun(bands, empties, i, size)
		if at == nil || depth >= pdfMaxDepth {
			leaf = append(leaf, bands[i]...)
			i++
			continue
		}
		flush()
		var left, right []pdfAtom
		for _, b := range bands[i:j] {
			for _, a := range b {
				if (a.left()+a.right())/2 < at.lo {
					left = append(left, a)
				} else {
					right = append(right, a)
				}
			}
		}
		c.cut(left, depth+1)
		c.cut(right, depth+1)
		i = j
	}
	flush()
}

// columnRun extends a run of bands from i while the bands share an empty
// interval at least a gutter wide (pdfGutter font sizes, pdfGutterMin
// points); it returns the run's end and the gutter to split it at, or nil
// when the run does not read as columns or the page's budget of column
// tests is spent.
func (c *xyCut) columnRun(bands [][]pdfAtom, empties [][]span, i int, size float64) (int, *span) {
	if c.budget <= 0 {
		return i + 1, nil
	}
	gutter := max(pdfGutter*size, pdfGutterMin)
	common := wide(empties[i], gutter)
	j := i + 1
	for ; j < len(bands) && len(common) > 0; j++ {
		next := wide(intersect(common, empties[j]), gutter)
		if len(next) == 0 {
			break
		}
		common = next
	}
	x0, x1 := atomsExtent(bands[i])
	c.budget -= len(bands[i])
	for _, b := range bands[i+1 : j] {
		b0, b1 := atomsExtent(b)
		x0, x1 = min(x0, b0), max(x1, b1)
		c.budget -= len(b)
	}
	var inner []span // gutters with text on both sides
	for _, g := range common {
		if g.lo > x0 && g.hi < x1 {
			inner = append(inner, g)
		}
	}
	if len(inner) == 0 {
		return j, nil
	}
	var run []pdfAtom
	for _, b := range bands[i:j] {
		run = append(run, b...)
	}
	// the widest gutter whose two sides read as columns of text
	slices.SortStableFunc(inner, func(a, b span) int { return cmp.Compare(b.width(), a.width()) })
	for k := range inner {
		if c.budget < len(run) {
			return j, nil
		}
		c.budget -= len(run)
		if columnsOfText(run, inner[k], inner, size) {
			return j, &inner[k]
		}
	}
	return j, nil
}

// columnsOfText reports whether the atoms on each side of the gutter form
// a column of running text: at least pdfColumnRows rows (pdfRegionRows
// over both) whose median has pdfColumnWords words, and at most one row in
// pdfGappedShare with a gap of pdfCellGapCol font sizes inside it (a
// sentence end in justified text reaches 1.5 sizes, the gaps between table
// columns are wider in most rows), and whose median row is pdfColumnEms
// font sizes wide (a code listing's "{" and "5));" after wide spaces are
// not a column). Labels beside values,
// numbers beside titles (forms, tables of contents) and the columns of a
// table fail this, so they keep reading row by row. A gap that holds one
// of the run's other gutters is a gap between columns, not inside a row:
// one side of a three-column page is two columns; such a side needs
// pdfMultiColumnRows rows (a table of short cells has fewer).
func columnsOfText(run []pdfAtom, g span, gutters []span, size float64) bool {
	var left, right []pdfAtom
	for _, a := range run {
		if (a.left()+a.right())/2 < g.lo {
			left = append(left, a)
		} else {
			right = append(right, a)
		}
	}
	wideGap := pdfCellGapCol * size
	l, r := rowWords(left, wideGap, gutters), rowWords(right, wideGap, gutters)
	return l.rows >= pdfColumnRows && r.rows >= pdfColumnRows && l.rows+r.rows >= pdfRegionRows &&
		l.words >= pdfColumnWords && r.words >= pdfColumnWords &&
		l.gapped*pdfGappedShare <= l.rows && r.gapped*pdfGappedShare <= r.rows &&
		min(l.width, r.width) >= pdfColumnEms*size &&
		(l.spanned == 0 || l.rows >= pdfMultiColumnRows) && (r.spanned == 0 || r.rows >= pdfMultiColumnRows)
}

// rowStats is what rowWords counts of one side of a gutter.
type rowStats struct {
	rows    int
	words   int // the median row's (a table counts as a row of pdfColumnWords words)
	gapped  int // rows with a wide gap inside them that holds none of the gutters
	spanned int // rows with a gap that holds one
	width   float64
}

// rowWords counts the rows of atoms, the median words per row, the rows
// with a gap of at least gap inside them (holding one of gutters or not)
// and the median row width.
func rowWords(atoms []pdfAtom, gap float64, gutters []span) rowStats {
	groups := rowGroups(atoms)
	counts := make([]int, len(groups))
	widths := make([]float64, len(groups))
	var out rowStats
	for i, g := range groups {
		x0, x1 := atomsExtent(g)
		widths[i] = x1 - x0
		spanned := false
		for k, a := range g {
			if a.table != nil {
				counts[i] += pdfColumnWords
			} else {
				counts[i]++
			}
			if k == 0 || a.left()-g[k-1].right() < gap {
				continue
			}
			if !holdsGutter(g[k-1].right(), a.left(), gutters) {
				out.gapped++
				break
			}
			spanned = true
		}
		if spanned {
			out.spanned++
		}
	}
	if len(counts) == 0 {
		return out
	}
	slices.Sort(counts)
	slices.Sort(widths)
	out.rows, out.words, out.width = len(counts), counts[len(counts)/2], widths[len(widths)/2]
	return out
}

// holdsGutter reports whether the gap from x0 to x1 holds one of gutters
// (by its middle).
func holdsGutter(x0, x1 float64, gutters []span) bool {
	for _, g := range gutters {
		if mid := (g.lo + g.hi) / 2; mid > x0 && mid < x1 {
			return true
		}
	}
	return false
}

// sortedAtoms is a sorted copy of atoms, equal ones in their order: what
// slices.SortStableFunc gives, but sorting indices with the position as
// the last key (pdqsort, O(n log n) moves) instead of the in-place stable
// merge, whose O(n log² n) moves of 56-byte atoms were most of the row
// grouping of a dense page.
func sortedAtoms(atoms []pdfAtom, order func(a, b *pdfAtom) int) []pdfAtom {
	idx := make([]int, len(atoms))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int { return cmp.Or(order(&atoms[i], &atoms[j]), cmp.Compare(i, j)) })
	out := make([]pdfAtom, len(atoms))
	for k, i := range idx {
		out[k] = atoms[i]
	}
	return out
}

// rowBands sorts atoms top to bottom and cuts them where no atom spans
// the vertical gap: each band is one horizontal strip of the region.
func rowBands(atoms []pdfAtom) [][]pdfAtom {
	sorted := sortedAtoms(atoms, func(a, b *pdfAtom) int {
		return cmp.Or(cmp.Compare(a.top(), b.top()), cmp.Compare(a.left(), b.left()))
	})
	var bands [][]pdfAtom
	start, bottom := 0, 0.0
	for i := range sorted {
		if i > start && sorted[i].top() >= bottom {
			bands = append(bands, sorted[start:i:i])
			start = i
		}
		if i == start {
			bottom = sorted[i].bottom()
		} else {
			bottom = max(bottom, sorted[i].bottom())
		}
	}
	if start < len(sorted) {
		bands = append(bands, sorted[start:])
	}
	return bands
}

// emptyRuns is the x-intervals of [x0, x1] no atom of the band covers.
func emptyRuns(band []pdfAtom, x0, x1 float64) []span {
	xs := make([]span, len(band))
	for i, a := range band {
		xs[i] = span{a.left(), a.right()}
	}
	slices.SortFunc(xs, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	var out []span
	at := x0
	for _, s := range xs {
		if s.lo > at {
			out = append(out, span{at, s.lo})
		}
		at = max(at, s.hi)
	}
	if at < x1 {
		out = append(out, span{at, x1})
	}
	return out
}

// intersect is the intersection of two sorted interval lists.
func intersect(a, b []span) []span {
	var out []span
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := max(a[i].lo, b[j].lo), min(a[i].hi, b[j].hi)
		if lo < hi {
			out = append(out, span{lo, hi})
		}
		if a[i].hi < b[j].hi {
			i++
		} else {
			j++
		}
	}
	return out
}

// wide keeps the intervals at least w wide.
func wide(s []span, w float64) []span {
	var out []span
	for _, x := range s {
		if x.width() >= w {
			out = append(out, x)
		}
	}
	return out
}

func atomsExtent(atoms []pdfAtom) (x0, x1 float64) {
	x0, x1 = atoms[0].left(), atoms[0].right()
	for _, a := range atoms[1:] {
		x0, x1 = min(x0, a.left()), max(x1, a.right())
	}
	return x0, x1
}

// medianSize is the median font size of the atoms that are words.
func medianSize(atoms []pdfAtom) float64 {
	sizes := make([]float64, 0, len(atoms))
	for _, a := range atoms {
		if a.word != nil {
			sizes = append(sizes, a.size)
		}
	}
	if len(sizes) == 0 {
		return 10
	}
	slices.Sort(sizes)
	return sizes[len(sizes)/2]
}

// rowGroups groups atoms into text rows: sorted by vertical centre, an
// atom joins the current row when it overlaps the row's tallest atom so
// far vertically by half the smaller height (glyph boxes are tight: an
// "ac" is x-height tall, a comma a few points). Not the union of the
// row's boxes: rows whose baselines step a little from column to column
// would chain into one row the height of the page. Within a row atoms are sorted
// left to right. A table is a row of its own; a row of words lying over
// each other is cut into its layers (splitLayers).
func rowGroups(atoms []pdfAtom) [][]pdfAtom {
	sorted := sortedAtoms(atoms, func(a, b *pdfAtom) int {
		return cmp.Or(cmp.Compare(a.top()+a.box.H/2, b.top()+b.box.H/2), cmp.Compare(a.left(), b.left()))
	})
	var rows [][]pdfAtom
	var anchor capture.PDFBox
	for _, a := range sorted {
		if n := len(rows); n > 0 && a.table == nil && rows[n-1][0].table == nil && sameRow(anchor, a.box) {
			rows[n-1] = append(rows[n-1], a)
			if a.box.H > anchor.H {
				anchor = a.box
			}
			continue
		}
		rows = append(rows, []pdfAtom{a})
		anchor = a.box
	}
	out := make([][]pdfAtom, 0, len(rows))
	for _, r := range rows {
		slices.SortStableFunc(r, func(a, b pdfAtom) int { return cmp.Compare(a.left(), b.left()) })
		out = append(out, splitLayers(r)...)
	}
	return out
}

// sameRow reports whether b overlaps a vertically by at least half the
// smaller of the two heights, or at all when the smaller is under half
// the larger (a comma or a period hangs below the line's other glyphs).
func sameRow(a, b capture.PDFBox) bool {
	overlap := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	lo, hi := min(a.H, b.H), max(a.H, b.H)
	return overlap > 0 && (overlap >= lo/2 || lo < hi/2)
}
