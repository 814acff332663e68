package pdf

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/go-pdf/fpdf"
)

// linked is a two-page PDF with a URI link and a jump to page 2, a
// two-level outline and metadata; with extras, an embedded file, a file
// attachment annotation and document JavaScript too (the annotation makes
// fpdf number its objects so that its links' and outline's destinations
// point at no page, so extras are kept apart).
func linked(t *testing.T, extras bool) []byte {
	t.Helper()
	f := fpdf.New("P", "pt", "A4", "")
	f.SetTitle("Field Guide", true)
	f.SetAuthor("A. Writer", true)
	if extras {
		f.SetAttachments([]fpdf.Attachment{{Content: []byte("notes\n"), Filename: "notes.txt"}})
		f.SetJavascript("app.alert('hi');")
	}
	f.SetFont("Helvetica", "", 12)
	jump := f.AddLink()
	f.AddPage()
	f.Bookmark("Start", 0, 0)
	f.Bookmark("Detail", 1, 100)
	f.Text(72, 100, "Site")
	f.LinkString(72, 88, 40, 16, "https://example.com/a")
	f.Text(72, 200, "Jump")
	f.Link(72, 188, 40, 16, jump)
	if extras {
		f.AddAttachmentAnnotation(&fpdf.Attachment{Content: []byte("x"), Filename: "pinned.txt"}, 300, 300, 20, 20)
	}
	f.AddPage()
	f.SetLink(jump, 0, 2)
	f.Bookmark("End", 0, 0)
	f.Text(72, 100, "Appendix")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLinksAndAnnotations(t *testing.T) {
	doc, err := Parse(linked(t, false))
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	want := []Link{
		{Box: Box{72, 88, 112, 104}, Action: "uri", URI: "https://example.com/a", Page: -1},
		{Box: Box{72, 188, 112, 204}, Action: "goto", Page: 1},
	}
	if len(p.Links) != len(want) {
		t.Fatalf("links %+v, want %+v", p.Links, want)
	}
	for i, w := range want {
		g := p.Links[i]
		if g.Action != w.Action || g.URI != w.URI || g.Page != w.Page || !near(g.Box.X0, w.Box.X0) ||
			!near(g.Box.Y0, w.Box.Y0) || !near(g.Box.X1, w.Box.X1) || !near(g.Box.Y1, w.Box.Y1) {
			t.Errorf("link %d: %+v, want %+v", i, g, w)
		}
	}
	if len(p.Annots) != 0 {
		t.Errorf("annotations %+v, want none", p.Annots)
	}
	if len(doc.Pages[1].Links) != 0 || len(doc.Pages[1].Annots) != 0 {
		t.Errorf("page 2: links %v, annotations %v; want none", doc.Pages[1].Links, doc.Pages[1].Annots)
	}
}

func TestDocumentFacts(t *testing.T) {
	doc, err := Parse(linked(t, false))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Metadata["Title"] != "Field Guide" || doc.Metadata["Author"] != "A. Writer" || doc.Metadata["Subject"] != "" {
		t.Errorf("metadata %v", doc.Metadata)
	}
	for k, v := range doc.Metadata {
		if v == "" {
			t.Errorf("metadata %s is empty", k)
		}
	}
	wantBM := []Bookmark{{"Start", 1, 0}, {"Detail", 2, 0}, {"End", 1, 1}}
	if !reflect.DeepEqual(doc.Bookmarks, wantBM) {
		t.Errorf("bookmarks %+v, want %+v", doc.Bookmarks, wantBM)
	}
	if doc.JavaScript != 0 || doc.Attachments != nil {
		t.Errorf("javascript %d, attachments %v; want none", doc.JavaScript, doc.Attachments)
	}
	if doc, err = Parse(linked(t, true)); err != nil {
		t.Fatal(err)
	}
	if doc.JavaScript != 1 || !reflect.DeepEqual(doc.Attachments, []string{"notes.txt"}) || doc.Form != "" {
		t.Errorf("javascript %d, attachments %v, form %q; want 1, [notes.txt], none", doc.JavaScript, doc.Attachments, doc.Form)
	}
	plain, _ := sample(t)
	if plain.Metadata["Title"] != "" || plain.Bookmarks != nil || plain.JavaScript != 0 || plain.Attachments != nil {
		t.Errorf("plain sample: %v %v %d %v; want no facts", plain.Metadata, plain.Bookmarks, plain.JavaScript, plain.Attachments)
	}
}

// handPDF is a one-page PDF made of the given objects 4, 5, … as the
// page's annotations; objects 1–3 are the catalog, page tree and page.
func handPDF(annots ...string) []byte {
	refs := ""
	for i := range annots {
		refs += fmt.Sprintf("%d 0 R ", i+4)
	}
	objs := append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] /Annots [" + refs + "] >>",
	}, annots...)
	var b bytes.Buffer
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
	return b.Bytes()
}

// TestActionsAndNotes: a text note's contents, a launch action's file
// and a JavaScript action (which PDFium cannot name: unsupported).
func TestActionsAndNotes(t *testing.T) {
	doc, err := Parse(handPDF(
		"<< /Type /Annot /Subtype /Text /Rect [100 700 120 720] /Contents (A note) >>",
		"<< /Type /Annot /Subtype /Link /Rect [100 600 200 620] /A << /S /Launch /F (evil.exe) >> >>",
		"<< /Type /Annot /Subtype /Link /Rect [100 500 200 520] /A << /S /JavaScript /JS (app.alert(1)) >> >>",
	))
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	wantA := []Annotation{{Subtype: "text", Box: Box{100, 80, 120, 100}, Contents: "A note"}}
	if !reflect.DeepEqual(p.Annots, wantA) {
		t.Errorf("annotations %+v, want %+v", p.Annots, wantA)
	}
	wantL := []Link{
		{Box: Box{100, 180, 200, 200}, Action: "launch", URI: "evil.exe", Page: -1},
		{Box: Box{100, 280, 200, 300}, Action: "unsupported", Page: -1},
	}
	if !reflect.DeepEqual(p.Links, wantL) {
		t.Errorf("links %+v, want %+v", p.Links, wantL)
	}
}
