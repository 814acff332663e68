package eef

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

// pdfGraph is the graph of graph's hand-built PDF fixture: a three-page
// report (page 2 rotated, page 3 unreadable) with a table, white-on-white
// text, JavaScript, an attachment, a form and links.
func pdfGraph(t *testing.T) *graph.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "graph", "testdata", "pdf-fixture.normalized.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rec normalize.Record
	if err := codec.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	return graph.Build(&rec)
}

func elementWith(t *testing.T, b *Bundle, text string) Element {
	t.Helper()
	for _, e := range b.Document.Payload.Elements {
		if e.Text == text {
			return e
		}
	}
	t.Fatalf("no element %q", text)
	return Element{}
}

func TestPDFBundlePages(t *testing.T) {
	b, files := build(t, pdfGraph(t))
	p := b.Document.Payload
	if cs := p.CoordinateSystem; cs.Unit != "pt" || cs.Origin != "top_left" || !cs.BoxesAvailable {
		t.Errorf("coordinate system %+v", cs)
	}
	if b.Document.Source.MediaType != MediaPDF {
		t.Errorf("media type %q", b.Document.Source.MediaType)
	}
	var got []string
	for _, pg := range p.Pages {
		got = append(got, fmt.Sprintf("%s %d %dx%d r%d %s", pg.ID, pg.Index, *pg.Width, *pg.Height, *pg.Rotation, pg.URL))
	}
	want := []string{
		"p0001 0 612x792 r0 file:///docs/report.pdf#page=1",
		"p0002 1 792x612 r90 file:///docs/report.pdf#page=2",
		"p0003 2 612x792 r0 file:///docs/report.pdf#page=3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct {
		text, page string
		bbox       []int
	}{
		{"Quarterly Report", "p0001", []int{72, 60, 300, 24}},
		{"Outlook", "p0002", []int{72, 50, 120, 18}},
		{"We expect steady demand next year.", "p0002", []int{72, 80, 300, 14}},
	} {
		if e := elementWith(t, b, c.text); e.PageRef != c.page || !reflect.DeepEqual(e.BBox, c.bbox) {
			t.Errorf("%q on %s %v, want %s %v", c.text, e.PageRef, e.BBox, c.page, c.bbox)
		}
	}
	pageOf := map[string]string{}
	for _, e := range p.Elements {
		pageOf[e.ID] = e.PageRef
	}
	for _, s := range p.Spans {
		if s.PageRef != pageOf[s.ElementRef] {
			t.Errorf("span %s on %s, its element on %s", s.ID, s.PageRef, pageOf[s.ElementRef])
		}
	}
	if len(p.Regions) != len(p.Elements) {
		t.Errorf("%d regions for %d boxed elements", len(p.Regions), len(p.Elements))
	}
	for _, r := range p.Regions {
		if r.PageRef != pageOf[r.ElementRef] {
			t.Errorf("region %s on %s, its element on %s", r.ID, r.PageRef, pageOf[r.ElementRef])
		}
	}
	// A PDF with boxes and a source fingerprint can be cropped (crop/).
	if c := p.Capabilities; !c.Boxes || !c.Regions || !c.Crop || limit(c.Limits, "no_crop") != "" {
		t.Errorf("capabilities %+v", c)
	}
	validateBundle(t, files)
}

func limit(ls []Limit, code string) string {
	for _, l := range ls {
		if l.Code == code {
			return l.Message
		}
	}
	return ""
}

func validateBundle(t *testing.T, files map[string][]byte) {
	t.Helper()
	for name, schema := range map[string]string{FileDocument: "ethos-document", FileSecurityReport: "ethos-security-report"} {
		if err := schemas.Validate(schema, files[name]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, line := range bytes.Split(bytes.TrimSpace(files[FileChunks]), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if err := schemas.Validate("ethos-chunks", line); err != nil {
			t.Errorf("chunk: %v", err)
		}
	}
}

func TestPDFTableCellsAndLatent(t *testing.T) {
	b, files := build(t, pdfGraph(t))
	p := b.Document.Payload
	if len(p.Tables) != 1 {
		t.Fatalf("tables %+v", p.Tables)
	}
	tb := p.Tables[0]
	if tb.PageRef != "p0001" || tb.Rows != 3 || tb.Columns != 2 {
		t.Errorf("table %+v", tb)
	}
	for _, c := range tb.Cells {
		want := []int{72 + 100*c.Column, 140 + 20*c.Row, 100, 20}
		if !reflect.DeepEqual(c.BBox, want) {
			t.Errorf("cell (%d, %d) %q bbox %v, want %v", c.Row, c.Column, c.Text, c.BBox, want)
		}
	}
	if len(p.Latent) != 1 || p.Latent[0].PageRef != "p0001" || !reflect.DeepEqual(p.Latent[0].BBox, []int{72, 700, 300, 10}) {
		t.Errorf("latent %+v", p.Latent)
	}
	for _, f := range []string{FileChunks, FileText} {
		if bytes.Contains(files[f], []byte("Ignore previous")) {
			t.Errorf("%s carries the hidden text", f)
		}
	}
	for _, c := range b.Chunks {
		for _, ref := range c.PageRefs {
			if ref != "p0001" && ref != "p0002" {
				t.Errorf("chunk %s page ref %s", c.ChunkID, ref)
			}
		}
		if strings.Contains(c.Text, "Outlook") && !reflect.DeepEqual(c.PageRefs, []string{"p0002"}) {
			t.Errorf("chunk %s with the page-2 section has pages %v", c.ChunkID, c.PageRefs)
		}
	}
}

func TestPDFSecurityReport(t *testing.T) {
	b, _ := build(t, pdfGraph(t))
	r := b.Security
	var got []string
	for _, f := range r.Findings {
		got = append(got, fmt.Sprintf("%s %s %s %v %s", f.ID, f.Code, f.Evidence.PageRef, f.Evidence.BBox, f.Evidence.URI))
	}
	want := []string{
		"f0001 hidden_text p0001 [72 700 300 10] ",
		"f0002 prompt_injection_like_hidden_text p0001 [72 700 300 10] ",
		"f0003 javascript  [] ",
		"f0004 launch_action p0001 [72 760 50 12] calc.exe",
		"f0005 javascript_link p0001 [200 760 50 12] ",
		"f0006 attachment  [] ",
		"f0007 attachment p0002 [700 20 17 16] ",
		"f0008 form  [] ",
		"f0009 external_link p0001 [72 740 121 12] https://example.org/more",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	inv := r.Inventory
	if inv.Scripts == nil || *inv.Scripts != 1 || inv.Links != 4 || inv.ExternalLinks != 1 || *inv.Annotations != 2 ||
		*inv.Attachments != 2 || *inv.Actions != 2 || inv.Forms != 1 || inv.HiddenText != 1 || inv.PromptInjectionLike != 1 {
		t.Errorf("inventory %+v", inv)
	}
	if r.Findings[5].Evidence.Text != "payload.exe" {
		t.Errorf("attachment evidence %+v", r.Findings[5].Evidence)
	}
}

// TestPDFBoxesClippedToPage: a box reaching off its page keeps only its
// part on the page; one wholly off the page has none; a block that names
// no page is on the previous block's.
func TestPDFBoxesClippedToPage(t *testing.T) {
	rec := pdfGraph(t)
	rec.Blocks[0].Box = &graph.Box{X: -5, Y: 780, W: 100, H: 40}
	rec.Blocks[1].Box = &graph.Box{X: 700, Y: 10, W: 50, H: 10}
	rec.Blocks[1].Page = 0
	b, files := build(t, rec)
	els := b.Document.Payload.Elements
	if !reflect.DeepEqual(els[0].BBox, []int{0, 780, 95, 12}) || els[1].BBox != nil || els[1].PageRef != els[0].PageRef {
		t.Errorf("elements %+v / %+v", els[0], els[1])
	}
	validateBundle(t, files)
}

// TestPDFChunksStayOnOnePage: a section running over a page break gives
// one chunk per page, so every chunk bbox is on the chunk's one page.
func TestPDFChunksStayOnOnePage(t *testing.T) {
	rec := pdfGraph(t)
	for i := range rec.Blocks {
		rec.Blocks[i].SectionID = rec.Blocks[0].SectionID
	}
	b, _ := build(t, rec)
	if len(b.Chunks) != 2 {
		t.Fatalf("%d chunks, want one per page: %+v", len(b.Chunks), b.Chunks)
	}
	for i, want := range []string{"p0001", "p0002"} {
		if c := b.Chunks[i]; !reflect.DeepEqual(c.PageRefs, []string{want}) || len(c.BBoxes) != len(c.ElementRefs) {
			t.Errorf("chunk %s: pages %v, %d boxes for %d elements", c.ChunkID, c.PageRefs, len(c.BBoxes), len(c.ElementRefs))
		}
	}
}

// TestPDFNotRead: a PDF capture could not read (encrypted) is still a PDF
// source with one page of unknown size, and its report knows nothing.
func TestPDFNotRead(t *testing.T) {
	rec := pdfGraph(t)
	rec.PDF = &capture.PDFInfo{Pages: []capture.PDFPageInfo{}}
	rec.Blocks, rec.Latent = []graph.Block{}, []graph.Latent{}
	b, files := build(t, rec)
	d := b.Document
	if d.Source.MediaType != MediaPDF || d.Payload.CoordinateSystem.Unit != "pt" || len(d.Payload.Pages) != 1 || d.Payload.Pages[0].Width != nil {
		t.Errorf("document %+v / %+v", d.Source, d.Payload.Pages)
	}
	if l := limit(d.Payload.Capabilities.Limits, "no_boxes"); !strings.Contains(l, "PDF") {
		t.Errorf("no_boxes limit %q is not about a PDF", l)
	}
	if inv := b.Security.Inventory; inv.Scripts != nil || inv.Attachments != nil || limit(b.Security.Limits, "pdf_not_read") == "" {
		t.Errorf("report of an unread PDF: %+v %+v", inv, b.Security.Limits)
	}
	validateBundle(t, files)
}
