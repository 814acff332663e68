package anchor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
	"github.com/sieve-dev/sieve/verify"
)

// distilPDF runs a generated PDF through the real chain: capture (the
// embedded PDFium), normalize, graph and the EEF bundle.
func distilPDF(t *testing.T, doc pdftest.Doc) (*capture.Record, *graph.Record, *eef.Bundle, ground.Source) {
	t.Helper()
	path := filepath.Join(t.TempDir(), doc.Name+".pdf")
	if err := os.WriteFile(path, doc.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	cr := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
	if cr.PDF == nil {
		t.Fatalf("%s: capture read no PDF: %+v", doc.Name, cr.Error)
	}
	n, err := normalize.Normalize(&cr)
	if err != nil {
		t.Fatal(err)
	}
	rec := graph.Build(n)
	b, err := eef.Build(rec, eef.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	files, err := b.Files()
	if err != nil {
		t.Fatal(err)
	}
	for name, schema := range map[string]string{eef.FileDocument: "ethos-document", eef.FileSecurityReport: "ethos-security-report"} {
		if err := schemas.Validate(schema, files[name]); err != nil {
			t.Fatalf("%s %s: %v", doc.Name, name, err)
		}
	}
	raw, err := c14n.Marshal(b.Document)
	if err != nil {
		t.Fatal(err)
	}
	src, err := ground.FromEthos(raw)
	if err != nil {
		t.Fatalf("%s: the bundle is not a valid grounding source: %v", doc.Name, err)
	}
	return &cr, rec, b, src
}

// requirePages fails unless some block has a page and a box: the contract
// the graph's PDF boxes are built on (normalize gives nodes page numbers).
func requirePages(t *testing.T, rec *graph.Record) {
	t.Helper()
	for _, b := range rec.Blocks {
		if b.Page > 0 && b.Box != nil {
			return
		}
	}
	t.Fatalf("no PDF block has a page and a box: %+v", rec.Blocks)
}

func TestPDFEndToEndTable(t *testing.T) {
	doc, err := pdftest.RuledTable()
	if err != nil {
		t.Fatal(err)
	}
	_, rec, b, src := distilPDF(t, doc)
	requirePages(t, rec)
	p := b.Document.Payload
	if len(p.Pages) != 1 || p.Pages[0].Width == nil || *p.Pages[0].Width != 596 || *p.Pages[0].Height != 842 || p.CoordinateSystem.Unit != "pt" {
		t.Fatalf("pages %+v, unit %s: want one A4 page of 596×842 pt", p.Pages, p.CoordinateSystem.Unit)
	}
	// The heading's box lands on the words fpdf drew: baseline y 90 at x 72, 18 pt.
	var head *eef.Element
	for i := range p.Elements {
		if p.Elements[i].Text == "Station Readings" {
			head = &p.Elements[i]
		}
	}
	if head == nil || head.BBox == nil {
		t.Fatalf("no boxed heading element in %+v", p.Elements)
	}
	if x, y, w, h := head.BBox[0], head.BBox[1], head.BBox[2], head.BBox[3]; x > 73 || x < 70 || y > 78 || y+h < 89 || y+h > 95 || w < 120 {
		t.Errorf("heading box %v does not land on the words drawn at (72, 90), 18 pt", head.BBox)
	}
	ck := verify.Verify(src, verify.Citations{Claims: []verify.Claim{
		{Kind: verify.KindQuote, Text: "Station Readings", Locator: &verify.Locator{Page: "p0001"}},
		{Kind: verify.KindRegion, Text: "Station Readings", Locator: &verify.Locator{Page: "p0001", BBox: []int{60, 60, 400, 50}}},
		{Kind: verify.KindRegion, Text: "Station Readings", Locator: &verify.Locator{Page: "p0001", BBox: []int{60, 800, 100, 50}}},
		{Kind: verify.KindQuote, Text: "Station Readings", Locator: &verify.Locator{Page: "p0002"}},
	}}).Checks
	for i, want := range []string{verify.StatusGrounded, verify.StatusGrounded, verify.StatusError, verify.StatusNotFound} {
		if ck[i].Status != want {
			t.Errorf("claim %d: %s (%s), want %s", i, ck[i].Status, ck[i].Reason, want)
		}
	}
	if ev := ck[1].Evidence; ev == nil || ev.PageRef != "p0001" || len(ev.BBox) != 4 || ev.BBox[1] != head.BBox[1] {
		t.Errorf("region evidence %+v: want page p0001 and the heading's box", ev)
	}
	an := Run(src, Request{ArtifactType: RequestType, SchemaVersion: SchemaVersion, EvidenceRefs: []Ref{
		{EvidenceID: "head", Kind: KindText, Text: "Station Readings", RequiredAnchorLevel: LevelTextBBox},
		{EvidenceID: "page", Kind: KindPage, PageRef: "p0001", RequiredAnchorLevel: LevelBBox, BBox: []int{0, 0, 596, 842}},
		{EvidenceID: "off", Kind: KindPage, PageRef: "p0001", RequiredAnchorLevel: LevelBBox, BBox: []int{0, 0, 600, 842}},
		{EvidenceID: "p2", Kind: KindPage, PageRef: "p0002"},
		{EvidenceID: "region", Kind: KindRegion, PageRef: "p0001", BBox: []int{60, 60, 400, 50}, RequiredAnchorLevel: LevelTextBBox, Text: "Station Readings"},
	}}).Anchors
	for i, want := range []string{StatusBound, StatusBound, StatusMismatch, StatusNotFound, StatusBound} {
		if an[i].Status != want {
			t.Errorf("ref %s: %s (%s), want %s", an[i].EvidenceID, an[i].Status, an[i].Reason, want)
		}
	}
	if bd := an[0].Binding; bd == nil || len(bd.BBox) != 4 || bd.BBox[1] != head.BBox[1] {
		t.Errorf("text_bbox binding %+v, want the heading's box", bd)
	}
	checkRuledCell(t, p, src)
}

// checkRuledCell: the cell "15" of the ruled table has a box on the words
// fpdf drew, and table_cell claims and refs bind to it.
func checkRuledCell(t *testing.T, p eef.Payload, src ground.Source) {
	t.Helper()
	if len(p.Tables) != 1 {
		t.Fatalf("tables %+v", p.Tables)
	}
	var cell *eef.Cell
	for i, c := range p.Tables[0].Cells {
		if c.Text == "15" {
			cell = &p.Tables[0].Cells[i]
		}
	}
	if cell == nil || cell.BBox == nil {
		t.Fatalf("no boxed cell \"15\" in %+v", p.Tables[0].Cells)
	}
	// fpdf drew "15" at x 72+120+100+6 = 298, baseline 150+2*24+16 = 214.
	if bb := cell.BBox; bb[0] > 298 || bb[0]+bb[2] < 305 || bb[1] > 206 || bb[1]+bb[3] < 213 {
		t.Errorf("cell \"15\" box %v does not hold the words drawn at (298, 214)", bb)
	}
	row, col := cell.Row, cell.Column
	ck := verify.Verify(src, verify.Citations{Claims: []verify.Claim{
		{Kind: verify.KindTableCell, Text: "15", Locator: &verify.Locator{Table: "t0001", Row: &row, Column: &col}},
	}}).Checks[0]
	if ck.Status != verify.StatusGrounded || ck.Evidence == nil || ck.Evidence.PageRef != "p0001" || len(ck.Evidence.BBox) != 4 {
		t.Errorf("table_cell claim: %s %q, evidence %+v", ck.Status, ck.Reason, ck.Evidence)
	}
	an := Run(src, Request{ArtifactType: RequestType, SchemaVersion: SchemaVersion, EvidenceRefs: []Ref{
		{EvidenceID: "cell", Kind: KindTableCell, TableRef: "t0001", Row: &row, Column: &col, Text: "15"},
	}}).Anchors[0]
	if an.Status != StatusBound || an.Binding == nil || len(an.Binding.BBox) != 4 {
		t.Errorf("table_cell ref: %s (%s), binding %+v", an.Status, an.Reason, an.Binding)
	}
}

func TestPDFEndToEndHiddenText(t *testing.T) {
	doc, err := pdftest.HiddenText()
	if err != nil {
		t.Fatal(err)
	}
	_, rec, b, src := distilPDF(t, doc)
	requirePages(t, rec)
	if len(rec.Latent) == 0 {
		t.Fatal("no latent text from a PDF with hidden text")
	}
	hidden := 0
	for _, f := range b.Security.Findings {
		if f.Code == eef.FindingHiddenText {
			hidden++
			if f.Evidence.PageRef != "p0001" {
				t.Errorf("hidden-text finding %s names no page: %+v", f.ID, f.Evidence)
			}
		}
	}
	if hidden != len(rec.Latent) {
		t.Errorf("%d hidden-text findings for %d latent entries", hidden, len(rec.Latent))
	}
	for _, h := range doc.Hidden {
		for _, c := range b.Chunks {
			if strings.Contains(c.Text, h.Text) {
				t.Errorf("chunk %s carries hidden text %q", c.ChunkID, h.Text)
			}
		}
	}
	rep := verify.Verify(src, verify.Citations{Claims: []verify.Claim{{Kind: verify.KindQuote, Text: doc.Hidden[0].Text}}})
	if ck := rep.Checks[0]; ck.Status != verify.StatusNotFound || ck.Reason != verify.LatentOnly || !strings.Contains(warningCodes(rep), "latent_text_cited") {
		t.Errorf("a quote of hidden text: %s %q, warnings %s", ck.Status, ck.Reason, warningCodes(rep))
	}
}

func warningCodes(r verify.Report) string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, w.Code)
	}
	return strings.Join(out, " ")
}

func TestPDFEndToEndSecurity(t *testing.T) {
	doc, err := pdftest.Links()
	if err != nil {
		t.Fatal(err)
	}
	cr, _, b, _ := distilPDF(t, doc)
	codes := map[string]eef.Finding{}
	for _, f := range b.Security.Findings {
		codes[f.Code] = f
	}
	if f, ok := codes[eef.FindingExternalLink]; !ok || f.Evidence.URI != "https://example.com/guide" || f.Evidence.PageRef != "p0001" || len(f.Evidence.BBox) != 4 {
		t.Errorf("external link finding %+v", f)
	}
	if _, ok := codes[eef.FindingJavaScript]; !ok || b.Security.Inventory.Scripts == nil || *b.Security.Inventory.Scripts != cr.PDF.JavaScript {
		t.Errorf("document JavaScript (%d actions) gives no finding or count: %+v", cr.PDF.JavaScript, b.Security)
	}
	// Every embedded file capture found is a finding (pdftest.Links asks
	// fpdf for one; pdfdetach finds none in its output either, so capture
	// may rightly report none).
	if f, ok := codes[eef.FindingAttachment]; len(cr.PDF.Attachments) > 0 && (!ok || f.Evidence.Text != cr.PDF.Attachments[0].Name) {
		t.Errorf("attachments %+v give finding %+v", cr.PDF.Attachments, f)
	}
	if inv := b.Security.Inventory; inv.Attachments == nil || *inv.Attachments != len(cr.PDF.Attachments) || inv.ExternalLinks != 1 || inv.Links != 2 {
		t.Errorf("inventory %+v", inv)
	}
}

// TestPDFEndToEndRotatedAndCropped: on a /Rotate 90 page and a page with
// an offset CropBox, the EEF pages have the displayed sizes and every
// drawn word lies inside the box of the element holding it (within 1 pt),
// so a text_bbox anchor binds where the word is.
func TestPDFEndToEndRotatedAndCropped(t *testing.T) {
	data, words, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	_, rec, b, src := distilPDF(t, pdftest.Doc{Name: "sample", PDF: data})
	requirePages(t, rec)
	p := b.Document.Payload
	var sizes []string
	for _, pg := range p.Pages {
		sizes = append(sizes, fmt.Sprintf("%s %dx%d r%d", pg.ID, *pg.Width, *pg.Height, *pg.Rotation))
	}
	if want := "p0001 596x842 r0|p0002 842x596 r90|p0003 300x400 r0"; strings.Join(sizes, "|") != want {
		t.Errorf("pages %s, want %s", strings.Join(sizes, "|"), want)
	}
	for _, w := range words {
		page := fmt.Sprintf("p%04d", w.Page+1)
		var el *eef.Element
		for i := range p.Elements {
			if p.Elements[i].PageRef == page && strings.Contains(p.Elements[i].Text, w.Text) {
				el = &p.Elements[i]
			}
		}
		if el == nil || el.BBox == nil {
			t.Errorf("%q: no boxed element on %s", w.Text, page)
			continue
		}
		bb := el.BBox
		if float64(bb[0]) > w.X0+1 || float64(bb[1]) > w.Y0+1 || float64(bb[0]+bb[2]) < w.X1-1 || float64(bb[1]+bb[3]) < w.Y1-1 {
			t.Errorf("%q on %s: element box %v does not hold the word's box (%.1f %.1f %.1f %.1f)", w.Text, page, bb, w.X0, w.Y0, w.X1, w.Y1)
		}
		an := Run(src, Request{ArtifactType: RequestType, SchemaVersion: SchemaVersion, EvidenceRefs: []Ref{
			{EvidenceID: "w", Kind: KindTextRegion, Text: w.Text, PageRef: page, BBox: bb},
		}}).Anchors[0]
		if an.Status != StatusBound || an.Binding == nil || an.Binding.PageRef != page {
			t.Errorf("%q: text_region on %s %v: %s (%s)", w.Text, page, bb, an.Status, an.Reason)
		}
	}
}
