package crop

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/normalize"
)

func TestLocalOf(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want Local
		ok   bool
	}{
		{`{"source":{"url":"file:///data/a%20b.pdf","final_url":"file:///data/a%20b.pdf","bytes":12}}`, Local{"/data/a b.pdf", 12}, true},
		{`{"url":"file:///data/a.pdf","final_url":"file:///data/a.pdf","stats":{"original_bytes":7}}`, Local{"/data/a.pdf", 7}, true}, // content.json
		{`{"url":"file://localhost/data/a.pdf","final_url":"file://localhost/data/a.pdf"}`, Local{"/data/a.pdf", -1}, true},
		{`{"source":{"url":"file:///data/../etc/passwd","final_url":"file:///data/../etc/passwd"}}`, Local{"/etc/passwd", -1}, true}, // read only if it is the source
		{`{"source":{"url":"https://example.org/a.pdf","final_url":"https://example.org/a.pdf"}}`, Local{}, false},
		{`{"source":{"url":"https://example.org/a.pdf","final_url":"file:///etc/passwd"}}`, Local{}, false},
		{`{"source":{"url":"file:///a.pdf","final_url":"file:///b.pdf"}}`, Local{}, false},
		{`{"source":{"url":"file://host/share/a.pdf","final_url":"file://host/share/a.pdf"}}`, Local{}, false},
		{`{"source":{"url":"file:a.pdf","final_url":"file:a.pdf"}}`, Local{}, false},
		{`{"source":{"url":"/data/a.pdf","final_url":"/data/a.pdf"}}`, Local{}, false},
		{`{"url":"file:///data/a.pdf"}`, Local{}, false},
	} {
		got, ok, refused := localOf(gjson.Parse(tc.doc))
		if ok != tc.ok || got != tc.want || refused != "" {
			t.Errorf("%s: %+v %v, want %+v %v", tc.doc, got, ok, tc.want, tc.ok)
		}
	}
}

// distilFile reads the PDF at path as sieve distill FILE does: the
// document names the file by its file:// URL.
func distilFile(t *testing.T, path string) []byte {
	t.Helper()
	c := capture.New(capture.DefaultOptions())
	defer c.Close()
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	cr := c.Capture(context.Background(), capture.Target{URL: u, Path: path})
	if cr.PDF == nil {
		t.Fatalf("capture read no PDF: %+v", cr.Error)
	}
	n, err := normalize.Normalize(&cr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := eef.Build(graph.Build(n), eef.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := c14n.Marshal(b.Document)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// naming is doc with its source's url and final_url set to path's file
// URL (they are not part of the document fingerprint: it still loads).
func naming(t *testing.T, doc []byte, path string) []byte {
	return withSourceURL(t, doc, (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String())
}

func withSourceURL(t *testing.T, doc []byte, u string) []byte {
	t.Helper()
	old := gjson.GetBytes(doc, "source.url").Str
	i := bytes.Index(doc, []byte(`"source":{`))
	out := append(append([]byte{}, doc[:i]...), bytes.ReplaceAll(doc[i:], []byte(`"`+old+`"`), []byte(`"`+u+`"`))...)
	if gjson.GetBytes(out, "source.final_url").Str != u || gjson.GetBytes(out, "source.url").Str != u {
		t.Fatalf("the document does not name %s", u)
	}
	return out
}

// TestLocalSource (issue 26): the crop of a PDF read from the local disk
// finds the file the document names when its bytes are the source's; a
// file that changed, went missing, or is not the one the document came
// from is refused with the reason, and nothing but the source's bytes is
// ever used.
func TestLocalSource(t *testing.T) {
	data := mustMarkers(t)
	path := writeTemp(t, "report.pdf", data)
	doc := distilFile(t, path)
	src, err := ground.FromEthos(doc)
	if err != nil {
		t.Fatal(err)
	}
	load := func(doc []byte, s Sources) Raster {
		t.Helper()
		src, err := ground.FromEthos(doc)
		if err != nil {
			t.Fatal(err)
		}
		ras, err := LoadRaster(doc, src, s)
		if err != nil {
			t.Fatal(err)
		}
		return ras
	}
	if ras := load(doc, Sources{}); ras.NoPixels != "" || !bytes.Equal(ras.PDFBytes, data) {
		t.Fatalf("the file the document was read from is not used: %q", ras.NoPixels)
	}
	// Through the whole chain: rendered with no --source.
	_, r := quotes(t, doc, "Alpha")
	set, err := Make(src, Targets(src, &r), load(doc, Sources{}), Options{})
	if err != nil || set.Rendered() != 1 {
		t.Fatalf("%v %+v", err, set.Descriptors)
	}

	// A document.ethos.json edited to name another file: its pages (inside
	// the fingerprint) still name the file it was read from.
	for _, other := range []string{"/etc/passwd", writeTemp(t, "other.pdf", data)} {
		ras := load(naming(t, doc, other), Sources{})
		if ras.PDFBytes != nil || !strings.Contains(ras.NoPixels, "the document names a file ("+other+") its pages were not read from") {
			t.Errorf("%s: %q", other, ras.NoPixels)
		}
	}

	// The file changes after the read: refused, and --source still wins.
	os.WriteFile(path, append(bytes.Clone(data), '\n'), 0o644)
	if ras := load(doc, Sources{}); ras.PDFBytes != nil || !strings.Contains(ras.NoPixels, "changed since it was read") {
		t.Errorf("a changed file: %q", ras.NoPixels)
	}
	if ras := load(doc, Sources{PDF: writeTemp(t, "copy.pdf", data)}); ras.NoPixels != "" {
		t.Errorf("--source: %q", ras.NoPixels)
	}
	// A web page's document names no file: today's reason.
	web := withSourceURL(t, doc, "https://example.org/doc.pdf")
	if ras := load(web, Sources{}); ras.NoPixels != noSourcePDF {
		t.Errorf("a document that names no local file: %q", ras.NoPixels)
	}
}

// TestReadLocal: a named file is read only when it is a regular file of
// the source's size, and used only when its bytes hash to the source
// fingerprint.
func TestReadLocal(t *testing.T) {
	data := mustMarkers(t)
	fp := c14n.Fingerprint(data)
	n := int64(len(data))
	fifo := filepath.Join(t.TempDir(), "fifo.pdf")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	other := bytes.Clone(data)
	other[len(other)/2] ^= 1
	st, err := os.Stat("/etc/passwd")
	if err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		name string
		l    Local
		want string
	}{
		{"the source", Local{writeTemp(t, "src.pdf", data), n}, ""},
		{"the source, size not recorded", Local{writeTemp(t, "src.pdf", data), -1}, ""},
		{"/etc/passwd", Local{"/etc/passwd", n}, "the source file changed since it was read: /etc/passwd is "},
		{"/etc/passwd of the size recorded", Local{"/etc/passwd", st.Size()}, "/etc/passwd do not hash to the document's source fingerprint"},
		{"a FIFO (opening it would block)", Local{fifo, n}, "is not a regular file"},
		{"a directory", Local{t.TempDir(), -1}, "is not a regular file"},
		{"a file of the same size", Local{writeTemp(t, "same.pdf", other), n}, "do not hash to the document's source fingerprint"},
		{"a missing file", Local{filepath.Join(t.TempDir(), "gone.pdf"), n}, "gone.pdf) is not found"},
	} {
		b, why := readLocal(tc.l, fp)
		if (tc.want == "") != (why == "") || !strings.Contains(why, tc.want) || (why == "") != bytes.Equal(b, data) || (why != "" && b != nil) {
			t.Errorf("%s: %q (%d bytes), want %q", tc.name, why, len(b), tc.want)
		}
	}
}
