package capture_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// TestScanOCRGreyRenderIsRGBALuma: a scan rendered in grey (what OCR
// reads, pdf.RenderScan) is, pixel for pixel, the luminance of the same
// page rendered in RGBA (pdf.Render then ocr.GrayOf), at a scan's own dpi
// and at twice it.
func TestScanOCRGreyRenderIsRGBALuma(t *testing.T) {
	data, err := os.ReadFile(scannedReport(t, 150))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := pdf.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[1]
	r := pdf.Region{Page: 1, Box: pdf.Box{X1: p.Width, Y1: p.Height}}
	for _, dpi := range []int{150, 300} {
		imgs, errs, err := pdf.Render(data, []pdf.Region{r}, dpi)
		if err != nil || errs[0] != nil {
			t.Fatal(err, errs)
		}
		want := ocr.GrayOf(imgs[0])
		got, at, err := pdf.RenderScan(data, r, func(float64) int { return dpi })
		if err != nil || at != dpi {
			t.Fatal(err, at)
		}
		if got.Bounds() != want.Bounds() || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%d dpi: the grey render (%v) differs from the RGBA render's luminance (%v)", dpi, got.Bounds(), want.Bounds())
		}
	}
}
