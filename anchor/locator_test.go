package anchor

import (
	"strings"
	"testing"
)

// TestRefLocatorsFailClosed: every locator field a text ref carries
// narrows the search (ground.Resolve, shared with verify): a ref located
// where its text is not is a mismatch naming where the text is, a ref
// located at nothing is not_found naming the field.
func TestRefLocatorsFailClosed(t *testing.T) {
	for name, src := range pdfSources(t) {
		a := New(src)
		els := src.Elements()
		e1, e4 := els[0], els[3] // page 1 and page 2 of the fixture
		cases := []struct {
			ref    Ref
			status string
			reason string
		}{
			{Ref{Kind: KindText, Text: e1.Text, ElementRef: e1.ID}, StatusBound, ""},
			{Ref{Kind: KindText, Text: e1.Text, ElementRef: e4.ID}, StatusMismatch, "at " + e1.ID},
			{Ref{Kind: KindText, Text: e1.Text, PageRef: e4.PageRef}, StatusMismatch, "at " + e1.ID},
			{Ref{Kind: KindText, Text: e1.Text, PageRef: "p0099"}, StatusNotFound, "page"},
			{Ref{Kind: KindText, Text: e1.Text, ElementRef: "e999999"}, StatusNotFound, "element"},
			{Ref{Kind: KindText, Text: e1.Text, TableRef: "t0099"}, StatusNotFound, "table"},
			{Ref{Kind: KindText, Text: e1.Text, TableRef: "t0001"}, StatusMismatch, "at " + e1.ID},
			{Ref{Kind: KindText, Text: e1.Text, PageRef: e4.PageRef, ElementRef: e1.ID}, StatusNotFound, "element"},
			{Ref{Kind: KindText, Text: e1.Text, PageRef: e4.PageRef, BBox: []int{e4.BBox.X, e4.BBox.Y, e4.BBox.W, e4.BBox.H}}, StatusMismatch, "at " + e1.ID},
			{Ref{Kind: KindOther, Text: e1.Text, ElementRef: e4.ID}, StatusMismatch, "at " + e1.ID},
		}
		for _, c := range cases {
			c.ref.EvidenceID = "x"
			got := a.Anchor(c.ref, "", "")
			if got.Status != c.status || !strings.Contains(got.Reason, c.reason) {
				t.Errorf("%s: %+v: %s (%s), want %s (%s)", name, c.ref, got.Status, got.Reason, c.status, c.reason)
			}
		}
	}
}
