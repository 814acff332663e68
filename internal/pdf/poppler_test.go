package pdf

import (
	"encoding/xml"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// bboxDoc is the part of pdftotext -bbox-layout's XHTML this test reads.
type bboxDoc struct {
	XMLName xml.Name `xml:"html"`
	Pages   []struct {
		Words []struct {
			XMin float64 `xml:"xMin,attr"`
			YMin float64 `xml:"yMin,attr"`
			XMax float64 `xml:"xMax,attr"`
			YMax float64 `xml:"yMax,attr"`
			Text string  `xml:",chardata"`
		} `xml:"flow>block>line>word"`
	} `xml:"body>doc>page"`
}

// TestMatchesPoppler compares word boxes with poppler's (Debian
// poppler-utils), when installed. Poppler's boxes run from the font's
// ascent to its descent and ours are glyph boxes, so the edge on the
// baseline side may differ by the descent (a quarter em); the others must
// agree within 1 pt.
func TestMatchesPoppler(t *testing.T) {
	tool, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	data, _, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sample.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-cropbox", "-bbox-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	var ref bboxDoc
	if err := xml.Unmarshal(out, &ref); err != nil {
		t.Fatalf("reading pdftotext output: %v", err)
	}
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i, pp := range ref.Pages {
		for _, pw := range pp.Words {
			w, ok := findWord(doc.Pages[i], pw.Text)
			if !ok {
				t.Errorf("page %d: poppler's word %q not found", i, pw.Text)
				continue
			}
			want := Box{pw.XMin, pw.YMin, pw.XMax, pw.YMax}
			if !agree(w.Box, want, doc.Pages[i].Rotation, w.FontSize/4) {
				t.Errorf("page %d %q: box %v, poppler %v", i, pw.Text, w.Box, want)
			}
			checked++
		}
	}
	if checked != 5 {
		t.Errorf("compared %d words, want 5", checked)
	}
}

// agree compares two boxes edge by edge; the baseline-side edge (which
// depends on the rotation) may differ by up to descent.
func agree(got, want Box, rotation int, descent float64) bool {
	g := [4]float64{got.X0, got.Y0, got.X1, got.Y1}
	w := [4]float64{want.X0, want.Y0, want.X1, want.Y1}
	baseline := map[int]int{0: 3, 90: 0, 180: 1, 270: 2}[rotation]
	for i := range g {
		tol := 1.0
		if i == baseline {
			tol = descent
		}
		if math.Abs(g[i]-w[i]) > tol {
			return false
		}
	}
	return true
}
