package normalize

import capture "github.com/sieve-dev/sieve/capture/caprec"

// SourcePDFOCR marks nodes whose text a machine read off a PDF page's
// pixels: a scanned page sieve read by OCR (capture's pages[].ocr), or an
// OCR layer another tool laid invisibly over a scan. Like canvas_ocr it
// was not read from the document's text, and is to be weighed accordingly
// (ARTIFACT.md, source).
const SourcePDFOCR = "pdf_ocr"

// IsPDFSource reports a node read from a PDF, by its text layer or by OCR.
func IsPDFSource(s string) bool { return s == SourcePDF || s == SourcePDFOCR }

// readByOCR reports a page whose lines are sieve's OCR of its pixels.
func readByOCR(p *capture.PDFPage) bool { return p.OCR != nil && p.OCR.Gap == "" }

// lineByOCR reports line i of a page as sieve's OCR: the page was read by
// OCR and the line is not one of the text layer's it kept (pages[].ocr.kept).
func lineByOCR(p *capture.PDFPage, i int) bool { return readByOCR(p) && i >= p.OCR.Kept }
