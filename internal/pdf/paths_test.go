package pdf

import (
	"bytes"
	"testing"

	"github.com/go-pdf/fpdf"
)

// TestRects: a filled and a stroked rectangle, a line and a rectangle
// inside a form XObject (an fpdf template, moved by its matrix) come out
// with their boxes in top-left points and their paint.
func TestRects(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.AddPage()
	f.SetFillColor(255, 255, 255)
	f.Rect(100, 100, 200, 50, "F")
	f.SetDrawColor(255, 0, 0)
	f.SetLineWidth(2)
	f.Rect(100, 200, 200, 50, "D")
	f.Line(100, 300, 300, 300)
	tpl := f.CreateTemplate(func(tp *fpdf.Tpl) {
		tp.SetFillColor(0, 0, 255)
		tp.Rect(10, 10, 40, 20, "F")
	})
	_, size := tpl.Size()
	f.UseTemplateScaled(tpl, fpdf.PointType{X: 400, Y: 400}, size)
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	want := []Rect{
		{Box: Box{100, 100, 300, 150}, Fill: 0xffffff, Stroke: -1},
		{Box: Box{99, 199, 301, 251}, Fill: -1, Stroke: 0xff0000},
		{Box: Box{99, 299, 301, 301}, Fill: -1, Stroke: 0xff0000},
		{Box: Box{410, 410, 450, 430}, Fill: 0x0000ff, Stroke: -1},
	}
	got := doc.Pages[0].Rects
	if len(got) != len(want) {
		t.Fatalf("rects %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.Fill != w.Fill || g.Stroke != w.Stroke || !near(g.Box.X0, w.Box.X0) || !near(g.Box.Y0, w.Box.Y0) ||
			!near(g.Box.X1, w.Box.X1) || !near(g.Box.Y1, w.Box.Y1) {
			t.Errorf("rect %d: %+v, want %+v (boxes within 1 pt)", i, g, w)
		}
	}
}

func TestMatrixThen(t *testing.T) {
	flip := matrix{a: 1, d: -1, f: 100}       // page to top-left display
	shift := matrix{a: 2, d: 2, e: 10, f: 20} // a form scaled 2x and moved
	x, y := flip.then(shift).apply(5, 5)
	if x != 20 || y != 70 {
		t.Fatalf("then: (5,5) -> (%g,%g), want (20,70)", x, y)
	}
}
