package normalize_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/normalize"
)

// rtlSpans sets Arabic words out right to left from x (their right edge)
// on the line with baseline y, one span per word in content (logical)
// order, each left of the one before: as PDFium lists right-to-left text.
func rtlSpans(x, y, size float64, text string) []capture.PDFSpan {
	var out []capture.PDFSpan
	for _, w := range strings.Fields(text) {
		wd := 0.5 * size * float64(len([]rune(w)))
		x -= wd
		out = append(out, capture.PDFSpan{Text: w, Size: size, Box: capture.PDFBox{X: x, Y: y - 0.7*size, W: wd, H: 0.7 * size}})
		x -= 0.25 * size
	}
	return out
}

// TestPDFPaintTallBand: white text on a grey band five lines tall (a
// table's header band, taller than a highlight) shows; white text inside
// the box of a tall white path, and white text on the page beside the
// band, stay hidden. A tall path only ever shows text, never hides it.
func TestPDFPaintTallBand(t *testing.T) {
	white := func(l capture.PDFLine) capture.PDFLine {
		for i := range l.Spans {
			l.Spans[i].Color = "#ffffff"
		}
		return l
	}
	p := page(
		white(textLine(72, 110, 8, "Loan Type")), white(textLine(72, 122, 8, "Annual percentage rate")),
		white(textLine(72, 300, 8, "secret white words")),
		white(textLine(400, 110, 8, "beside the band")),
	)
	p.Rects = []capture.PDFRect{
		{Box: capture.PDFBox{X: 60, Y: 95, W: 300, H: 42}, Fill: "#57585a"},
		{Box: capture.PDFBox{X: 60, Y: 250, W: 300, H: 200}, Fill: "#ffffff"},
	}
	got := elementTexts(normalizePDF(t, p))
	want := []string{"p: Loan Type Annual percentage rate", "p: [same_color] beside the band", "p: [same_color] secret white words"}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPDFPaintTallBandCaptured: the same through capture, from a PDF drawn
// here: white headings on a grey band 42 pt tall are content.
func TestPDFPaintTallBandCaptured(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCreationDate(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f.SetModificationDate(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	f.AddPage()
	f.SetFillColor(0x57, 0x58, 0x5a)
	f.Rect(60, 95, 400, 42, "F")
	f.SetFont("Helvetica", "", 8)
	f.SetTextColor(255, 255, 255)
	f.Text(72, 110, "Loan Type")
	f.Text(72, 122, "Annual percentage rate")
	f.Text(72, 400, "secret white words")
	f.SetTextColor(0, 0, 0)
	f.SetFont("Helvetica", "", 11)
	f.Text(72, 200, "Body text under the band.")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	rec := capturePDF(t, buf.Bytes())
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(elementTexts(n), "\n")
	for _, want := range []string{"Loan Type", "Annual percentage rate", "[same_color] secret white words", "Body text under the band."} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "[same_color] Loan") || strings.Contains(got, "[same_color] Annual") {
		t.Errorf("band text hidden:\n%s", got)
	}
}

// TestPDFStampOverLine: a stamp's large words drawn across a line of text
// (annotations.pdf: "Dumm PDF y PDF file file") are a line of their own,
// and the line under them reads whole; a footnote mark on that line that
// overlaps nothing stays on it.
func TestPDFStampOverLine(t *testing.T) {
	small := spansAt(57, 84, 16, "Dummy PDF file")
	mark := capture.PDFSpan{Text: "1", Size: 9, Box: capture.PDFBox{X: 190, Y: 72, W: 4.5, H: 6}}
	big := []capture.PDFSpan{
		{Text: "PDF", Size: 32, Box: capture.PDFBox{X: 74, Y: 67, W: 60, H: 23}},
		{Text: "file", Size: 32, Box: capture.PDFBox{X: 145, Y: 67, W: 45, H: 24}},
	}
	p := page(line(small[0]), line(big[0]), line(small[1], small[2], mark), line(big[1]),
		textLine(57, 140, 16, "Next line of the page."))
	got := elementTexts(normalizePDF(t, p))
	want := []string{"h1: PDF file", "p: Dummy PDF file 1", "p: Next line of the page."}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPDFTaggedRightToLeftHeading: a tagged paragraph of Arabic words in
// content order (each left of the one before, a number and dashes among
// them) is one line read right to left, not a line per word; in a
// document whose running text is all bold (that line and a smaller bold
// one), the tables' cells give the body size, so both are headings.
func TestPDFTaggedRightToLeftHeading(t *testing.T) {
	id := func(v int) *int { return &v }
	tag := func(spans []capture.PDFSpan, mcid int) []capture.PDFSpan {
		for i := range spans {
			spans[i].MCID = id(mcid)
		}
		return spans
	}
	bold := func(spans []capture.PDFSpan) []capture.PDFSpan {
		for i := range spans {
			spans[i].Weight = 700
		}
		return spans
	}
	head := append(tag(bold(spansAt(457, 150, 15, "2-5")), 0), tag(bold(spansAt(450, 150, 15, "-")), 1)...)
	head = append(head, tag(bold(rtlSpans(445, 150, 15, "استاندارد کالا")), 2)...)
	var lines []capture.PDFLine
	lines = append(lines, line(head...))
	var rows []capture.PDFTag
	cells := [][2]string{{"نام استاندارد", "شمشه و شمشال"}, {"شماره استاندارد ملی", "20300"}, {"مرجع صادرکننده", "سازمان ملی استاندارد ايران"}}
	for r, c := range cells {
		y := 200 + float64(r)*20
		lines = append(lines, line(append(tag(rtlSpans(520, y, 12, c[0]), 10+2*r), tag(rtlSpans(300, y, 12, c[1]), 11+2*r)...)...))
		rows = append(rows, capture.PDFTag{Type: "TR", Kids: []capture.PDFTag{{Type: "TD", MCIDs: []int{10 + 2*r}}, {Type: "TD", MCIDs: []int{11 + 2*r}}}})
	}
	lines = append(lines, line(tag(bold(rtlSpans(500, 300, 14, "پذيرش در بورس")), 3)...))
	p := page(lines...)
	p.Tags = []capture.PDFTag{{Type: "Part", Kids: []capture.PDFTag{
		{Type: "P", Kids: []capture.PDFTag{{Type: "Span", MCIDs: []int{0}}, {Type: "Span", MCIDs: []int{1}}, {Type: "Span", MCIDs: []int{2}}}},
		{Type: "Table", Kids: rows},
		{Type: "P", MCIDs: []int{3}},
	}}}
	got := elementTexts(normalizePDF(t, p))
	if len(got) < 2 || got[0] != "h1: -2-5 استاندارد کالا" || got[len(got)-1] != "h2: پذيرش در بورس" {
		t.Errorf("elements:\n%s\nwant first %q, last %q", strings.Join(got, "\n"), "h1: -2-5 استاندارد کالا", "h2: پذيرش در بورس")
	}
	if !slices.Contains(got, "td: سازمان ملی استاندارد ايران") {
		t.Errorf("elements:\n%s\nwant a cell read right to left", strings.Join(got, "\n"))
	}
}

// TestPDFDirectionBreak: a Latin word drawn against the Arabic word after
// it, with no space between them in the page's text, is still two words.
func TestPDFDirectionBreak(t *testing.T) {
	spans := rtlSpans(500, 100, 10, "يمتلك كل")
	latin := capture.PDFSpan{Text: "Python", Size: 10, Box: capture.PDFBox{X: 410, Y: 93, W: 30, H: 7}}
	arabic := capture.PDFSpan{Text: "ميزات", Size: 10, Box: capture.PDFBox{X: 385, Y: 93, W: 24.6, H: 7}}
	got := elementTexts(normalizePDF(t, page(line(append(spans, latin, arabic)...))))
	want := []string{"p: يمتلك كل Python ميزات"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPDFLowLineInWord: a low line drawn as a piece of its own, a
// hairline under the baseline that touches no letter's box, stays in the
// word it joins ("FUNCTION_USAGE", redp5110) instead of making a line.
func TestPDFLowLineInWord(t *testing.T) {
	const size = 10
	left := capture.PDFSpan{Text: "FUNCTION", Size: size, Box: capture.PDFBox{X: 72, Y: 93, W: 40, H: 7}}
	low := capture.PDFSpan{Text: "_", Size: size, Box: capture.PDFBox{X: 112, Y: 100.2, W: 5, H: 0.5}}
	right := capture.PDFSpan{Text: "USAGE", Size: size, Box: capture.PDFBox{X: 117, Y: 93, W: 25, H: 7}}
	got := elementTexts(normalizePDF(t, page(line(left, right), line(low), textLine(72, 114, size, "view columns"))))
	want := []string{"p: FUNCTION_USAGE view columns"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
