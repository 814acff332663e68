package capture

import (
	"bytes"
	"errors"
	"fmt"
	"math"

	"github.com/sieve-dev/sieve/internal/pdf"
)

// pdfType is the media type of a PDF body.
const pdfType = "application/pdf"

// isPDF reports a PDF body: served as one, or starting with the %PDF-
// magic whatever the server said.
func isPDF(mt string, body []byte) bool {
	return mt == pdfType || bytes.HasPrefix(body, []byte("%PDF-"))
}

// fillPDF reads a PDF body into rec.PDF instead of a body. A document that
// cannot be read, or one cut at the size cap, is error kind "pdf".
func fillPDF(rec *Record, body []byte, truncated bool) {
	rec.ContentType = pdfType
	rec.BodyOmitted = "PDF: its pages and text are in pdf"
	if len(body) == 0 {
		rec.BodyOmitted = ""
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF: the body is empty"}
		return
	}
	doc, err := pdf.Parse(body)
	switch {
	case errors.Is(err, pdf.ErrEncrypted):
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF is " + err.Error()}
		return
	case err != nil && truncated:
		rec.Error = &Error{Kind: ErrPDF, Message: fmt.Sprintf("PDF cut at the size cap (%d bytes) is unreadable: %v", len(body), err)}
		return
	case err != nil:
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF is broken: " + err.Error()}
		return
	}
	rec.PDF = pdfRecord(doc)
	if truncated {
		rec.Error = &Error{Kind: ErrPDF, Message: fmt.Sprintf("PDF cut at the size cap (%d bytes): pages may be missing", len(body))}
	}
}

func pdfRecord(doc *pdf.Document) *PDF {
	out := &PDF{PageCount: len(doc.Pages), Pages: make([]PDFPage, len(doc.Pages))}
	for i, p := range doc.Pages {
		out.Pages[i] = PDFPage{
			PDFPageInfo: PDFPageInfo{Index: p.Index, Width: p.Width, Height: p.Height, Rotation: p.Rotation, Error: p.Err},
			Lines:       pdfLines(p.Lines()),
		}
	}
	return out
}

func pdfLines(lines []pdf.Line) []PDFLine {
	out := make([]PDFLine, len(lines))
	for i, l := range lines {
		spans := make([]PDFSpan, len(l.Words))
		for j, w := range l.Words {
			spans[j] = PDFSpan{Text: w.Text, Size: w.FontSize, Box: pdfBox(w.Box)}
		}
		out[i] = PDFLine{Box: pdfBox(l.Box), Spans: spans}
	}
	return out
}

func pdfBox(b pdf.Box) PDFBox {
	return PDFBox{X: b.X0, Y: b.Y0, W: hundredths(b.X1 - b.X0), H: hundredths(b.Y1 - b.Y0)}
}

// hundredths rounds a difference of quantised values back onto the quantum.
func hundredths(v float64) float64 { return math.Round(v*100) / 100 }
