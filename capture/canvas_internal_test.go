package capture

import (
	"reflect"
	"testing"
)

// TestCanvasSpliceKeepsPreOrder: text read off a canvas goes after the
// canvas's own subtree (its fallback), parents re-pointed.
func TestCanvasSpliceKeepsPreOrder(t *testing.T) {
	nodes := []DOMNode{
		{Parent: -1, Tag: "html"},
		{Parent: 0, Tag: "body"},
		{Parent: 1, Tag: "canvas"},
		{Parent: 2, Tag: "p"},
		{Parent: 3, Tag: "#text", Text: "fallback"},
		{Parent: 1, Tag: "p"},
		{Parent: 5, Tag: "#text", Text: "after"},
	}
	if end := subtreeEnd(nodes, 2); end != 5 {
		t.Fatalf("subtreeEnd %d, want 5", end)
	}
	add := textBlock(1, 0, SourceCanvasOCR, "read", Box{W: 1, H: 1}, "", "")
	got := splice(nodes, 5, add)
	parents := []int{}
	for _, d := range got {
		parents = append(parents, d.Parent)
	}
	if want := []int{-1, 0, 1, 2, 3, 1, 5, 1, 7}; !reflect.DeepEqual(parents, want) {
		t.Errorf("parents %v, want %v", parents, want)
	}
	if got[6].Text != "read" || got[8].Text != "after" || got[5].Source != SourceCanvasOCR {
		t.Errorf("nodes %+v", got)
	}
}

func TestCanvasScaleBudget(t *testing.T) {
	for _, c := range []struct {
		b         Box
		min, max  float64
		downscale bool
	}{
		{Box{W: 900, H: 420}, 2, 2, false},
		{Box{W: 16000, H: 16000}, 0.124, 0.126, true},
	} {
		s := canvasScale(c.b)
		px := s * s * float64(c.b.W*c.b.H)
		if s < c.min || s > c.max || (s < 1) != c.downscale || px > MaxCanvasPixels*1.001 {
			t.Errorf("%+v: scale %v (%.0f px)", c.b, s, px)
		}
	}
}
