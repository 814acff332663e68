package graph

import (
	"strings"
	"testing"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// TestPDFUnmappedTextGap: a page whose text layer left out text drawn in
// a font without a Unicode mapping says so in a gap; a page without such
// text, or one OCR read, does not.
func TestPDFUnmappedTextGap(t *testing.T) {
	info := &capture.PDFInfo{PageCount: 3, Pages: []capture.PDFPageInfo{
		{Index: 0, Width: 612, Height: 792, Unmapped: 508},
		{Index: 1, Width: 612, Height: 792},
		{Index: 2, Width: 612, Height: 792, Unmapped: 40, OCR: &capture.PDFPageOCR{Engine: "tesseract 5.3.0", DPI: 300, Words: 120}},
	}}
	d := newPDFDoc(info)
	for i := 1; i <= 3; i++ {
		d.newPage(i, 612, 792)
		d.text(d.section, "p", "Revenue grew 12% to $4.5 million in 2025.", 72, 100, 400, 14)
	}
	g := Build(d.rec)
	var got []Gap
	for _, gap := range g.Gaps {
		if gap.Kind == GapUnmappedText {
			got = append(got, gap)
		}
	}
	if len(got) != 1 || got[0].Label != "page 1 (text without Unicode)" || !strings.Contains(got[0].Reason, "508 runs") {
		t.Errorf("unmapped_text gaps %+v, want one for page 1", got)
	}
}
