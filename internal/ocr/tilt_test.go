package ocr

import (
	"context"
	"image"
	"image/color"
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

// TestFindTiltedOnCanvases: every line of tilted.png is found with the
// slant it was drawn at, top to bottom; the level lines of lines.png are
// not taken for tilted ones (so that canvas is read exactly as before).
func TestFindTiltedOnCanvases(t *testing.T) {
	g := canvasGray(t, "tilted")
	_, _, _, lines := findTilted(g)
	if len(lines) != len(tiltedLines) {
		t.Fatalf("%d tilted lines found, want %d", len(lines), len(tiltedLines))
	}
	for i, l := range lines {
		// drawn counter-clockwise positive: the baseline rises, dy/dx < 0
		deg := -math.Atan(l.slope) * 180 / math.Pi
		if want := tiltedLines[i].deg; math.Abs(deg-float64(want)) > 0.25 {
			t.Errorf("line %d (%q): slant %.2f°, want %d°", i, tiltedLines[i].text, deg, want)
		}
	}
	if _, _, _, level := findTilted(canvasGray(t, "lines")); len(level) != 0 {
		t.Errorf("lines.png: %d tilted lines found, want none", len(level))
	}
}

func canvasGray(t *testing.T, name string) *image.Gray {
	png, err := os.ReadFile("testdata/" + name + ".png")
	if err != nil {
		t.Fatal(err)
	}
	g, err := VisibleGray(png)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// drawGlyphs draws n dark boxes w × h, pitch apart, their bottoms on a
// line from (x, y) at slope dy/dx, every third one reaching h/3 lower (a
// descender) and every fourth with a dot above it (an i).
func drawGlyphs(g *image.Gray, x, y float64, n, w, h, pitch int, slope float64) {
	for i := range n {
		gx := x + float64(i*pitch)
		by := int(math.Round(y + slope*(gx+float64(w)/2-x)))
		bottom := by
		if i%3 == 2 {
			bottom += h / 3
		}
		box(g, int(gx), by-h, int(gx)+w, bottom)
		if i%4 == 1 {
			box(g, int(gx)+w/3, by-h-h/2, int(gx)+w/3+w/3, by-h-h/3)
		}
	}
}

func box(g *image.Gray, x0, y0, x1, y1 int) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			g.SetGray(x, y, color.Gray{Y: 30})
		}
	}
}

// TestFindTiltedSkipsLevelSteepAndShapes: of a level row, a row turned
// 3°, one turned 30° (set so on purpose), a short level word with a
// pixel's overshoot, a rule and a filled bar, only the 3° row is a
// tilted line; its dots and descenders come with it.
func TestFindTiltedSkipsLevelSteepAndShapes(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 1000, 700))
	fill(g.Pix, 255)
	rise := -math.Tan(3 * math.Pi / 180)
	drawGlyphs(g, 40, 100, 20, 14, 24, 22, 0)
	drawGlyphs(g, 40, 260, 20, 14, 24, 22, rise)
	drawGlyphs(g, 600, 650, 12, 14, 24, 22, -math.Tan(30*math.Pi/180))
	// a short level word whose last two letters overshoot the baseline
	// by a pixel (round letters): 0.78° by least squares, not a slant
	drawGlyphs(g, 600, 180, 3, 14, 24, 22, 0)
	drawGlyphs(g, 666, 181, 2, 14, 24, 22, 0)
	box(g, 40, 320, 900, 322) // a rule
	box(g, 40, 400, 500, 460) // a bar
	_, _, comps, lines := findTilted(g)
	if len(lines) != 1 {
		t.Fatalf("%d tilted lines, want 1 (the 3° row)", len(lines))
	}
	if deg := math.Atan(lines[0].slope) * 180 / math.Pi; math.Abs(deg+3) > 0.2 {
		t.Errorf("slant %.2f°, want -3° (dy/dx, y down)", deg)
	}
	members := attach(comps, lines[0], 0)
	if len(lines[0].glyphs) != 20 || len(members) != 25 {
		t.Errorf("%d glyphs and %d components in the line, want 20 and 25 (5 dots)", len(lines[0].glyphs), len(members))
	}
}

// TestStripMapsBothWays: a strip's pixel maps to an image point that the
// strip holds, and unturn maps a word's band box back around it.
func TestStripMapsBothWays(t *testing.T) {
	th := -4 * math.Pi / 180
	s := strip{ox: 100, oy: 300, dx: math.Cos(th), dy: math.Sin(th), w: 600, h: 64, left: 30, top: 900}
	x, y := s.at(300, 32)
	if !s.holds(x, y) || s.holds(x, y+40) {
		t.Errorf("the strip's middle (%.1f, %.1f) is not held, or a point 40 px below it is", x, y)
	}
	w := unturn(s, Word{Text: "word", Box: Box{X: 30 + 280, Y: 900 + 12, W: 40, H: 40}})
	if x < w.Box.X || x > w.Box.X+w.Box.W || y < w.Box.Y || y > w.Box.Y+w.Box.H {
		t.Errorf("word box %+v does not hold its middle (%.1f, %.1f)", w.Box, x, y)
	}
}

// TestLayOutInPlaceOrInTheBand: a row turned 3° is laid straight where it
// was, its tilted ink gone, the image no larger; with other ink where the
// straight row would go (a rule over its left end) it is laid in a band
// below instead, the rule left alone. Either way a word read in the strip
// maps back onto the tilted row, and what is read where the row was is
// dropped.
func TestLayOutInPlaceOrInTheBand(t *testing.T) {
	for _, blocked := range []bool{false, true} {
		g := image.NewGray(image.Rect(0, 0, 600, 400))
		fill(g.Pix, 255)
		drawGlyphs(g, 40, 260, 20, 14, 24, 22, -math.Tan(3*math.Pi/180))
		if blocked {
			box(g, 60, 190, 64, 231)
		}
		lay := layOut(g, true)
		if len(lay.strips) != 1 {
			t.Fatalf("blocked %v: %d strips, want 1", blocked, len(lay.strips))
		}
		s := lay.strips[0]
		inBand := s.top >= lay.band
		if inBand != blocked || (lay.img.Bounds().Dy() > 400) != blocked {
			t.Errorf("blocked %v: strip at (%d, %d), image %v, band from row %d", blocked, s.left, s.top, lay.img.Bounds(), lay.band)
		}
		rule := image.Rect(60, 190, 64, 231)
		if !blocked {
			rule = image.Rectangle{}
		}
		straight := image.Rect(s.left, s.top, s.left+s.w, s.top+s.h)
		for y := range lay.img.Bounds().Dy() {
			for x := range lay.img.Bounds().Dx() {
				p := image.Pt(x, y)
				if v := lay.img.GrayAt(x, y).Y; !p.In(straight) && (v == 255) == p.In(rule) {
					t.Fatalf("blocked %v: level %d at %v, outside the straight row (%v): the tilted row left, or the rule taken", blocked, v, p, straight)
				}
			}
		}
		if !lay.ink.In(lay.img.Bounds()) || !image.Rect(s.left, s.top, s.left+s.w, s.top+s.h).In(lay.ink) {
			t.Errorf("blocked %v: ink box %v does not hold the strip", blocked, lay.ink)
		}
		mid := Word{Text: "mid", Conf: 90, Box: Box{X: float64(s.left + s.w/2 - 10), Y: float64(s.top + s.h/2 - 10), W: 20, H: 20}}
		sx, sy := tiltedOnly(s)
		speck := Word{Text: "speck", Conf: 90, Box: Box{X: sx - 2, Y: sy - 2, W: 4, H: 4}}
		res := &Result{Lines: []Line{{Words: []Word{mid}}, {Words: []Word{speck}}}}
		lay.place(res)
		if len(res.Lines) != 1 || res.Lines[0].Text != "mid" {
			t.Fatalf("blocked %v: placed %+v, want the strip's word alone", blocked, res.Lines)
		}
		x, y := s.at(float64(s.w)/2, float64(s.h)/2)
		if b := res.Lines[0].Box; x < b.X || x > b.X+b.W || y < b.Y || y > b.Y+b.H {
			t.Errorf("blocked %v: word mapped to %+v, want it about the row's middle (%.0f, %.0f)", blocked, b, x, y)
		}
	}
}

// tiltedOnly is a point of a strip's tilted place that its straight copy
// does not cover.
func tiltedOnly(s strip) (float64, float64) {
	for u := 2.0; u < float64(s.w); u++ {
		for _, v := range []float64{2, float64(s.h) - 2} {
			x, y := s.at(u, v)
			if x < float64(s.left) || x >= float64(s.left+s.w) || y < float64(s.top) || y >= float64(s.top+s.h) {
				return x, y
			}
		}
	}
	panic("the strip covers its tilted place")
}
