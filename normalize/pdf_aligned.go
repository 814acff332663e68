package normalize

import capture "github.com/sieve-dev/sieve/capture/caprec"

// Thresholds of tables found by alignment alone (no ruling lines).
const (
	pdfCellGap     = 1.5 // a gap of this many font sizes inside a line separates cells
	pdfAlignedRows = 3   // rows a table of aligned columns has at least
	pdfRowStep     = 3.0 // rows are at most this many sizes apart (baseline to baseline)
)

// pdfSegment is a run of a line's words between wide gaps: a cell.
type pdfSegment struct {
	words []*pdfWord
	box   capture.PDFBox
}

// segments cuts a line at gaps wider than pdfCellGap font sizes (visible
// words only decide; hidden ones go with the segment they fall in).
func segments(l *pdfLine) []pdfSegment {
	var out []pdfSegment
	var prev *pdfWord
	gap := pdfCellGap * max(l.size, 1)
	for _, w := range l.words {
		if !w.visible() {
			if len(out) > 0 {
				out[len(out)-1].words = append(out[len(out)-1].words, w)
			}
			continue
		}
		if prev == nil || w.box.X-(prev.box.X+prev.box.W) > gap {
			out = append(out, pdfSegment{box: w.box})
		}
		s := &out[len(out)-1]
		s.words = append(s.words, w)
		s.box = union(s.box, w.box)
		prev = w
	}
	return out
}

// alignedTables finds tables of aligned columns in a run of lines: at least
// pdfAlignedRows consecutive lines of the same size, at most pdfRowStep
// sizes apart, each cut into the same number (two or more) of cells whose
// columns line up — each cell overlaps the cell above it in its column and
// no other. It returns the run as blocks: tables and runs of other lines.
func alignedTables(lines []*pdfLine) []pdfBlock {
	segs := make([][]pdfSegment, len(lines))
	for i, l := range lines {
		segs[i] = segments(l)
	}
	return splitRuns(lines, func(i int) (pdfBlock, int) {
		j := i + 1
		for len(segs[i]) >= 2 && j < len(lines) && alignedRows(lines[j-1], lines[j], segs[j-1], segs[j]) {
			j++
		}
		if j-i < pdfAlignedRows {
			return pdfBlock{}, i
		}
		return pdfBlock{table: alignedTable(segs[i:j])}, j
	})
}

// alignedRows reports whether line b continues the table of line a.
func alignedRows(a, b *pdfLine, sa, sb []pdfSegment) bool {
	if len(sa) != len(sb) || len(sa) < 2 || a.size != b.size {
		return false
	}
	step := b.base - a.base
	if step <= 0 || step > pdfRowStep*max(a.size, 1) {
		return false
	}
	for k := range sa {
		if !overlapX(sa[k].box, sb[k].box) {
			return false
		}
		if k+1 < len(sa) && (overlapX(sa[k].box, sb[k+1].box) || overlapX(sa[k+1].box, sb[k].box)) {
			return false
		}
	}
	return true
}

func overlapX(a, b capture.PDFBox) bool { return a.X < b.X+b.W && b.X < a.X+a.W }

// alignedTable makes a table of aligned rows: one cell per segment, the
// first row header cells when it is bold and a later row is not.
func alignedTable(rows [][]pdfSegment) *pdfTable {
	t := &pdfTable{}
	for _, row := range rows {
		var cells []*pdfCell
		for _, s := range row {
			cells = append(cells, &pdfCell{box: s.box, rowspan: 1, colspan: 1, words: s.words})
			t.words = append(t.words, s.words...)
			t.box = union(t.box, s.box)
		}
		t.rows = append(t.rows, cells)
	}
	markHeader(t)
	return t
}
