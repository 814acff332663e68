package normalize_test

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// TestPDFThreeColumns: a three-column page (the Federal Register's) whose
// columns' baselines step a point or two from column to column reads a
// column at a time. Each side of either gutter holds a gap at the other
// one, which is no table cell's gap; and the rows, compared with their
// tallest word rather than their union, do not chain across the page.
func TestPDFThreeColumns(t *testing.T) {
	cols := [3][]capture.PDFLine{
		column(45, 150, 9, 160, 14, "FIRST"),
		column(222, 153, 9, 160, 14, "SECOND"),
		column(399, 156, 9, 160, 14, "THIRD"),
	}
	var lines []capture.PDFLine
	for i := range cols[0] { // PDFium's order: row by row across the page
		lines = append(lines, cols[0][i], cols[1][i], cols[2][i])
	}
	got := elementTexts(normalizePDF(t, page(lines...)))
	if len(got) != 3 || !strings.HasPrefix(got[0], "p: FIRST") || !strings.HasPrefix(got[1], "p: SECOND") || !strings.HasPrefix(got[2], "p: THIRD") {
		t.Errorf("reading order:\n%s", strings.Join(got, "\n"))
	}
}

// TestPDFOverprintedWords: a word drawn twice in one place (fake bold) is
// read once, and a copy set a few points off is another word, spaced.
func TestPDFOverprintedWords(t *testing.T) {
	twice := func(dx float64, text string) capture.PDFLine {
		a := spansAt(72, 100, 20, text)
		b := spansAt(72+dx, 100, 20, text)
		return line(append(a, b...)...)
	}
	n := normalizePDF(t, page(twice(0.5, "Font Size"), line(spansAt(72, 160, 20, "Weight")...), line(spansAt(78, 160, 20, "Weight")...)))
	got := elementTexts(n)
	if len(got) != 2 || got[0] != "p: Font Size" || got[1] != "p: Weight Weight" {
		t.Errorf("elements:\n%s", strings.Join(got, "\n"))
	}
}
