package capture

import "time"

// SetPDFOCRTime sets the scanned-page OCR budgets (per page, per document)
// and returns a function that restores them: a test on a loaded machine
// must not read a slow Tesseract as a gap.
func SetPDFOCRTime(page, doc time.Duration) func() {
	p, d := pdfOCRPageTime, pdfOCRDocTime
	pdfOCRPageTime, pdfOCRDocTime = page, doc
	return func() { pdfOCRPageTime, pdfOCRDocTime = p, d }
}

// ScanPixels is page i of a PDF as capture hands it to Tesseract (a BMP)
// and the dpi it was rendered at: the benchmarks run Tesseract alone on
// the same pixels.
func ScanPixels(body []byte, i int, w, h float64) ([]byte, int, error) {
	im, err := scanPixels(body, i, w, h, true)
	return im.bmp, im.dpi, err
}
