package normalize

import (
	"cmp"
	"slices"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/internal/disjoint"
)

// Ruling-line thresholds (points).
const (
	pdfRuleThin  = 2.5 // a path this thin (or thinner) is a rule
	pdfRuleLong  = 8.0 // … when it is at least this long
	pdfRuleSnap  = 2.0 // rule positions this close are one grid line
	pdfRuleCover = 0.5 // a cell border exists when rules cover this share of it
	// pdfMaxRules bounds the rules each way a page is searched for tables
	// (grouping compares every pair): a page with more is a drawing.
	pdfMaxRules = 1500
)

// pdfTable is a ruled table: its grid lines and cells with their words.
type pdfTable struct {
	box   capture.PDFBox
	rows  [][]*pdfCell // cells by row, left to right; spanned slots hold no cell
	words []*pdfWord   // all words the grid claimed
}

// pdfCell is one cell of a ruled table.
type pdfCell struct {
	box              capture.PDFBox
	rowspan, colspan int
	words            []*pdfWord
	header           bool
}

// rule is a horizontal (y fixed, from lo to hi along x) or vertical (x
// fixed, lo to hi along y) ruling line.
type rule struct {
	at, lo, hi float64
}

// rulesOf reduces a page's paths to ruling lines: thin paths are one
// rule, stroked boxes give their four edges. Filled boxes that are not
// thin are backgrounds, not rules.
func rulesOf(rects []capture.PDFRect) (hs, vs []rule) {
	for _, r := range rects {
		b := r.Box
		switch {
		case b.H <= pdfRuleThin && b.W >= pdfRuleLong:
			hs = append(hs, rule{b.Y + b.H/2, b.X, b.X + b.W})
		case b.W <= pdfRuleThin && b.H >= pdfRuleLong:
			vs = append(vs, rule{b.X + b.W/2, b.Y, b.Y + b.H})
		case r.Stroke != "" && b.W >= pdfRuleLong && b.H >= pdfRuleLong:
			hs = append(hs, rule{b.Y, b.X, b.X + b.W}, rule{b.Y + b.H, b.X, b.X + b.W})
			vs = append(vs, rule{b.X, b.Y, b.Y + b.H}, rule{b.X + b.W, b.Y, b.Y + b.H})
		}
	}
	return hs, vs
}

// ruledTables finds the tables ruling lines draw on a page and claims the
// words whose centre lies in them. A table is a connected set of
// horizontal and vertical rules with at least three grid lines each way
// (two rows, two columns) and text in at least two cells.
func ruledTables(rects []capture.PDFRect, words []pdfWord) []*pdfTable {
	hs, vs := rulesOf(rects)
	if len(hs) < 3 || len(vs) < 3 || len(hs) > pdfMaxRules || len(vs) > pdfMaxRules {
		return nil
	}
	var out []*pdfTable
	for _, c := range ruleGroups(hs, vs, true) {
		if t := gridTable(c.hs, c.vs, openSides(c.hs, c.vs), words); t != nil && 4*splitCells(t) < filledCells(t) {
			out = append(out, t)
			continue
		}
		// Joined, the segments make no grid of this text (columns of
		// text inside its cells): each crossing alone may still.
		for _, sub := range ruleGroups(c.hs, c.vs, false) {
			if t := gridTable(sub.hs, sub.vs, [2]float64{}, words); t != nil {
				out = append(out, t)
			}
		}
	}
	return out
}

type ruleGroup struct{ hs, vs []rule }

// ruleGroups splits rules into connected groups (a horizontal and a
// vertical rule touch when they cross within pdfRuleSnap; with segments,
// so do two rules on one line that touch: a border drawn in pieces).
func ruleGroups(hs, vs []rule, segments bool) []ruleGroup {
	n := len(hs) + len(vs)
	sets := disjoint.New(n)
	if segments {
		joinCollinear(hs, 0, sets.Union)
		joinCollinear(vs, len(hs), sets.Union)
	}
	for i, h := range hs {
		for j, v := range vs {
			if v.at >= h.lo-pdfRuleSnap && v.at <= h.hi+pdfRuleSnap && h.at >= v.lo-pdfRuleSnap && h.at <= v.hi+pdfRuleSnap {
				sets.Union(i, len(hs)+j)
			}
		}
	}
	groups := map[int]*ruleGroup{}
	var order []int
	for i := range n {
		r := sets.Find(i)
		g := groups[r]
		if g == nil {
			g = &ruleGroup{}
			groups[r] = g
			order = append(order, r)
		}
		if i < len(hs) {
			g.hs = append(g.hs, hs[i])
		} else {
			g.vs = append(g.vs, vs[i-len(hs)])
		}
	}
	out := make([]ruleGroup, 0, len(order))
	for _, r := range order {
		out = append(out, *groups[r])
	}
	return out
}

// joinCollinear joins the rules of one direction that lie on one line and
// touch or overlap (a border drawn cell by cell, in segments); first is
// the index of rs[0] in the union.
func joinCollinear(rs []rule, first int, join func(a, b int)) {
	idx := make([]int, len(rs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(rs[a].at, rs[b].at), cmp.Compare(rs[a].lo, rs[b].lo))
	})
	for k := 1; k < len(idx); k++ {
		a, b := rs[idx[k-1]], rs[idx[k]]
		if b.at-a.at <= pdfRuleSnap && b.lo <= a.hi+pdfRuleSnap {
			join(first+idx[k-1], first+idx[k])
		}
	}
}

// pdfOpenRules is how many horizontal grid lines must run past the
// outermost vertical rule, to the same end, for that side of a table to
// be open (booktabs-style: columns outside the vertical rules, bounded
// by the horizontal rules' ends).
const pdfOpenRules = 3

// openSides is the x of a table's open left and right edges (0 when the
// side is closed): where at least pdfOpenRules horizontal grid lines
// run on past the outermost vertical rule by pdfRuleLong or more.
func openSides(hs, vs []rule) (open [2]float64) {
	xs := snapLines(vs)
	if len(xs) == 0 {
		return open
	}
	var left, right []rule
	for _, h := range hs {
		if h.lo < xs[0]-pdfRuleLong {
			left = append(left, rule{at: h.at, lo: h.lo})
		}
		if h.hi > xs[len(xs)-1]+pdfRuleLong {
			right = append(right, rule{at: h.at, lo: h.hi})
		}
	}
	for k, side := range [2][]rule{left, right} {
		if len(snapLines(side)) < pdfOpenRules {
			continue
		}
		ends := make([]float64, len(side))
		for i, r := range side {
			ends[i] = r.lo
		}
		slices.Sort(ends)
		open[k] = ends[len(ends)/2] // the ends' median: rules of one table end together
	}
	return open
}

// snapLines clusters rule positions into grid lines.
func snapLines(rs []rule) []float64 {
	at := make([]float64, len(rs))
	for i, r := range rs {
		at[i] = r.at
	}
	slices.Sort(at)
	var out []float64
	for _, v := range at {
		if len(out) == 0 || v-out[len(out)-1] > pdfRuleSnap {
			out = append(out, v)
		}
	}
	return out
}

// byLine lists, for each grid line, the rules lying on it (within
// pdfRuleSnap).
func byLine(rs []rule, lines []float64) [][]rule {
	out := make([][]rule, len(lines))
	for _, r := range rs {
		k, _ := slices.BinarySearch(lines, r.at-pdfRuleSnap)
		for ; k < len(lines) && lines[k] <= r.at+pdfRuleSnap; k++ {
			out[k] = append(out[k], r)
		}
	}
	return out
}

// covered reports whether the rules of one grid line cover pdfRuleCover
// of [lo, hi].
func covered(rs []rule, lo, hi float64) bool {
	var parts []span
	for _, r := range rs {
		if a, b := max(r.lo, lo), min(r.hi, hi); a < b {
			parts = append(parts, span{a, b})
		}
	}
	slices.SortFunc(parts, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	total, end := 0.0, lo
	for _, p := range parts {
		if p.hi > end {
			total += p.hi - max(p.lo, end)
			end = p.hi
		}
	}
	return total >= pdfRuleCover*(hi-lo)
}

// gridTable builds a table from one group of rules, or nil when the group
// is no table: fewer than two rows or columns, a word across an inner
// rule, text in fewer than half the cells, or fewer than two rows with
// text in two cells. Cells merge across a missing border (colspan, then rowspan).
func gridTable(hs, vs []rule, open [2]float64, words []pdfWord) *pdfTable {
	ys, xs := snapLines(hs), snapLines(vs)
	if open[0] > 0 {
		xs = append([]float64{open[0]}, xs...)
	}
	if open[1] > 0 {
		xs = append(xs, open[1])
	}
	if len(ys) < 3 || len(xs) < 3 {
		return nil
	}
	nr, nc := len(ys)-1, len(xs)-1
	hAt, vAt := byLine(hs, ys), byLine(vs, xs)
	t := &pdfTable{box: capture.PDFBox{X: xs[0], Y: ys[0], W: xs[nc] - xs[0], H: ys[nr] - ys[0]}}
	slots := make([][]*pdfCell, nr) // the cell that covers each grid slot
	for r := range slots {
		slots[r] = make([]*pdfCell, nc)
	}
	for r := range nr {
		for c := range nc {
			if slots[r][c] != nil {
				continue
			}
			cs := 1
			for c+cs < nc && slots[r][c+cs] == nil && !covered(vAt[c+cs], ys[r], ys[r+1]) {
				cs++
			}
			rsp := 1
			for r+rsp < nr && !covered(hAt[r+rsp], xs[c], xs[c+cs]) && free(slots, r+rsp, c, cs) {
				rsp++
			}
			cell := &pdfCell{rowspan: rsp, colspan: cs,
				box: capture.PDFBox{X: xs[c], Y: ys[r], W: xs[c+cs] - xs[c], H: ys[r+rsp] - ys[r]}}
			for dr := range rsp {
				for dc := range cs {
					slots[r+dr][c+dc] = cell
				}
			}
		}
	}
	for r := range slots {
		var row []*pdfCell
		for c, cell := range slots[r] {
			if (r == 0 || slots[r-1][c] != cell) && (c == 0 || slots[r][c-1] != cell) { // the cell's first slot
				row = append(row, cell)
			}
		}
		t.rows = append(t.rows, row)
	}
	claimWords(t, slots, xs, ys, words)
	if crossed(t.words, xs, ys, hAt, vAt) {
		return nil // text runs across the rules: a plot's grid behind text
	}
	cells, filled := 0, filledCells(t)
	for _, row := range t.rows {
		cells += len(row)
	}
	if 2*filled < cells || fullRows(t) < 2 {
		return nil // a drawing's grid: axes, ticks, a lattice of lines, a few labels
	}
	markHeader(t)
	return t
}

// crossed reports whether a word crosses an inner rule of the grid by
// more than pdfRuleSnap on both sides: in a table no word crosses a
// cell border.
func crossed(words []*pdfWord, xs, ys []float64, hAt, vAt [][]rule) bool {
	for _, w := range words {
		for c := 1; c < len(xs)-1; c++ {
			if w.box.X < xs[c]-pdfRuleSnap && w.box.X+w.box.W > xs[c]+pdfRuleSnap && covered(vAt[c], w.box.Y, w.box.Y+w.box.H) {
				return true
			}
		}
		for r := 1; r < len(ys)-1; r++ {
			if w.box.Y < ys[r]-pdfRuleSnap && w.box.Y+w.box.H > ys[r]+pdfRuleSnap && covered(hAt[r], w.box.X, w.box.X+w.box.W) {
				return true
			}
		}
	}
	return false
}

// fullRows counts the rows with text in two cells or more.
func fullRows(t *pdfTable) int {
	n := 0
	for _, row := range t.rows {
		k := 0
		for _, c := range row {
			if len(c.words) > 0 {
				k++
			}
		}
		if k >= 2 {
			n++
		}
	}
	return n
}

// free reports whether no cell covers slots c to c+n-1 of row r yet.
func free(slots [][]*pdfCell, r, c, n int) bool {
	for d := range n {
		if slots[r][c+d] != nil {
			return false
		}
	}
	return true
}

// claimWords gives each word whose centre lies in the table to the cell
// that covers the grid slot it falls in (found by binary search: a page
// may hold a grid of a hundred thousand slots and as many words).
func claimWords(t *pdfTable, slots [][]*pdfCell, xs, ys []float64, words []pdfWord) {
	for i := range words {
		w := &words[i]
		cx, cy := w.box.X+w.box.W/2, w.box.Y+w.box.H/2
		if !inside(t.box, cx, cy) {
			continue
		}
		r, c := gridIndex(ys, cy), gridIndex(xs, cx)
		if r < 0 || c < 0 {
			continue
		}
		cell := slots[r][c]
		cell.words = append(cell.words, w)
		t.words = append(t.words, w)
	}
}

// gridIndex is the k with lines[k] <= v < lines[k+1], or -1.
func gridIndex(lines []float64, v float64) int {
	k, found := slices.BinarySearch(lines, v)
	if !found {
		k--
	}
	if k < 0 || k >= len(lines)-1 {
		return -1
	}
	return k
}

func inside(b capture.PDFBox, x, y float64) bool {
	return x >= b.X && x < b.X+b.W && y >= b.Y && y < b.Y+b.H
}

// markHeader makes the first row header cells when all its visible text
// is bold and the rows below are not all bold.
func markHeader(t *pdfTable) {
	if len(t.rows) < 2 || !rowBold(t.rows[0]) {
		return
	}
	for _, row := range t.rows[1:] {
		if !rowBold(row) {
			for _, c := range t.rows[0] {
				c.header = true
			}
			return
		}
	}
}

func rowBold(row []*pdfCell) bool {
	seen := false
	for _, c := range row {
		for _, w := range c.words {
			if w.visible() {
				if !w.bold {
					return false
				}
				seen = true
			}
		}
	}
	return seen
}

// filledCells counts the cells with words.
func filledCells(t *pdfTable) int {
	n := 0
	for _, row := range t.rows {
		for _, c := range row {
			if len(c.words) > 0 {
				n++
			}
		}
	}
	return n
}

// pdfCellSplit is the gap, in font sizes, between two words on one row
// of a cell that makes them two columns of text.
const pdfCellSplit = 2.0

// splitCells counts the cells that hold two columns of text: two visible
// words on one row pdfCellSplit sizes apart or more.
func splitCells(t *pdfTable) int {
	n := 0
	for _, row := range t.rows {
		for _, c := range row {
			if cellSplit(c) {
				n++
			}
		}
	}
	return n
}

func cellSplit(c *pdfCell) bool {
	for _, l := range wordRows(c.words) {
		var prev *pdfWord
		for _, w := range l.words {
			if !w.visible() {
				continue
			}
			if prev != nil && w.box.X-(prev.box.X+prev.box.W) >= pdfCellSplit*max(w.size, 1) {
				return true
			}
			prev = w
		}
	}
	return false
}
