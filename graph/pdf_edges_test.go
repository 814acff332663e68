package graph

import (
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// TestPDFEdgeLinesAreContent: a PDF's short lines before its first and
// after its last paragraph (a form's labels, a page of button captions)
// and a printed URL are the document's content; the web's edge, teaser
// and share-link rules do not apply to a PDF.
func TestPDFEdgeLinesAreContent(t *testing.T) {
	info := &capture.PDFInfo{PageCount: 2, Pages: []capture.PDFPageInfo{
		{Index: 0, Width: 612, Height: 792}, {Index: 1, Width: 612, Height: 792},
	}}
	d := newPDFDoc(info)
	d.newPage(1, 612, 792)
	d.text(d.section, "p", "Print", 500, 40, 40, 12)
	d.text(d.section, "p", "You can open a PDF or create a blank PDF with the tool, and the drawings below were all made with it in a few steps each.", 72, 100, 460, 40)
	d.text(d.section, "p", "https://example.org/handbook/", 72, 160, 200, 12)
	d.newPage(2, 612, 792)
	d.text(d.section, "p", "Line Width and Color", 72, 60, 150, 12)
	d.text(d.section, "p", "Arrow Style and Size", 72, 300, 150, 12)
	g := Build(d.rec)
	for _, text := range []string{"Print", "https://example.org/handbook/", "Line Width and Color", "Arrow Style and Size"} {
		if b := blockWith(t, g, text); b.Role != "content" {
			t.Errorf("%q: role %s (%s), want content", text, b.Role, b.Reason)
		}
	}
}
