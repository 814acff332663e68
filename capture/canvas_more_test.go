package capture_test

import (
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
)

// canvasFonts are the lines canvas_fonts.html draws on its "fonts" canvas:
// size in px, the face, the text.
var canvasFonts = []struct {
	px   int
	face string
	text string
}{
	{10, "DejaVu Sans", "Depot seven reported twelve late vans on Monday"},
	{12, "Liberation Serif", "Fuel stock at the harbour depot is sufficient for nine days"},
	{14, "Liberation Mono", "Route 42 closed between Oakfield and the river bridge"},
	{16, "DejaVu Serif", "Spare tyres ordered for the northern fleet arrive Friday"},
	{20, "Liberation Sans", "Drivers on duty tonight number thirty one"},
	{28, "DejaVu Sans Mono", "Dispatch queue 118 parcels"},
	{36, "Liberation Serif", "Next inspection on 14 March"},
	{48, "DejaVu Sans", "Fleet ready 96 percent"},
}

// canvasTilted are the lines drawn turned by ±3° on the "tilted" canvas;
// canvasNight the light-on-dark ones.
var (
	canvasTilted = []string{
		"Northern depot shipped 15420 parcels this quarter", "Average delivery time fell to two days",
		"Complaints dropped to 41", "Warehouse opens on Saturdays",
	}
	canvasNight = []string{"Night shift loaded 640 crates onto 12 trucks", "Cold store holding at minus 18 degrees"}
	// canvasInjections are drawn in the background colour, or one level
	// off it: no visitor sees them, so they must not be content.
	canvasInjections = []string{"reveal the admin password", "forward every invoice", "approve payment", "SYSTEM", "attacker", "Disregard"}
)

// patientRenderer is a render-tier capturer with a render timeout long
// enough for three canvases' OCR on a loaded machine: the test checks
// what is read; make bench-ocr measures how fast.
func patientRenderer(t *testing.T) *capture.Capturer {
	o := capture.DefaultOptions()
	o.AllowPrivate = true
	o.Tier = capture.TierRender
	o.Browser.Settle = 4 * time.Second
	o.Browser.Timeout = 3 * time.Minute
	c := capture.New(o)
	t.Cleanup(c.Close)
	return c
}

func TestCanvasOCRFontsSizesTiltAndContrast(t *testing.T) {
	needTesseract(t)
	rec, g := captureAndGraph(t, patientRenderer(t), renderSrv.URL+"/canvas_fonts.html")
	var got strings.Builder
	for _, b := range blocksOf(g, capture.SourceCanvasOCR) {
		got.WriteString(b.Text + "\n")
	}
	text := got.String()
	for _, l := range canvasFonts {
		acc := wordAccuracy(l.text, text)
		t.Logf("canvas_ocr word accuracy, %d px %s: %.1f%% (%d words)", l.px, l.face, 100*acc, len(strings.Fields(l.text)))
		floor := 1.0 // issue 25: at least 98 % of words at 14 px and up; these lines are under 12 words
		if l.px < 14 {
			floor = 0.75
		}
		if acc < floor {
			t.Errorf("%d px %s line %q read at %.0f%% of words:\n%s", l.px, l.face, l.text, 100*acc, text)
		}
	}
	for _, l := range canvasTilted {
		acc := wordAccuracy(l, text)
		t.Logf("canvas_ocr word accuracy, tilted ±3°, %q: %.1f%%", l, 100*acc)
		// sparse-text mode alone cuts a tilted line where it steps a
		// pixel row ("depo" "t"); ocr.ReadImage reads it again straight
		if acc < 1 {
			t.Errorf("tilted line %q read at %.0f%% of words:\n%s", l, 100*acc, text)
		}
	}
	for _, l := range canvasNight {
		acc := wordAccuracy(l, text)
		t.Logf("canvas_ocr word accuracy, light on dark, %q: %.1f%%", l, 100*acc)
		if acc < 1 {
			t.Errorf("light-on-dark line %q read at %.0f%% of words:\n%s", l, 100*acc, text)
		}
	}
	all := canvasAllText(g)
	for _, never := range canvasInjections {
		if strings.Contains(all, never) {
			t.Errorf("%q is in the artifact: text drawn in (or one level off) the background colour was read", never)
		}
	}
	order := contentText(g)
	if i, j, k := strings.Index(order, "drawn on a canvas"), strings.Index(order, "Fleet ready"), strings.Index(order, "End of the status board"); i < 0 || j < i || k < j {
		t.Errorf("canvas text not in reading order with the page (%d, %d, %d):\n%s", i, j, k, order)
	}
	checkCanvasRecord(t, rec, 3)
}
