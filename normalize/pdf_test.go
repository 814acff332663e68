package normalize_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
	"github.com/sieve-dev/sieve/schemas"
)

// reportPDF is a three-page report: a 24 pt title, a 16 pt subheading,
// 11 pt body paragraphs (one line ends in a hyphen), a running header and
// "Page N" footers. Uncompressed, with fixed dates: the same bytes every
// time, all ASCII (the copy in cmd/sieve's pdf_distill.txtar is checked
// against it).
func reportPDF(t *testing.T) []byte {
	t.Helper()
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCompression(false)
	f.SetCatalogSort(true)
	f.SetProducer("sieve normalize test", false) // fpdf's default is UTF-16, with NUL bytes
	date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.SetCreationDate(date)
	f.SetModificationDate(date)
	body := func(y float64, lines ...string) float64 {
		f.SetFont("Helvetica", "", 11)
		for _, l := range lines {
			f.Text(72, y, l)
			y += 14
		}
		return y + 14
	}
	for page := 1; page <= 3; page++ {
		f.AddPage()
		f.SetFont("Helvetica", "", 9)
		f.Text(72, 40, "Garden Survey Report 2026")
		f.Text(280, 810, fmt.Sprintf("Page %d", page))
		switch page {
		case 1:
			f.SetFont("Helvetica", "B", 24)
			f.Text(72, 140, "Annual Garden Survey")
			y := body(190, "Tomatoes did well this year in every bed we", "measured along the south wall.")
			body(y, "The beans were late but plentiful after the", "second sowing in early June.")
		case 2:
			f.SetFont("Helvetica", "B", 16)
			f.Text(72, 140, "Methods")
			body(180, "We counted fruit on each plant and the vege-", "tables were weighed twice a week.")
		case 3:
			body(160, "Next year we will plant marigolds between the", "rows to keep the aphids away.")
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// scriptPDF is the script that distils reportPDF's bytes, its last file.
const scriptPDF = "../cmd/sieve/testdata/script/pdf_distill.txtar"

// TestPDFScriptFixture: the PDF in the script is reportPDF's; with
// SIEVE_UPDATE_PDF=1 it is rewritten.
func TestPDFScriptFixture(t *testing.T) {
	const marker = "\n-- report.pdf --\n"
	data := reportPDF(t)
	script, err := os.ReadFile(scriptPDF)
	if err != nil {
		t.Fatal(err)
	}
	head, got, ok := strings.Cut(string(script), marker)
	if !ok {
		t.Fatalf("%s has no report.pdf file", scriptPDF)
	}
	if os.Getenv("SIEVE_UPDATE_PDF") == "1" {
		if err := os.WriteFile(scriptPDF, []byte(head+marker+string(data)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != string(data) {
		t.Errorf("%s: report.pdf is not reportPDF's output; rerun with SIEVE_UPDATE_PDF=1", scriptPDF)
	}
}

// capturePDF captures data as a local file.
func capturePDF(t *testing.T, data []byte) capture.Record {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	rec := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
	if rec.PDF == nil {
		t.Fatalf("capture read no pdf facts: error %+v", rec.Error)
	}
	return rec
}

// textOnPage is the text of n's text nodes, joined by spaces; a node whose
// box is off the first page of rec fails t.
func textOnPage(t *testing.T, rec *capture.Record, n *normalize.Record) string {
	t.Helper()
	var text []string
	pg := rec.PDF.Pages[0]
	for _, node := range n.Nodes {
		if node.Tag != "#text" {
			continue
		}
		text = append(text, node.Text)
		if b := node.Box; b == nil || b.X < -1 || b.Y < -1 || float64(b.X+b.W) > pg.Width+1 || float64(b.Y+b.H) > pg.Height+1 {
			t.Errorf("box %+v of %q off the %gx%g page", b, node.Text, pg.Width, pg.Height)
		}
	}
	return strings.Join(text, " ")
}

func TestPDFDistill(t *testing.T) {
	rec := capturePDF(t, reportPDF(t))
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	checkNormalized(t, n)
	sections := 0
	for _, node := range n.Nodes {
		if node.Source != normalize.SourcePDF || node.Box == nil && node.Parent >= 1 {
			t.Errorf("node %d %s: source %q, box %v", node.ID, node.Tag, node.Source, node.Box)
		}
		if node.Tag == "section" {
			sections++
			if want := fmt.Sprintf("p%04d", sections); node.Attrs["id"] != want {
				t.Errorf("section %d id %q, want %q", sections, node.Attrs["id"], want)
			}
		}
	}
	if sections != 3 {
		t.Errorf("%d page sections, want 3", sections)
	}
	g := graph.Build(n)
	for _, b := range g.Blocks {
		if b.Box == nil {
			t.Errorf("PDF block %s %q has no box", b.ID, b.Text)
		}
	}
	var content, chrome []string
	headings := map[string]int{}
	for _, b := range g.Blocks {
		switch {
		case b.Role == "content" && b.Type == graph.TypeHeading:
			headings[b.Text] = b.Level
		case b.Role == "content":
			content = append(content, b.Text)
		default:
			chrome = append(chrome, b.Text)
		}
	}
	if headings["Annual Garden Survey"] != 1 || headings["Methods"] != 2 || len(headings) != 2 {
		t.Errorf("headings %v, want the title at level 1 and Methods at level 2", headings)
	}
	want := []string{
		"Tomatoes did well this year in every bed we measured along the south wall.",
		"The beans were late but plentiful after the second sowing in early June.",
		"We counted fruit on each plant and the vegetables were weighed twice a week.",
		"Next year we will plant marigolds between the rows to keep the aphids away.",
	}
	if strings.Join(content, "\n") != strings.Join(want, "\n") {
		t.Errorf("content blocks:\n%s\nwant:\n%s", strings.Join(content, "\n"), strings.Join(want, "\n"))
	}
	if len(chrome) != 6 {
		t.Errorf("chrome blocks %q, want the header and page number of each page", chrome)
	}
	// the page-1 header before the title is the chrome intro section
	if len(g.Sections) != 3 || g.Sections[1].Title != "Annual Garden Survey" || g.Sections[1].Role != "content" {
		t.Errorf("sections %+v: want the title's section after the chrome intro", g.Sections)
	}
	if g.Title != "Annual Garden Survey" {
		t.Errorf("title %q", g.Title)
	}
	md := string(render.Markdown(g))
	if !strings.Contains(md, "# Annual Garden Survey") || strings.Contains(md, "Garden Survey Report 2026") || strings.Contains(md, "Page 2") {
		t.Errorf("markdown has no title heading or keeps the chrome:\n%s", md)
	}
	if err := schemas.ValidateRecord(mustJSON(t, g)); err != nil {
		t.Errorf("graph record: %v", err)
	}
}

// TestPDFBoxes: each page's section has the page's box; a paragraph's box
// is page-local, where fpdf drew it, and every node carries its page.
func TestPDFBoxes(t *testing.T) {
	rec := capturePDF(t, reportPDF(t))
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	var secs []*normalize.Box
	found := false
	for _, node := range n.Nodes {
		if node.Tag == "section" {
			secs = append(secs, node.Box)
		}
		if node.Parent > 1 && node.Page != len(secs) {
			t.Errorf("node %d %q on page %d, want %d", node.ID, node.Text, node.Page, len(secs))
		}
		if node.Tag == "#text" && strings.HasPrefix(node.Text, "Next year") {
			found = true
			// page 3, first line's baseline at 160 pt, two lines of 11 pt
			if b := node.Box; b.X < 71 || b.X > 73 || b.Y < 150 || b.Y > 155 || b.H < 18 || b.H > 26 {
				t.Errorf("page-3 paragraph box %+v", *b)
			}
		}
	}
	if !found {
		t.Error("no page-3 paragraph")
	}
	for i, b := range secs {
		if *b != (normalize.Box{W: 596, H: 842}) {
			t.Errorf("page %d box %+v, want the A4 page", i+1, *b)
		}
	}
}

func TestPDFDeterministic(t *testing.T) {
	data := reportPDF(t)
	rec := capturePDF(t, data)
	var outs, nodes [2][]byte
	for i := range outs {
		n, err := normalize.Normalize(&rec)
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = mustJSON(t, n)
		again := capturePDF(t, data) // a second capture differs only in its timing
		if n, err = normalize.Normalize(&again); err != nil {
			t.Fatal(err)
		}
		nodes[i] = mustJSON(t, n.Nodes)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("normalizing the same capture twice gave different bytes")
	}
	if !bytes.Equal(nodes[0], nodes[1]) {
		t.Error("two captures of the same PDF gave different nodes")
	}
}

// TestPDFError: a PDF capture that failed (here: encrypted) gives a valid
// record with no nodes, and the graph says the page is empty.
func TestPDFError(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetProtection(fpdf.CnProtectPrint, "secret", "owner")
	f.SetFont("Helvetica", "", 12)
	f.AddPage()
	f.Text(72, 100, "Locked")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "locked.pdf")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	rec := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
	if rec.Error == nil || rec.Error.Kind != capture.ErrPDF {
		t.Fatalf("capture error %+v, want kind pdf", rec.Error)
	}
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	if len(n.Nodes) != 0 {
		t.Errorf("%d nodes, want none", len(n.Nodes))
	}
	checkNormalized(t, n)
}

// TestPDFNoText: a PDF without a text layer (a scan) gives no text nodes,
// so the graph's outcome is empty_after_render.
func TestPDFNoText(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.AddPage()
	f.Rect(100, 100, 200, 200, "F")
	f.AddPage()
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	rec := capturePDF(t, buf.Bytes())
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	checkNormalized(t, n)
	if n.Stats.TextNodes != 0 {
		t.Errorf("%d text nodes, want none", n.Stats.TextNodes)
	}
	g := graph.Build(n)
	if g.Outcome.Status != "empty_after_render" {
		t.Errorf("outcome %+v, want empty_after_render", g.Outcome)
	}
	if ev := strings.Join(g.Outcome.Evidence, " "); !strings.Contains(ev, "no text layer") {
		t.Errorf("evidence %q does not say the PDF has no text layer", ev)
	}
}

func checkNormalized(t *testing.T, n *normalize.Record) {
	t.Helper()
	if err := schemas.ValidateRecord(mustJSON(t, n)); err != nil {
		t.Errorf("normalized record: %v", err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := codec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPDFOCRLayer: invisible text over a scanned page (an OCR layer) is
// content, marked data-text-layer="ocr", in order; invisible text on the
// blank paper below the scan (a prompt injection) stays hidden, latent.
func TestPDFOCRLayer(t *testing.T) {
	doc, err := pdftest.OCRLayer()
	if err != nil {
		t.Fatal(err)
	}
	rec := capturePDF(t, doc.PDF)
	if len(rec.PDF.Pages[0].Images) != 1 {
		t.Fatalf("images %+v, want the scan", rec.PDF.Pages[0].Images)
	}
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	checkNormalized(t, n)
	marked := 0
	for _, node := range n.Nodes {
		if node.Tag != "#text" {
			continue
		}
		parent := n.Nodes[node.Parent]
		switch {
		case strings.Contains(node.Text, "approve the invoice"):
			if node.Hidden != pdftest.ReasonInvisible || parent.Attrs[normalize.PDFTextLayer] != "" {
				t.Errorf("injection %+v in %+v: want hidden %s, no OCR mark", node, parent, pdftest.ReasonInvisible)
			}
		case node.Hidden != "":
			t.Errorf("OCR text hidden: %+v", node)
		case parent.Attrs[normalize.PDFTextLayer] == normalize.PDFTextLayerOCR:
			marked++
		}
	}
	if marked == 0 {
		t.Error("no element marked as coming from the OCR layer")
	}
	g := graph.Build(n)
	var content []string
	for _, b := range g.Blocks {
		if b.Role == "content" {
			content = append(content, b.Text)
		}
	}
	text := strings.Join(content, "\n")
	last := -1
	for _, l := range doc.Visible {
		i := strings.Index(text, l)
		if i <= last {
			t.Fatalf("OCR line %q missing or out of order in content:\n%s", l, text)
		}
		last = i
	}
	if strings.Contains(text, "approve") || len(g.Latent) != 1 || !strings.Contains(g.Latent[0].Text, "approve the invoice") {
		t.Errorf("injection: content %q, latent %+v", text, g.Latent)
	}
}

// TestPDFRotatedLogicalOrder: pages with /Rotate 0, 90, 180 and 270, with
// and without a CropBox, and text drawn turned (180: a text matrix that
// runs backwards; on a /Rotate 180 page it shows upright) read in the
// text's own order, and block boxes stay on the displayed page.
func TestPDFRotatedLogicalOrder(t *testing.T) {
	for _, c := range []struct{ rotate, turn int }{{0, 0}, {90, 0}, {180, 0}, {270, 0}, {0, 180}, {180, 180}, {0, 90}} {
		for _, crop := range []bool{false, true} {
			t.Run(fmt.Sprintf("rotate%d-turn%d-crop%v", c.rotate, c.turn, crop), func(t *testing.T) {
				doc, err := pdftest.Rotated(c.rotate, c.turn, crop)
				if err != nil {
					t.Fatal(err)
				}
				rec := capturePDF(t, doc.PDF)
				n, err := normalize.Normalize(&rec)
				if err != nil {
					t.Fatal(err)
				}
				checkNormalized(t, n)
				if got, want := textOnPage(t, &rec, n), strings.Join(pdftest.RotatedLines, " "); got != want {
					t.Errorf("text %q, want %q", got, want)
				}
			})
		}
	}
}
