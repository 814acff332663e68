package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sieve-dev/sieve/normalize"
)

// GapScannedPage is the gap kind of a PDF page without a text layer that
// was not read by OCR (Tesseract missing, a budget spent).
const GapScannedPage = "scanned_page"

// GapOCRLanguage is the gap kind of a PDF page read by OCR without a
// language its document names (no trained data installed for it).
const GapOCRLanguage = "ocr_language"

// pdfOCR says what OCR did with a PDF's pages that have no text layer: the
// pages it read are evidence on the outcome (their blocks have source
// pdf_ocr), each page it could not read is a gap.
func pdfOCR(g *Record, rec *normalize.Record) {
	d := rec.Capture.PDF
	if d == nil {
		return
	}
	var read []string
	engine, dpi := "", 0
	for _, p := range d.Pages {
		switch {
		case p.OCR == nil:
		case p.OCR.Gap != "":
			g.Gaps = append(g.Gaps, Gap{Label: fmt.Sprintf("page %d (no text layer)", p.Index+1), Kind: GapScannedPage, Reason: p.OCR.Gap})
		default:
			if p.OCR.LangGap != "" {
				g.Gaps = append(g.Gaps, Gap{Label: fmt.Sprintf("page %d (OCR language)", p.Index+1), Kind: GapOCRLanguage, Reason: p.OCR.LangGap})
			}
			read = append(read, strconv.Itoa(p.Index+1))
			engine, dpi = p.OCR.Engine, max(dpi, p.OCR.DPI)
		}
	}
	if len(read) == 0 {
		return
	}
	g.Outcome.Evidence = append(g.Outcome.Evidence, fmt.Sprintf(
		"%d of the PDF's %d pages have no text layer (or only text without Unicode) and were read by OCR (%s, up to %d dpi): page %s; their blocks have source %s",
		len(read), len(d.Pages), engine, dpi, strings.Join(read, ", "), normalize.SourcePDFOCR))
}
