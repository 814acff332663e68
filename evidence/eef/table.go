package eef

import "github.com/sieve-dev/sieve/graph"

// table lays rows of cells on a grid: a cell takes the first free column
// of its row, and its row and column spans occupy the cells they cover.
// Cells keep their box (PDFs) on the table's page.
func table(n int, elementRef, pageRef string, rows [][]graph.Cell, pl *placer) Table {
	t := Table{ID: id("t%04d", n), ElementRef: elementRef, PageRef: pageRef, Rows: len(rows), Cells: []Cell{}}
	taken := map[[2]int]bool{}
	for r, row := range rows {
		col := 0
		for _, c := range row {
			for taken[[2]int{r, col}] {
				col++
			}
			rs, cs := max(c.Rowspan, 1), max(c.Colspan, 1)
			rs = min(rs, len(rows)-r) // a rowspan past the table's end stops there
			for dr := 0; dr < rs; dr++ {
				for dc := 0; dc < cs; dc++ {
					taken[[2]int{r + dr, col + dc}] = true
				}
			}
			t.Cells = append(t.Cells, Cell{Row: r, Column: col, RowSpan: rs, ColSpan: cs, Header: c.Header, Text: c.Text,
				BBox: pl.bbox(pageRef, c.Box)})
			col += cs
			t.Columns = max(t.Columns, col)
		}
	}
	return t
}
