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

// fillPDF reads a PDF body into rec.PDF instead of a body, opening an
// encrypted one with password ("" for none). A document that cannot be
// read, or one cut at the size cap, is error kind "pdf".
func fillPDF(rec *Record, body []byte, truncated bool, password string) {
	rec.ContentType = pdfType
	rec.BodyOmitted = "PDF: its pages and text are in pdf"
	if len(body) == 0 {
		rec.BodyOmitted = ""
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF: the body is empty"}
		return
	}
	doc, err := pdf.ParsePassword(body, password)
	switch {
	case errors.Is(err, pdf.ErrEncrypted):
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF is " + err.Error() + ": give it with --password or --password-file"}
		return
	case errors.Is(err, pdf.ErrWrongPassword):
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF is " + err.Error()}
		return
	case errors.Is(err, pdf.ErrTooSlow):
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF " + err.Error()}
		return
	case err != nil && truncated:
		rec.Error = &Error{Kind: ErrPDF, Message: fmt.Sprintf("PDF cut at the size cap (%d bytes) is unreadable: %v", len(body), err)}
		return
	case err != nil:
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF is broken: " + err.Error()}
		return
	}
	rec.PDF = pdfRecord(doc)
	rec.PDF.JavaScript, rec.PDF.Scripts = pdfScripts(pdf.FindScripts(body), doc.JavaScript)
	if truncated {
		rec.Error = &Error{Kind: ErrPDF, Message: fmt.Sprintf("PDF cut at the size cap (%d bytes): pages may be missing", len(body))}
	}
}

// keepPDF stores a PDF body, read or not, in the blob store when there is
// one (--blobs). Its key is the sha256 of the bytes, which is the record's
// source_fingerprint, so a reader finds the file at
// blob.Store.Path(source_fingerprint): DIR/<hex[:2]>/<hex>. A store that
// cannot be written is an error kind pdf, unless the record has an error
// already.
func (c *Capturer) keepPDF(rec *Record, body []byte) {
	if c.blobs == nil || len(body) == 0 {
		return
	}
	if _, err := c.blobs.Put(body); err != nil && rec.Error == nil {
		rec.Error = &Error{Kind: ErrPDF, Message: "PDF read, but its bytes could not be kept: " + err.Error()}
	}
}

func pdfRecord(doc *pdf.Document) *PDF {
	out := &PDF{PageCount: len(doc.Pages), Pages: make([]PDFPage, len(doc.Pages))}
	out.PDFDoc = pdfDoc(doc)
	for i, p := range doc.Pages {
		out.Pages[i] = PDFPage{
			PDFPageInfo: PDFPageInfo{
				Index: p.Index, Width: p.Width, Height: p.Height, Rotation: p.Rotation, Error: p.Err,
				Links: pdfLinks(p.Links), Annotations: pdfAnnots(p.Annots), Unmapped: p.Unmapped,
			},
			Lines:        pdfLines(p.Lines()),
			Tags:         pdfTags(p.Tags),
			Rects:        pdfRects(p.Rects),
			Images:       pdfBoxes(p.Images),
			TextDir:      p.TextDir(),
			TextMirrored: p.TextMirrored(),
		}
	}
	return out
}

// pdfBoxes converts engine boxes; nil for none.
func pdfBoxes(boxes []pdf.Box) []PDFBox {
	if len(boxes) == 0 {
		return nil
	}
	out := make([]PDFBox, len(boxes))
	for i, b := range boxes {
		out[i] = pdfBox(b)
	}
	return out
}

func pdfDoc(doc *pdf.Document) PDFDoc {
	out := PDFDoc{Tagged: doc.Tagged, Metadata: doc.Metadata, JavaScript: doc.JavaScript, Form: doc.Form}
	for _, b := range doc.Bookmarks {
		out.Bookmarks = append(out.Bookmarks, PDFBookmark{Title: b.Title, Level: b.Level, Page: pageRef(b.Page)})
	}
	for _, a := range doc.Attachments {
		out.Attachments = append(out.Attachments, PDFAttachment{Name: a})
	}
	return out
}

// maxPDFScripts caps the scripts a PDF record lists (javascript counts
// them all).
const maxPDFScripts = 100

// pdfScripts merges the scan of the file's objects with PDFium's count of
// the /JavaScript name tree: when PDFium counts more there than the scan
// found (objects the scan could not read, as in an encrypted object
// stream), the difference is added as name-tree scripts. It returns the
// count and the capped list.
func pdfScripts(found []pdf.Script, pdfiumNames int) (int, []PDFScript) {
	names := 0
	for _, s := range found {
		if s.Where == pdf.ScriptNames {
			names++
		}
	}
	for ; names < pdfiumNames; names++ {
		found = append(found, pdf.Script{Where: pdf.ScriptNames, Page: -1})
	}
	var out []PDFScript
	for _, s := range found[:min(len(found), maxPDFScripts)] {
		out = append(out, PDFScript{Where: s.Where, Page: pageRef(s.Page), Event: s.Event, Subtype: s.Subtype})
	}
	return len(found), out
}

// pageRef is a 0-based page index, nil for none (-1).
func pageRef(i int) *int {
	if i < 0 {
		return nil
	}
	return &i
}

func pdfLinks(links []pdf.Link) []PDFLink {
	var out []PDFLink
	for _, l := range links {
		out = append(out, PDFLink{Box: pdfBox(l.Box), Action: l.Action, URI: l.URI, Page: pageRef(l.Page)})
	}
	return out
}

func pdfAnnots(annots []pdf.Annotation) []PDFAnnotation {
	var out []PDFAnnotation
	for _, a := range annots {
		out = append(out, PDFAnnotation{Subtype: a.Subtype, Box: pdfBox(a.Box), Contents: a.Contents})
	}
	return out
}

func pdfRects(rects []pdf.Rect) []PDFRect {
	if len(rects) == 0 {
		return nil
	}
	out := make([]PDFRect, len(rects))
	for i, r := range rects {
		out[i] = PDFRect{Box: pdfBox(r.Box)}
		if r.Fill >= 0 {
			out[i].Fill = hexColor(uint32(r.Fill))
		}
		if r.Stroke >= 0 {
			out[i].Stroke = hexColor(uint32(r.Stroke))
		}
	}
	return out
}

func pdfTags(tags []pdf.Tag) []PDFTag {
	if len(tags) == 0 {
		return nil
	}
	out := make([]PDFTag, len(tags))
	for i, t := range tags {
		out[i] = PDFTag{Type: t.Type, MCIDs: t.MCIDs, Attrs: t.Attrs, Alt: t.Alt, ActualText: t.ActualText, Lang: t.Lang, Kids: pdfTags(t.Kids)}
	}
	return out
}

func pdfLines(lines []pdf.Line) []PDFLine {
	out := make([]PDFLine, len(lines))
	for i, l := range lines {
		spans := make([]PDFSpan, len(l.Words))
		for j, w := range l.Words {
			spans[j] = pdfSpan(w)
		}
		out[i] = PDFLine{Box: pdfBox(l.Box), Spans: spans}
	}
	return out
}

// pdfSpan is a word with its style; black, opaque, fill-mode text and no
// marked content leave their fields out.
func pdfSpan(w pdf.Word) PDFSpan {
	st := w.Style
	s := PDFSpan{Text: w.Text, Size: w.FontSize, Box: pdfBox(w.Box), Font: st.Font, Weight: st.Weight, Italic: st.Italic, Render: st.Render, Space: w.Spaced}
	if st.Color != 0 {
		s.Color = hexColor(st.Color)
	}
	if st.Alpha < 255 {
		a := int(st.Alpha)
		s.Alpha = &a
	}
	if st.MCID >= 0 {
		id := st.MCID
		s.MCID = &id
	}
	return s
}

// hexColor is 0xrrggbb as #rrggbb.
func hexColor(c uint32) string { return fmt.Sprintf("#%06x", c&0xffffff) }

func pdfBox(b pdf.Box) PDFBox {
	return PDFBox{X: b.X0, Y: b.Y0, W: hundredths(b.X1 - b.X0), H: hundredths(b.Y1 - b.Y0)}
}

// hundredths rounds a difference of quantised values back onto the quantum.
func hundredths(v float64) float64 { return math.Round(v*100) / 100 }
