package normalize_test

import (
	"slices"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// TestPDFSpaceCharacter: a span after a space character of the page's
// text (capture's span space) is spaced however tight the glyph boxes
// ("of the" at 0.1 size, a French "traiter :"); without one the gap rule
// holds (parts of a word that touch join).
func TestPDFSpaceCharacter(t *testing.T) {
	at := func(x float64, text string, space bool) capture.PDFSpan {
		s := spansAt(x, 100, 10, text)[0]
		s.Space = space
		return s
	}
	for _, c := range []struct {
		spans []capture.PDFSpan
		want  string
	}{
		{[]capture.PDFSpan{at(72, "of", false), at(83, "the", true)}, "p: of the"},
		{[]capture.PDFSpan{at(72, "of", false), at(83, "the", false)}, "p: ofthe"},
		{[]capture.PDFSpan{at(72, "traiter", false), at(108, ":", true)}, "p: traiter :"},
		{[]capture.PDFSpan{at(72, "traiter", false), at(107.5, ":", false)}, "p: traiter:"},
	} {
		got := elementTexts(normalizePDF(t, page(line(c.spans...))))
		if !slices.Contains(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.spans, got, c.want)
		}
	}
}

// TestPDFTaggedHeadingsByStyle: a tagged document whose structure tree
// has no heading tag (every block a P) gets its headings by size and
// weight as an untagged one does, an italic one-liner included; one with
// a heading tag keeps its tags' word.
func TestPDFTaggedHeadingsByStyle(t *testing.T) {
	mcid := func(spans []capture.PDFSpan, id int, italic bool) capture.PDFLine {
		for i := range spans {
			spans[i].MCID = &id
			spans[i].Italic = italic
		}
		return line(spans...)
	}
	body := "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"
	build := func(first string) []string {
		p := page(
			mcid(spansAt(72, 80, 18, "Overview"), 0, false),
			mcid(spansAt(72, 110, 10, body), 1, false),
			mcid(spansAt(72, 140, 10, "Boots Self-Locking Nut"), 2, true),
			mcid(spansAt(72, 160, 10, body), 3, false),
			mcid(spansAt(72, 180, 10, body), 4, false),
		)
		p.Tags = []capture.PDFTag{{Type: "Document", Kids: []capture.PDFTag{
			{Type: first, MCIDs: []int{0}}, {Type: "P", MCIDs: []int{1}}, {Type: "P", MCIDs: []int{2}},
			{Type: "P", MCIDs: []int{3}}, {Type: "P", MCIDs: []int{4}},
		}}}
		return elementTexts(normalizePDF(t, p))
	}
	got := build("P")
	if !slices.Contains(got, "h1: Overview") || !slices.Contains(got, "h2: Boots Self-Locking Nut") {
		t.Errorf("all P: %q, want h1 Overview and h2 Boots Self-Locking Nut", got)
	}
	got = build("H1")
	if !slices.Contains(got, "h1: Overview") || !slices.Contains(got, "p: Boots Self-Locking Nut") {
		t.Errorf("with an H1 tag: %q, want the tags' headings only", got)
	}
}

// TestPDFNumberedHeadingLevels: a numbered heading's level is one more
// than its number's depth, whatever its size ranks.
func TestPDFNumberedHeadingLevels(t *testing.T) {
	lines := []capture.PDFLine{textLine(72, 80, 18, "Report"), textLine(72, 110, 14, "1 Introduction")}
	lines = append(lines, column(72, 140, 10, 400, 3, "a")...)
	lines = append(lines, textLine(72, 200, 14, "1.1 Scope"))
	lines = append(lines, column(72, 230, 10, 400, 3, "b")...)
	lines = append(lines, textLine(72, 290, 12, "2.1.6 Details"))
	lines = append(lines, column(72, 320, 10, 400, 3, "c")...)
	p := page(lines...)
	got := elementTexts(normalizePDF(t, p))
	for _, want := range []string{"h1: Report", "h2: 1 Introduction", "h3: 1.1 Scope", "h4: 2.1.6 Details"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

// TestPDFLeaderTable: three or more lines of an entry, a dot leader and a
// page number read as a two-column table; a line without a page number
// after its leader ends it, and two leader lines alone stay paragraphs.
func TestPDFLeaderTable(t *testing.T) {
	toc := func(n int) capture.PDFPage {
		entries := []string{"Notices . . . . . . vii", "Preface . . . . . . xi", "1.1 Security fundamentals . . . . 2", "1.2 Current state . . . . . . 3"}
		var lines []capture.PDFLine
		for i, e := range entries[:n] {
			lines = append(lines, textLine(72, 100+float64(i)*14, 10, e))
		}
		return page(append(lines, textLine(72, 300, 10, "Body text after the contents."))...)
	}
	n := normalizePDF(t, toc(4))
	var cells []string
	for _, node := range n.Nodes {
		if node.Tag == "#text" && n.Nodes[node.Parent].Tag == "td" {
			cells = append(cells, node.Text)
		}
	}
	// (the dots join: these spans carry no space characters, and closing
	// punctuation a quarter size apart joins the word before it)
	want := []string{"Notices......", "vii", "Preface......", "xi", "1.1 Security fundamentals....", "2", "1.2 Current state......", "3"}
	if !slices.Equal(cells, want) {
		t.Errorf("cells %q, want %q", cells, want)
	}
	if got := elementTexts(normalizePDF(t, toc(2))); slices.ContainsFunc(got, func(s string) bool { return s == "td: vii" }) {
		t.Errorf("two leader lines made a table: %q", got)
	}
}
