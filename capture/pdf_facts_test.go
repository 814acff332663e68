package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/sieve-dev/sieve/internal/blob"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// capturePDF writes data to a file and captures it.
func capturePDF(t *testing.T, data []byte) Record {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rec := captureURL(t, newCapturer(t, testOptions()), path)
	wantOK(t, rec)
	return rec
}

func output(t *testing.T, f *fpdf.Fpdf) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPDFSpanStyle: font, weight, italic, colour, alpha and render mode
// reach the spans, and default values stay out of the record.
func TestPDFSpanStyle(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.AddPage()
	text := func(y float64, family, style, s string) {
		f.SetFont(family, style, 12)
		f.Text(72, y, s)
	}
	text(100, "Helvetica", "", "Plain")
	text(130, "Helvetica", "B", "Heavy")
	text(160, "Times", "I", "Slanted")
	f.SetTextColor(255, 255, 255)
	text(190, "Helvetica", "", "White")
	f.SetTextColor(0, 0, 0)
	f.SetAlpha(0, "Normal")
	text(220, "Helvetica", "", "Clear")
	f.SetAlpha(1, "Normal")
	f.SetTextRenderingMode(3)
	text(250, "Helvetica", "", "Ghost")
	rec := capturePDF(t, output(t, f))
	zero := 0
	want := map[string]PDFSpan{
		"Plain":   {Font: "Helvetica"},
		"Heavy":   {Font: "Helvetica-Bold", Weight: 700},
		"Slanted": {Font: "Times-Italic", Italic: true},
		"White":   {Font: "Helvetica", Color: "#ffffff"},
		"Clear":   {Font: "Helvetica", Alpha: &zero},
		"Ghost":   {Font: "Helvetica", Render: 3},
	}
	for text, w := range want {
		s, ok := findSpan(rec.PDF.Pages[0], text)
		if !ok {
			t.Errorf("no span %q", text)
			continue
		}
		if s.Font != w.Font || s.Weight != w.Weight || s.Italic != w.Italic || s.Color != w.Color ||
			s.Render != w.Render || s.MCID != nil || (s.Alpha == nil) != (w.Alpha == nil) ||
			s.Alpha != nil && *s.Alpha != *w.Alpha {
			t.Errorf("%q: font %q weight %d italic %v color %q alpha %v render %d mcid %v; want %+v",
				text, s.Font, s.Weight, s.Italic, s.Color, s.Alpha, s.Render, s.MCID, w)
		}
	}
}

// TestPDFTags: a Chromium tagged PDF gives the document tagged, the page's
// structure tree, and spans whose mcid joins them to it.
func TestPDFTags(t *testing.T) {
	rec := capturePDF(t, pdftest.TaggedTable().PDF)
	p := rec.PDF
	if !p.Tagged || len(p.Pages[0].Tags) == 0 {
		t.Fatalf("tagged %v, %d top-level tags: want a tagged document with a tree", p.Tagged, len(p.Pages[0].Tags))
	}
	ids := map[int]bool{}
	var walk func([]PDFTag)
	walk = func(ts []PDFTag) {
		for _, tg := range ts {
			for _, id := range tg.MCIDs {
				ids[id] = true
			}
			walk(tg.Kids)
		}
	}
	walk(p.Pages[0].Tags)
	s, ok := findSpan(p.Pages[0], "Cherries")
	if !ok || s.MCID == nil || !ids[*s.MCID] {
		t.Errorf("span Cherries %+v: want an mcid that a tag holds (%v)", s, ids)
	}
	plain := capturePDF(t, output(t, func() *fpdf.Fpdf {
		f := fpdf.New("P", "pt", "A4", "")
		f.AddPage()
		f.SetFont("Helvetica", "", 12)
		f.Text(72, 72, "Untagged")
		return f
	}()))
	if plain.PDF.Tagged || plain.PDF.Pages[0].Tags != nil {
		t.Errorf("fpdf PDF: tagged %v, tags %v; want neither", plain.PDF.Tagged, plain.PDF.Pages[0].Tags)
	}
}

// TestPDFRects: path objects reach the page as boxes with their paint.
func TestPDFRects(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.AddPage()
	f.SetFillColor(255, 255, 255)
	f.Rect(100, 100, 200, 50, "F")
	f.SetDrawColor(0, 0, 0)
	f.SetLineWidth(1)
	f.Line(100, 300, 300, 300)
	rects := capturePDF(t, output(t, f)).PDF.Pages[0].Rects
	want := []PDFRect{
		{Box: PDFBox{X: 100, Y: 100, W: 200, H: 50}, Fill: "#ffffff"},
		// PDFium pads a stroked path's bounds by the line width on each side.
		{Box: PDFBox{X: 99, Y: 299, W: 202, H: 2}, Stroke: "#000000"},
	}
	if len(rects) != len(want) {
		t.Fatalf("rects %+v, want %+v", rects, want)
	}
	for i, w := range want {
		if rects[i] != w {
			t.Errorf("rect %d: %+v, want %+v", i, rects[i], w)
		}
	}
}

// TestPDFDocumentFacts: links, bookmarks, metadata, attachments and
// document JavaScript reach the record.
func TestPDFDocumentFacts(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetTitle("Field Guide", true)
	f.SetFont("Helvetica", "", 12)
	jump := f.AddLink()
	f.AddPage()
	f.Bookmark("Start", 0, 0)
	f.Text(72, 100, "Site")
	f.LinkString(72, 88, 40, 16, "https://example.com/a")
	f.Link(72, 188, 40, 16, jump)
	f.AddPage()
	f.SetLink(jump, 0, 2)
	f.Bookmark("End", 0, 0)
	p := capturePDF(t, output(t, f)).PDF
	links := p.Pages[0].Links
	if len(links) != 2 || links[0].Action != "uri" || links[0].URI != "https://example.com/a" || links[0].Page != nil ||
		links[0].Box != (PDFBox{X: 72, Y: 88, W: 40, H: 16}) || links[1].Action != "goto" || links[1].Page == nil || *links[1].Page != 1 {
		t.Errorf("links %+v: want a uri link at (72,88) and a goto to page index 1", links)
	}
	if len(p.Bookmarks) != 2 || p.Bookmarks[1].Title != "End" || p.Bookmarks[1].Level != 1 || *p.Bookmarks[1].Page != 1 {
		t.Errorf("bookmarks %+v", p.Bookmarks)
	}
	if p.Metadata["Title"] != "Field Guide" {
		t.Errorf("metadata %v", p.Metadata)
	}
	info := p.Info()
	if len(info.Pages[0].Links) != 2 || info.Metadata["Title"] != "Field Guide" {
		t.Errorf("Info() lost the links or metadata: %+v", info)
	}

	g := fpdf.New("P", "pt", "A4", "")
	g.SetAttachments([]fpdf.Attachment{{Content: []byte("notes\n"), Filename: "notes.txt"}})
	g.SetJavascript("app.alert('hi');")
	g.AddPage()
	q := capturePDF(t, output(t, g)).PDF
	if q.JavaScript != 1 || len(q.Attachments) != 1 || q.Attachments[0].Name != "notes.txt" {
		t.Errorf("javascript %d, attachments %+v; want 1 and notes.txt", q.JavaScript, q.Attachments)
	}
}

// TestPDFSourceInBlobs: with a blob store, a PDF's bytes (also an
// unreadable one's) are kept under the record's source_fingerprint, for
// files and URLs; without one nothing is written.
func TestPDFSourceInBlobs(t *testing.T) {
	data, _ := samplePDF(t)
	broken := []byte("%PDF-1.7\nnot a PDF at all\n")
	dir := t.TempDir()
	o := testOptions()
	o.Browser.Blobs = dir
	c := newCapturer(t, o)
	store, err := blob.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		target string
		data   []byte
	}{
		"file":   {path, data},
		"url":    {servePDF(t, data, "application/pdf"), data},
		"broken": {servePDF(t, broken, "application/pdf"), broken},
	} {
		rec := captureURL(t, c, tc.target)
		got, err := store.Get(rec.SourceFingerprint)
		if err != nil || !bytes.Equal(got, tc.data) {
			t.Errorf("%s: blob %s: %d bytes, %v; want the %d source bytes", name, rec.SourceFingerprint, len(got), err, len(tc.data))
		}
	}
	// A store that cannot take the file: its fan-out directory is a file.
	bad := t.TempDir()
	o.Browser.Blobs = bad
	hex := strings.TrimPrefix(blob.Key(data), "sha256:")
	if err := os.WriteFile(filepath.Join(bad, hex[:2]), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rec := captureURL(t, newCapturer(t, o), path)
	wantError(t, rec, ErrPDF)
	if rec.PDF == nil || !strings.Contains(rec.Error.Message, "could not be kept") {
		t.Errorf("pdf %v, error %q: want the facts and an error saying the bytes were not kept", rec.PDF != nil, rec.Error.Message)
	}
}
