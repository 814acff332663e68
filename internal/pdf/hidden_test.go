package pdf

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// TestHiddenFacts: for each way pdftest hides text, every word of the
// hidden string carries the fact the layout step needs to see it hidden,
// and the visible text does not.
func TestHiddenFacts(t *testing.T) {
	untagged, err := pdftest.HiddenText()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []pdftest.Doc{untagged, pdftest.TaggedHidden()} {
		t.Run(d.Name, func(t *testing.T) {
			doc, err := Parse(d.PDF)
			if err != nil {
				t.Fatal(err)
			}
			p := doc.Pages[0]
			for _, h := range d.Hidden {
				l, ok := findLine(p, h.Text)
				if !ok {
					t.Errorf("no line %q", h.Text)
					continue
				}
				for _, w := range l.Words {
					if !hiddenBy(w, p, h.Reason) {
						t.Errorf("%q: word %q (%+v, size %g, box %v) does not show %s", h.Text, w.Text, w.Style, w.FontSize, w.Box, h.Reason)
					}
				}
			}
			seen := 0
			for _, v := range d.Visible {
				l, ok := findLine(p, v)
				if !ok {
					continue // a visible paragraph may wrap; the hidden lines are the point
				}
				seen++
				for _, w := range l.Words {
					for _, r := range []string{pdftest.ReasonSameColor, pdftest.ReasonInvisible, pdftest.ReasonTransparent, pdftest.ReasonOffPage, pdftest.ReasonTiny} {
						if hiddenBy(w, p, r) {
							t.Errorf("visible word %q looks %s: %+v", w.Text, r, w)
						}
					}
				}
			}
			if seen == 0 {
				t.Error("no visible paragraph found as a line")
			}
		})
	}
}

func hiddenBy(w Word, p Page, reason string) bool {
	switch reason {
	case pdftest.ReasonSameColor:
		return w.Style.Color == 0xffffff
	case pdftest.ReasonInvisible:
		return w.Style.Render == 3 || w.Style.Render == 7
	case pdftest.ReasonTransparent:
		return w.Style.Alpha == 0
	case pdftest.ReasonOffPage:
		return w.Box.Y1 <= 0 || w.Box.X1 <= 0 || w.Box.Y0 >= p.Height || w.Box.X0 >= p.Width
	case pdftest.ReasonTiny:
		return w.FontSize < 1
	}
	return false
}

// findLine is the line whose words, joined by spaces, are text.
func findLine(p Page, text string) (Line, bool) {
	for _, l := range p.Lines() {
		var ws []string
		for _, w := range l.Words {
			ws = append(ws, w.Text)
		}
		if strings.Join(ws, " ") == text {
			return l, true
		}
	}
	return Line{}, false
}
