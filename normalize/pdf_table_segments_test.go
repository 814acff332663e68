package normalize_test

import (
	"slices"
	"strings"
	"testing"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// TestPDFSegmentedOpenTable: a table whose vertical rules are drawn one
// short segment per text line (as LaTeX draws them) and stop short of its
// first and last columns, bounded only by horizontal rules that run on to
// both ends (2305.03393v1-pg9), is one table: the segments join, the open
// sides make columns, and a row of two text lines is one row of cells.
func TestPDFSegmentedOpenTable(t *testing.T) {
	inner := []float64{200, 250, 300}
	ys := []float64{100, 120, 150, 180} // header row, two body rows of two lines each
	var rects []capture.PDFRect
	for _, y := range ys {
		rects = append(rects, capture.PDFRect{Box: capture.PDFBox{X: 100, Y: y - 0.4, W: 300, H: 0.8}, Stroke: "#000000"})
	}
	for _, x := range inner {
		for y := ys[0]; y < ys[len(ys)-1]; y += 10 { // 10 pt segments, touching
			rects = append(rects, capture.PDFRect{Box: capture.PDFBox{X: x - 0.4, Y: y, W: 0.8, H: 10.2}, Stroke: "#000000"})
		}
	}
	row := func(y float64, cells ...string) capture.PDFLine {
		var spans []capture.PDFSpan
		for i, c := range cells {
			if c != "" {
				spans = append(spans, spansAt([]float64{110, 210, 260, 310}[i], y, 8, c)...)
			}
		}
		return line(spans...)
	}
	p := page(textLine(72, 80, 10, "Text above the table."),
		row(114, "Model", "Size", "Lang", "Score"),
		row(132, "", "", "OTSL", "0.96"), row(137, "six", "6", "", ""), row(144, "", "", "HTML", "0.97"),
		row(162, "", "", "OTSL", "0.93"), row(167, "four", "4", "", ""), row(174, "", "", "HTML", "0.95"),
		textLine(72, 200, 10, "Text below the table."))
	p.Rects = rects
	n := normalizePDF(t, p)
	got := elementTexts(n)
	want := []string{"p: Text above the table.",
		"td: Model", "td: Size", "td: Lang", "td: Score",
		"td: six", "td: 6", "td: OTSL HTML", "td: 0.96 0.97",
		"td: four", "td: 4", "td: OTSL HTML", "td: 0.93 0.95",
		"p: Text below the table."}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
