package ocr

import (
	"context"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

// tiltedLines are what testdata/tilted.html draws: degrees turned
// (counter-clockwise positive), size in CSS px, text. tilted.png is that
// page at device scale 2 (regenerate with chromium --headless
// --force-device-scale-factor=2 --window-size=900,560
// --screenshot=tilted.png tilted.html, then save it grey).
var tiltedLines = []struct {
	deg, px int
	text    string
}{
	{1, 14, "Weekly orders rose to 1520 units in the northern region"},
	{-2, 16, "Spare tyres ordered for the fleet arrive on Friday"},
	{3, 18, "Northern depot shipped 15420 parcels this quarter"},
	{-3, 18, "Average delivery time fell to two days"},
	{3, 22, "Quarterly revenue climbed past eight million"},
	{-3, 22, "Temperature sensors report normal ranges"},
	{4, 26, "Complaints dropped to 41"},
	{-5, 30, "Warehouse opens on Saturdays"},
}

// TestReadImageStraightensTiltedLines: sparse-text mode alone cuts lines
// turned 2–5° ("Northern depot shipped 15420 parcels t" / "his
// quarter"), drops a word and misreads case ("Opens"); ReadImage reads
// every line whole and exact, one line each, in order, boxes on the
// canvas, the same bytes twice.
func TestReadImageStraightensTiltedLines(t *testing.T) {
	needTesseract(t)
	png, err := os.ReadFile("testdata/tilted.png")
	if err != nil {
		t.Fatal(err)
	}
	g, err := VisibleGray(png)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Read(context.Background(), BMP(g), Options{Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ReadImage(context.Background(), g, Options{Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sparse-text mode alone: %d of %d lines exact; straightened: %d", exactLines(plain), len(tiltedLines), exactLines(res))
	if len(res.Lines) != len(tiltedLines) {
		t.Fatalf("%d lines, want %d:\n%s", len(res.Lines), len(tiltedLines), lineTexts(res))
	}
	for i, want := range tiltedLines {
		l := res.Lines[i]
		if l.Text != want.text {
			t.Errorf("line %d (%d°, %d px): %q, want %q", i, want.deg, want.px, l.Text, want.text)
		}
		if l.Box.X < 25 || l.Box.X > 35 || l.Box.X+l.Box.W > 900 || l.Box.Y < 0 || l.Box.Y+l.Box.H > 560 {
			t.Errorf("line %q box %+v: want it on the 900 × 560 canvas, starting at x≈30", l.Text, l.Box)
		}
		for _, w := range l.Words {
			if w.Box.W <= 0 || w.Box.H <= 0 || w.Box.X < l.Box.X || w.Box.X+w.Box.W > l.Box.X+l.Box.W+0.01 {
				t.Errorf("word %q box %+v outside its line %+v", w.Text, w.Box, l.Box)
			}
		}
	}
	again, err := ReadImage(context.Background(), g, Options{Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res, again) {
		t.Error("two reads of the same pixels differ")
	}
}

func exactLines(r *Result) int {
	n, text := 0, "\n"+lineTexts(r)
	for _, l := range tiltedLines {
		if strings.Contains(text, "\n"+l.text+"\n") {
			n++
		}
	}
	return n
}

// TestTiltedRowsChainsPiecesAndSkipsLevelAndSteep: the two pieces sparse
// mode made of one line rising 3° are one row with that slant; a level
// line and one at 30° (set so on purpose) are not straightened.
func TestTiltedRowsChainsPiecesAndSkipsLevelAndSteep(t *testing.T) {
	rise := math.Tan(3 * math.Pi / 180)
	word := func(text string, x, w float64) Word {
		return Word{Text: text, Conf: 96, Box: Box{X: x, Y: 200 - rise*(x+w/2) - 20, W: w, H: 40 + rise*w}}
	}
	pieces := []Line{
		{Words: []Word{word("Northern", 66, 188), word("depo", 274, 105)}},
		{Words: []Word{word("t", 382, 16), word("shipped", 414, 168), word("15420", 604, 133)}},
		{Words: []Word{{Text: "Level", Box: Box{X: 60, Y: 400, W: 100, H: 40}}, {Text: "line", Box: Box{X: 180, Y: 400, W: 80, H: 40}}}},
		{Words: []Word{{Text: "Axis", Box: Box{X: 600, Y: 500, W: 90, H: 80}}, {Text: "title", Box: Box{X: 690, Y: 450, W: 90, H: 80}}}},
	}
	for i := range pieces {
		finish(&pieces[i])
	}
	rows := tiltedRows(pieces)
	if len(rows) != 1 || !reflect.DeepEqual(rows[0].lines, []int{0, 1}) || len(rows[0].words) != 5 {
		t.Fatalf("rows %+v, want the two pieces as one row", rows)
	}
	if deg := -math.Atan(rows[0].slope) * 180 / math.Pi; math.Abs(deg-3) > 0.1 {
		t.Errorf("slant %.2f°, want 3°", deg)
	}
	if h := rows[0].h; h < 38 || h > 42 {
		t.Errorf("text height %.1f across the slant, want 40", h)
	}
}

// TestStripMapsBothWays: a strip's pixel maps to an image point that the
// strip holds, and unturn maps a word's strip box back around it.
func TestStripMapsBothWays(t *testing.T) {
	th := -4 * math.Pi / 180
	s := strip{ox: 100, oy: 300, dx: math.Cos(th), dy: math.Sin(th), w: 600, h: 64, top: 10}
	x, y := s.at(300, 32)
	if !s.holds(x, y, 40) || s.holds(x, y+40, 40) {
		t.Errorf("the strip's middle (%.1f, %.1f) is not held, or a point 40 px below it is", x, y)
	}
	w := unturn(s, Word{Text: "word", Box: Box{X: 280, Y: 10 + 12, W: 40, H: 40}})
	if x < w.Box.X || x > w.Box.X+w.Box.W || y < w.Box.Y || y > w.Box.Y+w.Box.H {
		t.Errorf("word box %+v does not hold its middle (%.1f, %.1f)", w.Box, x, y)
	}
}
