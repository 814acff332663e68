package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// servePDF serves data at /doc with the given Content-Type.
func servePDF(t *testing.T, data []byte, contentType string) string {
	t.Helper()
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Write(data)
	}))
	return srv.URL + "/doc"
}

func samplePDF(t *testing.T) ([]byte, []pdftest.Word) {
	t.Helper()
	data, words, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	return data, words
}

// checkSample checks the pdf facts of pdftest.Sample: pages, and every
// drawn word as a span within 1 pt of where it was drawn.
func checkSample(t *testing.T, rec Record, data []byte, words []pdftest.Word) {
	t.Helper()
	wantOK(t, rec)
	if rec.ContentType != "application/pdf" || rec.Body != "" || rec.PDF == nil {
		t.Fatalf("content_type %q, body %d bytes, pdf %v: want application/pdf, no body, pdf facts",
			rec.ContentType, len(rec.Body), rec.PDF != nil)
	}
	sum := sha256.Sum256(data)
	if rec.SourceFingerprint != "sha256:"+hex.EncodeToString(sum[:]) || rec.BodyBytes != int64(len(data)) {
		t.Errorf("fingerprint %s over %d bytes, want the sha256 of the %d-byte file", rec.SourceFingerprint, rec.BodyBytes, len(data))
	}
	p := rec.PDF
	if p.PageCount != 3 || len(p.Pages) != 3 {
		t.Fatalf("page_count %d, %d pages; want 3", p.PageCount, len(p.Pages))
	}
	if pg := p.Pages[1]; pg.Rotation != 90 || pg.Width != 841.89 || pg.Height != 595.28 {
		t.Errorf("page 1: rotation %d, %gx%g; want 90, 841.89x595.28", pg.Rotation, pg.Width, pg.Height)
	}
	if pg := p.Pages[2]; pg.Width != 300 || pg.Height != 400 {
		t.Errorf("page 2: %gx%g, want the 300x400 CropBox", pg.Width, pg.Height)
	}
	for _, w := range words {
		s, ok := findSpan(p.Pages[w.Page], w.Text)
		if !ok {
			t.Errorf("page %d: no span %q", w.Page, w.Text)
			continue
		}
		b := s.Box
		got := [4]float64{b.X, b.Y, b.X + b.W, b.Y + b.H}
		for i, want := range [4]float64{w.X0, w.Y0, w.X1, w.Y1} {
			if math.Abs(got[i]-want) > 1 {
				t.Errorf("page %d %q: box %v, want within 1 pt of [%g %g %g %g]", w.Page, w.Text, got, w.X0, w.Y0, w.X1, w.Y1)
				break
			}
		}
		if s.Size != 12 {
			t.Errorf("page %d %q: size %g, want 12", w.Page, w.Text, s.Size)
		}
	}
}

func findSpan(p PDFPage, text string) (PDFSpan, bool) {
	for _, l := range p.Lines {
		for _, s := range l.Spans {
			if s.Text == text {
				return s, true
			}
		}
	}
	return PDFSpan{}, false
}

func TestPDFFromURL(t *testing.T) {
	data, words := samplePDF(t)
	c := newCapturer(t, testOptions())
	for _, ct := range []string{"application/pdf", "application/octet-stream", "text/plain"} {
		t.Run(ct, func(t *testing.T) {
			checkSample(t, captureURL(t, c, servePDF(t, data, ct)), data, words)
		})
	}
}

func TestPDFFromFile(t *testing.T) {
	data, words := samplePDF(t)
	dir := t.TempDir()
	c := newCapturer(t, testOptions())
	for _, name := range []string{"doc.pdf", "doc.bin", "no-extension"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { checkSample(t, captureURL(t, c, path), data, words) })
	}
}

// TestPDFDeterministic: the same file gives the same pdf facts, byte for byte.
func TestPDFDeterministic(t *testing.T) {
	data, _ := samplePDF(t)
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newCapturer(t, testOptions())
	var outs []string
	for range 2 {
		b, err := codec.Marshal(captureURL(t, c, path).PDF)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(b))
	}
	if outs[0] != outs[1] {
		t.Fatalf("two captures differ:\n%s\n%s", outs[0], outs[1])
	}
}

func TestPDFErrors(t *testing.T) {
	sample, _ := samplePDF(t)
	encrypted, err := pdftest.Encrypted()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, contentType string
		data              []byte
		want              string // in the error message
	}{
		{"encrypted", "application/pdf", encrypted, "encrypted"},
		{"garbage", "application/octet-stream", []byte("%PDF-1.7\nnot a PDF at all \x00\x01\x02\n"), "broken"},
		{"truncated", "application/pdf", sample[:len(sample)/2], "broken"},
		{"empty", "application/pdf", nil, "empty"},
		{"html served as pdf", "application/pdf", []byte("<html>not found</html>"), "broken"},
	}
	c := newCapturer(t, testOptions())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := captureURL(t, c, servePDF(t, tc.data, tc.contentType))
			wantError(t, rec, ErrPDF)
			if !strings.Contains(rec.Error.Message, tc.want) || rec.PDF != nil || rec.ContentType != "application/pdf" {
				t.Errorf("error %q, pdf %v, content_type %q; want a message with %q, no pdf facts, application/pdf",
					rec.Error.Message, rec.PDF != nil, rec.ContentType, tc.want)
			}
		})
	}
}

// TestPDFPassword: --password opens an encrypted PDF, a wrong one and none
// say which, and the password is in no record.
func TestPDFPassword(t *testing.T) {
	doc, err := pdftest.EncryptedDoc()
	if err != nil {
		t.Fatal(err)
	}
	url := servePDF(t, doc.PDF, "application/pdf")
	cases := []struct {
		name, password, want string // want: in the error message; "" for none
	}{
		{"right", doc.Password, ""},
		{"wrong", "hunter2", "encrypted: the password given does not open it"},
		{"none", "", "encrypted: a password is needed (4: invalid password): give it with --password or --password-file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := testOptions()
			o.PDFPassword = tc.password
			rec := captureURL(t, newCapturer(t, o), url)
			b, err := codec.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			if tc.password != "" && strings.Contains(string(b), tc.password) {
				t.Errorf("the record carries the password %q", tc.password)
			}
			if tc.want == "" {
				if rec.Error != nil || rec.PDF == nil || !strings.Contains(string(b), `"text":"Locked"`) {
					t.Fatalf("error %v, pdf %v; want the page read, with the word Locked", rec.Error, rec.PDF != nil)
				}
				return
			}
			wantError(t, rec, ErrPDF)
			if !strings.Contains(rec.Error.Message, tc.want) || rec.PDF != nil {
				t.Errorf("error %q, pdf %v; want a message with %q and no pdf facts", rec.Error.Message, rec.PDF != nil, tc.want)
			}
		})
	}
}

// TestPDFSizeCap: a PDF cut at --max-bytes is error kind pdf that says so.
func TestPDFSizeCap(t *testing.T) {
	data, _ := samplePDF(t)
	o := testOptions()
	o.MaxBytes = int64(len(data) / 2)
	rec := captureURL(t, newCapturer(t, o), servePDF(t, data, "application/pdf"))
	wantError(t, rec, ErrPDF)
	if !rec.Truncated || !strings.Contains(rec.Error.Message, "size cap") {
		t.Errorf("truncated %v, error %q: want truncated and a message naming the size cap", rec.Truncated, rec.Error.Message)
	}
}
