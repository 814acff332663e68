package pdftest

import (
	"bytes"
	"fmt"
	"strings"
)

// RawPDF writes a PDF by hand: objs[i] is the body of object i+1 (object
// 1 must be the catalog); a body that starts with "stream:" is a content
// stream of the rest. The cross-reference table's offsets are exact, so
// PDFium opens it without repairing it.
func RawPDF(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		if s, ok := strings.CutPrefix(o, "stream:"); ok {
			fmt.Fprintf(&b, "<< /Length %d >>\nstream\n%s\nendstream", len(s), s)
		} else {
			b.WriteString(o)
		}
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// ScriptText is the visible text of every ScriptPDF document.
const ScriptText = "A page with a script"

// ScriptPlaces are the places ScriptPDF can put JavaScript, each with the
// location sieve reports for it (internal/pdf.Script.Where).
var ScriptPlaces = []struct{ Place, Where string }{
	{"open_action", "open_action"},
	{"document_aa", "document_aa"},
	{"page_aa", "page_aa"},
	{"annotation_aa", "annotation_aa"},
	{"link_action", "annotation_action"},
	{"widget_aa", "annotation_aa"},
	{"names", "names"},
}

// ScriptPDF is a one-page document with one JavaScript action, only at
// place (one of ScriptPlaces): the catalog's /OpenAction or /AA, the
// page's /AA, a text annotation's /AA, a link's /A, a form field's
// keystroke action, or the /JavaScript name tree.
func ScriptPDF(place string) ([]byte, error) {
	const js = "6 0 R"
	catalog, page, annots := "", "", ""
	switch place {
	case "open_action":
		catalog = "/OpenAction " + js
	case "document_aa":
		catalog = "/AA << /WC " + js + " >>"
	case "page_aa":
		page = "/AA << /O " + js + " >>"
	case "annotation_aa":
		annots = "<< /Type /Annot /Subtype /Text /Rect [72 600 92 620] /Contents (note) /AA << /E " + js + " >> >>"
	case "link_action":
		annots = "<< /Type /Annot /Subtype /Link /Rect [72 600 200 620] /Border [0 0 0] /A " + js + " >>"
	case "widget_aa":
		catalog = "/AcroForm << /Fields [7 0 R] >>"
		annots = "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /Rect [72 600 200 620] /P 3 0 R /AA << /K " + js + " >> >>"
	case "names":
		catalog = "/Names << /JavaScript << /Names [(init) " + js + "] >> >>"
	default:
		return nil, fmt.Errorf("pdftest: no script place %q", place)
	}
	if annots != "" {
		page += " /Annots [7 0 R]"
	}
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R " + catalog + " >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> " + page + " >>",
		"stream:BT /F1 18 Tf 72 700 Td (" + ScriptText + ") Tj ET",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Type /Action /S /JavaScript /JS (app.alert\\('sieve test'\\);) >>",
	}
	if annots != "" {
		objs = append(objs, annots)
	}
	return RawPDF(objs...), nil
}
