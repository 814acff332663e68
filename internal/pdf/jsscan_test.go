package pdf

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// TestFindScriptsEachPlace: JavaScript in one place only is found there,
// with its page and event where it has them.
func TestFindScriptsEachPlace(t *testing.T) {
	want := map[string]Script{
		"open_action":   {Where: ScriptOpenAction, Page: -1},
		"document_aa":   {Where: ScriptDocumentAA, Page: -1, Event: "WC"},
		"page_aa":       {Where: ScriptPageAA, Page: 0, Event: "O"},
		"annotation_aa": {Where: ScriptAnnotAA, Page: 0, Event: "E", Subtype: "text"},
		"link_action":   {Where: ScriptAnnotation, Page: 0, Subtype: "link"},
		"widget_aa":     {Where: ScriptAnnotAA, Page: 0, Event: "K", Subtype: "widget"},
		"names":         {Where: ScriptNames, Page: -1, Event: "init"},
	}
	for _, p := range pdftest.ScriptPlaces {
		data, err := pdftest.ScriptPDF(p.Place)
		if err != nil {
			t.Fatal(err)
		}
		got := FindScripts(data)
		if len(got) != 1 || got[0] != want[p.Place] || got[0].Where != p.Where {
			t.Errorf("%s: %+v, want %+v", p.Place, got, want[p.Place])
		}
	}
}

func TestFindScriptsNone(t *testing.T) {
	d, err := pdftest.TwoColumn()
	if err != nil {
		t.Fatal(err)
	}
	if got := FindScripts(d.PDF); len(got) != 0 {
		t.Errorf("scripts %+v in a document without any", got)
	}
	for _, junk := range [][]byte{nil, []byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /OpenAction << /S /JavaScript"), []byte("obj obj 1 0 obj [[[[[[")} {
		_ = FindScripts(junk) // must not panic
	}
}

// TestFindScriptsChainsAndObfuscation: /Next chains (with a cycle), a
// name written with #xx escapes, an action without /S but with /JS, and
// an indirect action used twice counted once.
func TestFindScriptsChainsAndObfuscation(t *testing.T) {
	data := pdftest.RawPDF(
		"<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R /AA << /WS 4 0 R /DP 6 0 R >> >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
		"<< /S /URI /URI (https://example.org/) /Next [5 0 R 4 0 R] >>",
		"<< /S /J#61va#53cript /JS <6170702e616c657274283129> /Next 5 0 R >>",
		"<< /JS (this.print\\(\\)) >>",
	)
	got := FindScripts(data)
	want := []Script{
		{Where: ScriptOpenAction, Page: -1},
		{Where: ScriptDocumentAA, Page: -1, Event: "DP"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scripts\n%+v\nwant\n%+v", got, want)
	}
}

// TestFindScriptsObjectStream: a script whose catalog and action live in a
// compressed object stream (a cross-reference stream names the root).
func TestFindScriptsObjectStream(t *testing.T) {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /Names << /JavaScript 3 0 R >> >>",
		"<< /Type /Pages /Kids [] /Count 0 >>",
		"<< /Kids [4 0 R] >>",
		"<< /Limits [(a) (z)] /Names [(a) << /S /JavaScript /JS (1) >> (b) << /S /JavaScript /JS (2) >>] >>",
	}
	var head, body bytes.Buffer
	for i, o := range objs {
		fmt.Fprintf(&head, "%d %d ", i+1, body.Len())
		body.WriteString(o + "\n")
	}
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(append(head.Bytes(), body.Bytes()...))
	zw.Close()
	var f bytes.Buffer
	f.WriteString("%PDF-1.7\n")
	fmt.Fprintf(&f, "5 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n", len(objs), head.Len(), z.Len())
	f.Write(z.Bytes())
	f.WriteString("\nendstream\nendobj\n")
	f.WriteString("6 0 obj\n<< /Type /XRef /Root 1 0 R /Size 7 /W [1 4 2] /Length 0 >>\nstream\n\nendstream\nendobj\n%%EOF\n")
	got := FindScripts(f.Bytes())
	want := []Script{{Where: ScriptNames, Page: -1, Event: "a"}, {Where: ScriptNames, Page: -1, Event: "b"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("scripts %+v, want %+v", got, want)
	}
}

// TestFindScriptsFpdf: fpdf's document-level script (a name tree) is
// found as PDFium counts it.
func TestFindScriptsFpdf(t *testing.T) {
	d, err := pdftest.Links()
	if err != nil {
		t.Fatal(err)
	}
	got := FindScripts(d.PDF)
	if len(got) != 1 || got[0].Where != ScriptNames {
		t.Errorf("links document: %+v, want one names script", got)
	}
}

// TestFindScriptsCorpusTime reports the scan's time and finds on the
// corpus (skipped when it is absent).
func TestFindScriptsCorpusTime(t *testing.T) {
	for _, f := range pdftest.CorpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		got := FindScripts(data)
		t.Logf("%s: %d bytes, %d scripts, %s", filepath.Base(f), len(data), len(got), time.Since(start))
	}
}

// TestFindScriptsDeepNesting: nesting far past the depth limit neither
// recurses without bound nor stops the scan of later objects.
func TestFindScriptsDeepNesting(t *testing.T) {
	deep := "9 0 obj\n" + strings.Repeat("[", 1<<20) + "\nendobj\n" + strings.Repeat("<<", 1<<18)
	data := append([]byte(deep), pdftest.RawPDF(
		"<< /Type /Catalog /Pages 2 0 R /OpenAction << /S /JavaScript /JS (x) >> >>",
		"<< /Type /Pages /Kids [] /Count 0 >>")...)
	if got := FindScripts(data); len(got) != 1 || got[0].Where != ScriptOpenAction {
		t.Errorf("scripts %+v", got)
	}
}

func FuzzFindScripts(f *testing.F) {
	for _, p := range pdftest.ScriptPlaces {
		data, err := pdftest.ScriptPDF(p.Place)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("1 0 obj << /Type /ObjStm /N 2 /First 4 /Filter /FlateDecode >> stream\nxx\nendstream trailer << /Root 1 0 R >>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = FindScripts(data)
	})
}
