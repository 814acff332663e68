package pdf

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if err := Close(); err != nil {
		code = 1
	}
	os.Exit(code)
}

func sample(t *testing.T) (*Document, []pdftest.Word) {
	t.Helper()
	data, words, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc, words
}

func TestPages(t *testing.T) {
	doc, _ := sample(t)
	want := []Page{
		{Index: 0, Width: 595.28, Height: 841.89},
		{Index: 1, Width: 841.89, Height: 595.28, Rotation: 90},
		{Index: 2, Width: 300, Height: 400},
	}
	if len(doc.Pages) != len(want) {
		t.Fatalf("%d pages, want %d", len(doc.Pages), len(want))
	}
	for i, w := range want {
		p := doc.Pages[i]
		if p.Index != w.Index || p.Width != w.Width || p.Height != w.Height || p.Rotation != w.Rotation || p.Err != "" {
			t.Errorf("page %d: index %d, %gx%g, rotation %d, err %q; want %d, %gx%g, %d",
				i, p.Index, p.Width, p.Height, p.Rotation, p.Err, w.Index, w.Width, w.Height, w.Rotation)
		}
	}
}

// TestWordBoxes checks that every drawn word comes out within 1 pt of
// where fpdf drew it, also on the rotated page and inside the offset crop.
func TestWordBoxes(t *testing.T) {
	doc, words := sample(t)
	for _, w := range words {
		got, ok := findWord(doc.Pages[w.Page], w.Text)
		if !ok {
			t.Errorf("page %d: no word %q in %v", w.Page, w.Text, doc.Pages[w.Page].Lines())
			continue
		}
		b := got.Box
		if !near(b.X0, w.X0) || !near(b.Y0, w.Y0) || !near(b.X1, w.X1) || !near(b.Y1, w.Y1) {
			t.Errorf("page %d %q: box %v, want within 1 pt of [%.2f %.2f %.2f %.2f]",
				w.Page, w.Text, b, w.X0, w.Y0, w.X1, w.Y1)
		}
		if got.FontSize != 12 {
			t.Errorf("page %d %q: font size %g, want 12", w.Page, w.Text, got.FontSize)
		}
	}
}

func TestLines(t *testing.T) {
	doc, _ := sample(t)
	lines := doc.Pages[0].Lines()
	var texts [][]string
	for _, l := range lines {
		var ws []string
		for _, w := range l.Words {
			ws = append(ws, w.Text)
		}
		texts = append(texts, ws)
	}
	if len(texts) != 2 || len(texts[0]) != 2 || texts[0][0] != "Hello" || texts[0][1] != "World" ||
		len(texts[1]) != 1 || texts[1][0] != "Middle" {
		t.Fatalf("page 0 lines %v, want [[Hello World] [Middle]]", texts)
	}
	if l := lines[0]; l.Box != l.Words[0].Box.Union(l.Words[1].Box) {
		t.Errorf("line box %v is not the union of its words", l.Box)
	}
}

func findWord(p Page, text string) (Word, bool) {
	for _, l := range p.Lines() {
		for _, w := range l.Words {
			if w.Text == text {
				return w, true
			}
		}
	}
	return Word{}, false
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1 }

func TestEncrypted(t *testing.T) {
	data, err := pdftest.Encrypted()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(data); !errors.Is(err, ErrEncrypted) {
		t.Fatalf("Parse(encrypted) = %v, want ErrEncrypted", err)
	}
}

// TestPassword: the user password opens an encrypted document, a wrong one
// says so, and no error carries the password.
func TestPassword(t *testing.T) {
	doc, err := pdftest.EncryptedDoc()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParsePassword(doc.PDF, doc.Password)
	if err != nil {
		t.Fatalf("ParsePassword(right password) = %v", err)
	}
	if len(got.Pages) != 1 {
		t.Fatalf("read %d pages, want 1", len(got.Pages))
	}
	if _, ok := findWord(got.Pages[0], "Locked"); !ok {
		t.Errorf("no word Locked on the page: %v", got.Pages[0].Lines())
	}
	if _, err := ParsePassword(doc.PDF, "owner"); err != nil {
		t.Errorf("ParsePassword(owner password) = %v", err)
	}
	_, err = ParsePassword(doc.PDF, "hunter2-wrong")
	if !errors.Is(err, ErrWrongPassword) || errors.Is(err, ErrEncrypted) {
		t.Fatalf("ParsePassword(wrong password) = %v, want ErrWrongPassword", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the error %q carries the password", err)
	}
	if _, err := ParsePassword(doc.PDF, ""); !errors.Is(err, ErrEncrypted) {
		t.Errorf("ParsePassword(no password) = %v, want ErrEncrypted", err)
	}
	plain, err := pdftest.TwoColumn()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePassword(plain.PDF, "unused"); err != nil {
		t.Errorf("an unencrypted document with a password: %v", err)
	}
}

func TestBroken(t *testing.T) {
	garbage := append([]byte("%PDF-1.7\n"), []byte("this is not a PDF body \x00\x01\x02 at all\n")...)
	for name, data := range map[string][]byte{"garbage": garbage, "empty": {}, "header only": []byte("%PDF-")} {
		if _, err := Parse(data); !errors.Is(err, ErrBroken) {
			t.Errorf("Parse(%s) = %v, want ErrBroken", name, err)
		}
	}
}

// TestTruncated: fpdf writes the page tree after the content, so a cut
// file has no pages PDFium could recover; the engine stays usable.
func TestTruncated(t *testing.T) {
	data, _, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{len(data) / 2, len(data) - 40, 20} {
		if _, err := Parse(data[:n]); !errors.Is(err, ErrBroken) {
			t.Errorf("cut at %d: %v, want ErrBroken", n, err)
		}
	}
	if doc, _ := sample(t); len(doc.Pages) != 3 {
		t.Fatalf("after truncated input: %d pages, want 3", len(doc.Pages))
	}
}

// TestCloseRestarts: after Close the next Parse starts the engine anew,
// also when Close races with parses.
func TestCloseRestarts(t *testing.T) {
	data, _, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 4)
	for range 4 {
		go func() {
			doc, err := Parse(data)
			if err == nil && len(doc.Pages) != 3 {
				err = errors.New("wrong page count")
			}
			done <- err
		}()
	}
	if err := Close(); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Errorf("Parse during Close: %v", err)
		}
	}
	if _, err := Parse(data); err != nil {
		t.Fatalf("Parse after Close: %v", err)
	}
}

// TestTooSlow: a document that takes longer than the limit is stopped
// with ErrTooSlow, and the engine reads the next one.
// The document is long enough (some 100 ms) that the 1µs watchdog fires
// before it is read even on a busy machine: with the three-page sample it
// sometimes did not.
func TestTooSlow(t *testing.T) {
	data := longDoc(t, 40)
	defer func(d time.Duration) { docTimeout = d }(docTimeout)
	docTimeout = time.Microsecond
	if _, err := Parse(data); !errors.Is(err, ErrTooSlow) {
		t.Fatalf("Parse with a 1µs limit = %v, want ErrTooSlow", err)
	}
	docTimeout = time.Minute
	if doc, _ := sample(t); len(doc.Pages) != 3 || len(doc.Pages[0].Chars) == 0 {
		t.Fatalf("after a stopped document: %d pages", len(doc.Pages))
	}
}

// TestLimits: pages past the page limit are listed unread, a page's text
// stops at the per-page limit and the document's at its budget, each said
// in the page's Err.
func TestLimits(t *testing.T) {
	data, _, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	defer func(l struct{ pages, pageChars, docChars int }) { limits = l }(limits)
	limits.pages, limits.pageChars, limits.docChars = 2, 4, 6
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages
	if len(p) != 3 || len(p[0].Chars) != 4 || !strings.Contains(p[0].Err, "cut after 4") ||
		len(p[1].Chars) != 2 || !strings.Contains(p[1].Err, "first 6 characters") ||
		len(p[2].Chars) != 0 || !strings.Contains(p[2].Err, "more than 2 pages") {
		for _, pg := range p {
			t.Logf("page %d: %d chars, err %q", pg.Index, len(pg.Chars), pg.Err)
		}
		t.Fatal("limits not applied as expected")
	}
}

// longDoc is a PDF of pages full of text.
func longDoc(t *testing.T, pages int) []byte {
	t.Helper()
	f := fpdf.New("P", "pt", "A4", "")
	f.SetFont("Helvetica", "", 9)
	line := strings.Repeat("lorem ipsum dolor sit amet ", 4)
	for range pages {
		f.AddPage()
		for y := 40.0; y < 800; y += 11 {
			f.Text(40, y, line)
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
