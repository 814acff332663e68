package capture_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"os"
	"testing"

	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// TestScanOCRGreyRenderIsRGBALuma: a scan read at its own dpi (what OCR
// reads, pdf.RenderScan) is the scan's own pixels, the page's JPEG decoded
// (within a level: two decoders' rounding), not PDFium's resampling of
// it; rendered at another dpi it is, pixel for pixel, the luminance of
// the same page rendered in RGBA (pdf.Render then ocr.GrayOf).
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
		got, at, err := pdf.RenderScan(data, r, func(float64) int { return dpi })
		if err != nil || at != dpi {
			t.Fatal(err, at)
		}
		if dpi == 150 {
			if d := maxDiff(got, pageJPEG(t, data, 1)); d > 1 {
				t.Errorf("%d dpi: %v differs from the page's JPEG by up to %d levels", dpi, got.Bounds(), d)
			}
			continue
		}
		imgs, errs, err := pdf.Render(data, []pdf.Region{r}, dpi)
		if err != nil || errs[0] != nil {
			t.Fatal(err, errs)
		}
		want := ocr.GrayOf(imgs[0])
		if got.Bounds() != want.Bounds() || !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%d dpi: the grey render (%v) differs from the RGBA render's luminance (%v)", dpi, got.Bounds(), want.Bounds())
		}
	}
}

// pageJPEG decodes the i-th JPEG embedded in a PDF (ocrtest.Scan's one
// image a page, in page order).
func pageJPEG(t *testing.T, data []byte, i int) *image.Gray {
	t.Helper()
	at := -1
	for range i + 1 {
		next := bytes.Index(data[at+1:], []byte("\xff\xd8\xff"))
		if next < 0 {
			t.Fatalf("no JPEG %d in the PDF", i)
		}
		at += 1 + next
	}
	img, err := jpeg.Decode(bytes.NewReader(data[at:]))
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray)
	if !ok {
		t.Fatalf("JPEG %d is a %T, not grey", i, img)
	}
	return g
}

// maxDiff is the largest difference in level between two images, 256
// when their sizes differ.
func maxDiff(a, b *image.Gray) int {
	if a.Bounds().Size() != b.Bounds().Size() {
		return 256
	}
	d := 0
	for y := range a.Bounds().Dy() {
		ra, rb := a.Pix[y*a.Stride:], b.Pix[y*b.Stride:]
		for x := range a.Bounds().Dx() {
			d = max(d, int(ra[x])-int(rb[x]), int(rb[x])-int(ra[x]))
		}
	}
	return d
}
