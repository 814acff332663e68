package normalize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
)

// TestPDFMirroredLogicalOrder: text drawn mirrored left to right (glyphs
// advancing leftwards), top to bottom (lines stacking upwards) and
// mirrored then turned a quarter reads in its own order, word for word,
// and block boxes stay on the displayed page.
func TestPDFMirroredLogicalOrder(t *testing.T) {
	for _, c := range []struct {
		turn     int
		vertical bool
	}{{0, false}, {0, true}, {90, false}, {270, true}} {
		t.Run(fmt.Sprintf("turn%d-vertical%v", c.turn, c.vertical), func(t *testing.T) {
			doc, err := pdftest.Mirrored(c.turn, c.vertical)
			if err != nil {
				t.Fatal(err)
			}
			rec := capturePDF(t, doc.PDF)
			if pg := rec.PDF.Pages[0]; !pg.TextMirrored {
				t.Errorf("page not marked text_mirrored (text_direction %d)", pg.TextDir)
			}
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

// TestPDFCopiesNotRunningHeader: pages that each begin with the same
// paragraph (copies of one text) keep its first lines as body text: they
// repeat in the top band of every page, but run on into the paragraph at
// its line spacing, which a running header does not.
func TestPDFCopiesNotRunningHeader(t *testing.T) {
	doc, err := pdftest.Copies(3)
	if err != nil {
		t.Fatal(err)
	}
	rec := capturePDF(t, doc.PDF)
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	checkNormalized(t, n)
	var text []string
	for _, node := range n.Nodes {
		if node.Tag == "header" || node.Tag == "footer" {
			t.Errorf("page %d has a %s", node.Page, node.Tag)
		}
		if node.Tag == "#text" {
			text = append(text, node.Text)
		}
	}
	want := strings.Repeat(strings.Join(pdftest.CopiesLines, " ")+" ", 3)
	if got := strings.Join(text, " ") + " "; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}
