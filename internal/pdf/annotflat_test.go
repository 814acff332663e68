package pdf

import (
	"fmt"
	"strings"
	"testing"
)

// annotatedPDF is a one-page document whose page says "Body text" and
// carries two free-text annotations with appearance streams: one shown
// ("Stamped words"), one flagged hidden (/F 2: "Secret note").
func annotatedPDF() []byte {
	ap := func(text string) string {
		s := "BT /F1 12 Tf 2 4 Td (" + text + ") Tj ET"
		return fmt.Sprintf("<< /Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /F1 5 0 R >> >> /Length %d >>\nstream\n%s\nendstream", len(s), s)
	}
	body := "BT /F1 12 Tf 72 700 Td (Body text) Tj ET"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [6 0 R 8 0 R] >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(body), body),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Annot /Subtype /FreeText /Rect [72 600 272 620] /Contents (Stamped words) /DA (/F1 12 Tf 0 g) /AP << /N 7 0 R >> >>",
		ap("Stamped words"),
		"<< /Type /Annot /Subtype /FreeText /F 2 /Rect [72 500 272 520] /Contents (Secret note) /DA (/F1 12 Tf 0 g) /AP << /N 9 0 R >> >>",
		ap("Secret note"),
	}
	var b strings.Builder
	b.WriteString("%PDF-1.7\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return []byte(b.String())
}

// TestAnnotationsReadAsDrawn: an annotation's appearance is read as the
// page's text after its own (what a viewer and pdftotext show); one
// flagged hidden is not drawn, so not read; the annotations' list keeps
// both.
func TestAnnotationsReadAsDrawn(t *testing.T) {
	d, err := Parse(annotatedPDF())
	if err != nil {
		t.Fatal(err)
	}
	p := d.Pages[0]
	var words []string
	for _, l := range p.Lines() {
		for _, w := range l.Words {
			words = append(words, w.Text)
		}
	}
	if got := strings.Join(words, " "); got != "Body text Stamped words" {
		t.Errorf("text %q, want the body, then the shown annotation's words", got)
	}
	if len(p.Annots) != 2 || p.Annots[0].Subtype != "freetext" || p.Annots[1].Contents != "Secret note" {
		t.Errorf("annotations %+v", p.Annots)
	}
}
