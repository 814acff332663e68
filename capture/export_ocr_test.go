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
