package capture

import (
	"testing"

	"github.com/sieve-dev/sieve/internal/ocr"
)

func TestScanOCRPixelBudget(t *testing.T) {
	for _, c := range []struct {
		w, h, scan float64
		want       int
	}{
		{595.28, 841.89, 0, 300},     // A4, not a scan: 8.7 MP at 300 dpi
		{612, 792, 0, 300},           // Letter
		{595.28, 841.89, 200, 200},   // a 200 dpi scan is read at its own pixels
		{595.28, 841.89, 149.6, 150}, // rounded
		{595.28, 841.89, 72, 150},    // a coarse scan is rendered up to minScanDPI
		{595.28, 841.89, 600, 300},   // a fine one down to PDFOCRDPI
		{1190.55, 1683.78, 0, 152},   // A3: 300 dpi would be 35 MP
		{1190.55, 1683.78, 150, 150}, // an A3 scan at 150 dpi is 8.7 MP
		{2383.94, 3370.39, 0, 0},     // A0 would be under 100 dpi
	} {
		dpi := ocrDPI(c.w, c.h, c.scan)
		if dpi != c.want {
			t.Errorf("%gx%g pt, scan %g dpi: %d dpi, want %d", c.w, c.h, c.scan, dpi, c.want)
		}
		if px := c.w * c.h * float64(dpi*dpi) / (72 * 72); px > MaxPDFOCRPixels {
			t.Errorf("%gx%g pt at %d dpi is %.0f pixels, over the budget", c.w, c.h, dpi, px)
		}
	}
}

func TestScanOCRLinesShareABand(t *testing.T) {
	// a line skewed across the page: its words' middles drift by 6 pt
	l := ocr.Line{Words: []ocr.Word{
		{Text: "Skewed", Box: ocr.Box{X: 72, Y: 100, W: 40, H: 8}},
		{Text: "line", Box: ocr.Box{X: 120, Y: 103, W: 20, H: 8}},
		{Text: "drifts", Box: ocr.Box{X: 150, Y: 106, W: 30, H: 9}},
	}, Box: ocr.Box{X: 72, Y: 100, W: 108, H: 15}}
	got := scanLines([]ocr.Line{l})
	if len(got) != 1 || len(got[0].Spans) != 3 {
		t.Fatalf("lines %+v", got)
	}
	for _, s := range got[0].Spans {
		if s.Box.Y != 103 || s.Box.H != 8 || s.Size != 11 {
			t.Errorf("span %q box %+v size %g: want the line's median band (y 103, h 8) and size 8/0.72 rounded to 11", s.Text, s.Box, s.Size)
		}
	}
	if got[0].Spans[1].Box.X != 120 || got[0].Spans[1].Box.W != 20 {
		t.Errorf("span box %+v: x and width are the word's own", got[0].Spans[1].Box)
	}
}
