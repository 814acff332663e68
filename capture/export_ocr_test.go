package capture

import (
	"time"

	"github.com/sieve-dev/sieve/internal/ocr"
)

// SetPDFOCRTime sets the scanned-page OCR budgets (per page, per document)
// and returns a function that restores them: a test on a loaded machine
// must not read a slow Tesseract as a gap.
func SetPDFOCRTime(page, doc time.Duration) func() {
	p, d := pdfOCRPageTime, pdfOCRDocTime
	pdfOCRPageTime, pdfOCRDocTime = page, doc
	return func() { pdfOCRPageTime, pdfOCRDocTime = p, d }
}

// ScanPixels is page i of a PDF as capture prepares it for Tesseract (a BMP
// of the whole page; capture then hands Tesseract the box around its ink)
// and the dpi it was rendered at: the benchmarks run Tesseract alone on
// the same pixels.
func ScanPixels(body []byte, i int, w, h float64) ([]byte, int, error) {
	im, err := scanPixels(body, i, w, h, true)
	if err != nil {
		return nil, 0, err
	}
	return ocr.BMP(im.gray), im.dpi, nil
}
