package crop

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"reflect"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/pdf"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/verify"
)

// line is a text line of words 10 pt apart per character, at baseline
// row y (12 pt a row), from x.
func line(x, y float64, words ...string) pdf.Line {
	var l pdf.Line
	for _, w := range words {
		b := pdf.Box{X0: x, Y0: y, X1: x + 5*float64(len(w)), Y1: y + 10}
		l.Words = append(l.Words, pdf.Word{Text: w, Box: b})
		l.Box = l.Box.Union(b)
		x = b.X1 + 4
	}
	return l
}

// TestQuoteBoxes (issue 26): only the words of the quote are boxed, line
// by line; a hyphen at a line's end, a ligature, case, spaces and
// punctuation do not matter; a line of the column beside the box with the
// same words is not the box's; every occurrence counts; a quote that is
// not there gives nothing.
func TestQuoteBoxes(t *testing.T) {
	lines := []pdf.Line{
		line(100, 100, "Grey", "herons", "stand", "for", "long"),
		line(100, 112, "minutes", "in", "the", "shal-"),
		line(100, 124, "lows", "below", "the", "mill,", "waiting"),
		line(100, 136, "for", "roach", "to", "ﬁnd", "them."),
		line(300, 112, "minutes", "in", "the", "shal-"), // the other column, same baseline
	}
	box := ground.Box{X: 100, Y: 100, W: 150, H: 46}
	got := QuoteBoxes(lines, box, []string{"In the SHALLOWS below"})
	want := []ground.Box{
		{X: 139, Y: 112, W: 58, H: 10}, // "in the shal-"
		{X: 100, Y: 124, W: 49, H: 10}, // "lows below"
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a quote across a hyphenated line break: %v, want %v", got, want)
	}
	if got := QuoteBoxes(lines, box, []string{"find them"}); len(got) != 1 || got[0] != (ground.Box{X: 162, Y: 136, W: 54, H: 10}) {
		t.Errorf("a ligature in the page's text: %v", got)
	}
	if got := QuoteBoxes(lines, box, []string{"for"}); len(got) != 2 || got[0].Y != 100 || got[1].Y != 136 {
		t.Errorf("every occurrence: %v", got)
	}
	for _, q := range []string{"heron's nest", "", "…", "minutes in the shal- lows below the mill, waiting for roach to find them. And more."} {
		if got := QuoteBoxes(lines, box, []string{q}); got != nil {
			t.Errorf("%q is not in the box, got %v", q, got)
		}
	}
}

func TestRuns(t *testing.T) {
	boxes := []ground.Box{{X: 140, Y: 112, W: 49, H: 10}, {X: 100, Y: 124, W: 54, H: 10}, {X: 100, Y: 200, W: 20, H: 10}}
	want := []ground.Box{{X: 100, Y: 112, W: 89, H: 22}, {X: 100, Y: 200, W: 20, H: 10}}
	if got := runs(boxes); !reflect.DeepEqual(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
}

// TestMarkLines: with line boxes, the picture keeps the quoted words as
// the page shows them and dims the rest of the cited box too; one outline
// goes round consecutive lines.
func TestMarkLines(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 100, 60)) // area = pixels, 1 px per unit
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0, 0, 0, 255}}, image.Point{}, draw.Src)
	area := [4]int{0, 0, 100, 60}
	m := Mark(img, area, ground.Box{X: 50, Y: 10, W: 40, H: 10}, ground.Box{X: 10, Y: 22, W: 30, H: 10})
	black := color.RGBA{0, 0, 0, 255}
	for _, p := range []image.Point{{60, 15}, {20, 27}} {
		if c := m.RGBAAt(p.X, p.Y); c != black {
			t.Errorf("%v in a quoted line: %v, want the page's own black", p, c)
		}
	}
	for _, p := range []image.Point{{20, 15}, {60, 27}, {50, 50}} {
		if c := m.RGBAAt(p.X, p.Y); c.R < 150 {
			t.Errorf("%v outside the quoted words: %v, want dimmed", p, c)
		}
	}
	if c := m.RGBAAt(9, 15); c != markColour {
		t.Errorf("the outline goes round both lines (left edge of the run at x=8..9): %v", c)
	}
}

// TestPDFQuotedLines (issue 26): a quote inside a paragraph of a
// two-column page marks only its lines: the crop shows the whole
// paragraph, the quoted lines as the page draws them and the others
// dimmed; the descriptor says which lines; --plain draws no mark and
// records none; a crop without a quote marks the whole box and says why.
func TestPDFQuotedLines(t *testing.T) {
	d, err := pdftest.TwoColumn()
	if err != nil {
		t.Fatal(err)
	}
	doc := distilPDF(t, d.PDF)
	quote := "where the eggs lie on a bed of fish bones"
	src, r := quotes(t, doc, quote)
	if r.Checks[0].Status != verify.StatusGrounded {
		t.Fatalf("%+v", r.Checks[0])
	}
	ras, err := LoadRaster(doc, src, Sources{PDF: writeTemp(t, "src.pdf", d.PDF)})
	if err != nil || ras.NoPixels != "" {
		t.Fatal(err, ras.NoPixels)
	}
	ts := Targets(src, &r)
	set, err := Make(src, ts, ras, Options{Padding: DefaultPadding, DPI: 72})
	if err != nil {
		t.Fatal(err)
	}
	dsc := set.Descriptors[0]
	if dsc.RenderingStatus != StatusRendered || dsc.Mark == nil || dsc.Mark.Scope != MarkLines {
		t.Fatalf("%+v %+v", dsc, dsc.Mark)
	}
	block := boxOf(dsc.BBox)
	for _, b := range dsc.Mark.Boxes {
		lb := boxOf(b)
		if lb.H >= block.H || lb.X < block.X-lineSlack || lb.X+lb.W > block.X+block.W+lineSlack {
			t.Errorf("line box %v is not a line of the paragraph %v", b, dsc.BBox)
		}
	}
	if n := len(dsc.Mark.Boxes); n < 1 || n > 2 {
		t.Errorf("%d line boxes for a quote of at most two lines: %v", n, dsc.Mark.Boxes)
	}
	img, err := png.Decode(bytes.NewReader(set.PNGs[dsc.CropRef]))
	if err != nil {
		t.Fatal(err)
	}
	// At 72 dpi a pixel is a point: the paragraph's first line (above the
	// quote) is dimmed, so it holds no dark pixel; the quoted line does.
	first := boxOf(dsc.BBox)
	first.H = 6
	quoted := boxOf(dsc.Mark.Boxes[0])
	a := dsc.Pixels.Area
	if first.Y+first.H <= quoted.Y && darkest(img, first, a) < 120 {
		t.Errorf("the paragraph's first line is not dimmed (darkest %d)", darkest(img, first, a))
	}
	if darkest(img, quoted, a) > 60 {
		t.Errorf("the quoted line is not as the page draws it (darkest %d)", darkest(img, quoted, a))
	}

	plain, err := Make(src, ts, ras, Options{Padding: DefaultPadding, DPI: 72, Plain: true})
	if err != nil || plain.Descriptors[0].Mark != nil {
		t.Errorf("--plain records a mark: %v %+v", err, plain.Descriptors[0].Mark)
	}
	if bytes.Equal(plain.PNGs[dsc.CropRef], set.PNGs[dsc.CropRef]) {
		t.Error("the plain crop is the marked one")
	}
	ts[0].Quotes = nil
	box, err := Make(src, ts, ras, Options{Padding: DefaultPadding, DPI: 72})
	if m := box.Descriptors[0].Mark; err != nil || m == nil || m.Scope != MarkBox || !reflect.DeepEqual(m.Boxes, [][]int{dsc.BBox}) || m.Note != noteNoQuote {
		t.Errorf("no quote: %v %+v", err, m)
	}
	checkSchema(t, set)
	checkSchema(t, box)
}

// darkest is the darkest grey level of img inside box (document units on
// a crop of area at 1 px per unit).
func darkest(img image.Image, box ground.Box, area []int) int {
	low := 255
	for y := box.Y - area[1]; y < box.Y+box.H-area[1]; y++ {
		for x := box.X - area[0]; x < box.X+box.W-area[0]; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			low = min(low, int((r+g+b)/3>>8))
		}
	}
	return low
}

// A web page's crop marks its block's box: the render tier has no line
// boxes, and the descriptor says so.
func TestScreenshotMarksTheBox(t *testing.T) {
	src, err := ground.FromEthos(distilPDF(t, mustMarkers(t)))
	if err != nil {
		t.Fatal(err)
	}
	shot := image.NewRGBA(image.Rect(0, 0, 1000, 1000))
	draw.Draw(shot, shot.Bounds(), &image.Uniform{color.White}, image.Point{}, draw.Src)
	draw.Draw(shot, image.Rect(20, 20, 40, 24), &image.Uniform{color.Black}, image.Point{}, draw.Src)
	set, err := Make(src, []Target{{CheckIDs: []string{"v0001"}, PageRef: "p0001", BBox: &ground.Box{X: 10, Y: 10, W: 50, H: 20}, Text: "x", Quotes: []string{"x"}}},
		Raster{Screenshot: shot}, Options{Padding: 2})
	if err != nil {
		t.Fatal(err)
	}
	m := set.Descriptors[0].Mark
	if m == nil || m.Scope != MarkBox || !reflect.DeepEqual(m.Boxes, [][]int{{10, 10, 50, 20}}) || !strings.Contains(m.Note, "one box per block") {
		t.Errorf("%+v", m)
	}
}

// A caller that knows the quoted lines gives them (Target.Lines): they
// are marked as they are, on any raster.
func TestGivenLines(t *testing.T) {
	src, err := ground.FromEthos(distilPDF(t, mustMarkers(t)))
	if err != nil {
		t.Fatal(err)
	}
	shot := image.NewRGBA(image.Rect(0, 0, 1000, 1000))
	draw.Draw(shot, shot.Bounds(), &image.Uniform{color.White}, image.Point{}, draw.Src)
	draw.Draw(shot, image.Rect(12, 12, 58, 28), &image.Uniform{color.Black}, image.Point{}, draw.Src)
	lines := []ground.Box{{X: 12, Y: 12, W: 46, H: 7}, {X: 12, Y: 21, W: 20, H: 7}}
	set, err := Make(src, []Target{{CheckIDs: []string{"v0001"}, PageRef: "p0001", BBox: &ground.Box{X: 10, Y: 10, W: 50, H: 20}, Text: "x", Lines: lines}},
		Raster{Screenshot: shot}, Options{Padding: 2})
	if err != nil {
		t.Fatal(err)
	}
	m := set.Descriptors[0].Mark
	if m == nil || m.Scope != MarkLines || !reflect.DeepEqual(m.Boxes, [][]int{{12, 12, 46, 7}, {12, 21, 20, 7}}) || m.Note != "" {
		t.Fatalf("%+v", m)
	}
	img, _ := png.Decode(bytes.NewReader(set.PNGs[set.Descriptors[0].CropRef]))
	// The crop starts at page pixel (8, 8). Page pixel (40, 24) is in the
	// black bar but in neither line's box: dimmed.
	if r, _, _, _ := img.At(40-8, 24-8).RGBA(); r>>8 < 150 {
		t.Errorf("black outside the given lines is not dimmed: %d", r>>8)
	}
	if r, _, _, _ := img.At(20-8, 14-8).RGBA(); r>>8 != 0 {
		t.Errorf("a given line is not as the page shows it: %d", r>>8)
	}
}
