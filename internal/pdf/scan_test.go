package pdf_test

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/sieve-dev/sieve/internal/pdf"
)

// scanPDF is a 200.25 × 100.25 pt document whose pages are each one grey
// PNG of pattern (400 × 200 px: 143.8 dpi) filling the page; on page 2 a
// black rule is drawn over it too. PDFium draws the page at 144 dpi
// 400.5 px wide: it resamples the image.
func scanPDF(t *testing.T, pattern *image.Gray) []byte {
	t.Helper()
	var img bytes.Buffer
	if err := png.Encode(&img, pattern); err != nil {
		t.Fatal(err)
	}
	f := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: 200.25, Ht: 100.25}})
	f.SetAutoPageBreak(false, 0)
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	f.RegisterImageOptionsReader("scan", opt, &img)
	for page := range 2 {
		f.AddPage()
		f.ImageOptions("scan", 0, 0, 200.25, 100.25, false, opt, 0, "")
		if page == 1 {
			f.SetFillColor(0, 0, 0)
			f.Rect(0, 40, 200.25, 20, "F")
		}
	}
	var out bytes.Buffer
	if err := f.Output(&out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestRenderScanTakesTheScansPixels: a page that is one image drawn pixel
// for pixel at the scan's dpi gives the image's own pixels (not PDFium's
// resampling of them); a page with anything else on it, or a dpi other
// than the scan's, is rendered.
func TestRenderScanTakesTheScansPixels(t *testing.T) {
	pattern := image.NewGray(image.Rect(0, 0, 400, 200))
	for y := range 200 {
		for x := range 400 {
			pattern.Pix[y*400+x] = uint8((x*7 + y*13 + x*y) % 256)
		}
	}
	data := scanPDF(t, pattern)
	whole := pdf.Box{X1: 200.25, Y1: 100.25}
	at := func(page int, want int) (*image.Gray, float64) {
		var scanDPI float64
		img, dpi, err := pdf.RenderScan(data, pdf.Region{Page: page, Box: whole}, func(s float64) int {
			scanDPI = s
			if want > 0 {
				return want
			}
			return int(math.Round(s))
		})
		if err != nil || dpi <= 0 {
			t.Fatalf("page %d: %v (dpi %d)", page+1, err, dpi)
		}
		return img, scanDPI
	}
	img, scanDPI := at(0, 0)
	if math.Round(scanDPI) != 144 || !bytes.Equal(img.Pix, pattern.Pix) || img.Rect != pattern.Rect {
		t.Errorf("page 1 (scan dpi %g): %v, not the image's own %v pixels", scanDPI, img.Rect, pattern.Rect)
	}
	drawn, _, err := pdf.Render(data, []pdf.Region{{Page: 0, Box: whole}}, 144)
	if err != nil {
		t.Fatal(err)
	}
	if same := drawn[0].Rect == pattern.Rect && greyOf(drawn[0]) == string(pattern.Pix); same {
		t.Errorf("PDFium's render of page 1 is the image's pixels too: the test cannot tell the two apart")
	}
	img, _ = at(1, 0)
	if w := img.Rect.Dx(); w < 400 || w > 401 || img.GrayAt(100, 100).Y != 0 {
		t.Errorf("page 2 (a rule over the scan): %v, level %d under the rule, want it rendered black", img.Rect, img.GrayAt(100, 100).Y)
	}
	img, _ = at(0, 150)
	if w := img.Rect.Dx(); w < 416 || w > 418 {
		t.Errorf("page 1 at 150 dpi: %v, want it rendered some 417 px wide", img.Rect)
	}
}

// greyOf is an opaque grey RGBA image's levels.
func greyOf(img *image.RGBA) string {
	out := make([]byte, 0, len(img.Pix)/4)
	for i := 0; i < len(img.Pix); i += 4 {
		out = append(out, img.Pix[i])
	}
	return string(out)
}
