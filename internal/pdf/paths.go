package pdf

import (
	"math"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Rect is a painted path object reduced to its bounding box: a ruling
// line, a cell border, a filled background.
type Rect struct {
	Box    Box
	Fill   int // fill colour 0xrrggbb; -1 when not filled (or fully transparent)
	Stroke int // stroke colour 0xrrggbb; -1 when not stroked
}

// Limits on the paths read per page: the first maxPageRects painted paths
// are kept (vector drawings can have tens of thousands, and the layout
// needs the ruling lines, which come first in most producers' output), at
// most maxPageObjects objects are looked at, and forms nest at most
// maxFormDepth deep. What a limit leaves out is not reported: paths are
// layout hints, not content.
const (
	maxPageRects   = 5000
	maxPageObjects = 100_000
	maxFormDepth   = 8
)

// pathReader collects a page's painted paths.
type pathReader struct {
	e       *engine
	visited int
	rects   []Rect
}

// rects reads the page's path objects, also inside form XObjects, with
// boxes mapped by m to top-left display points.
func (e *engine) rects(ref requests.Page, m matrix) []Rect {
	n, err := e.inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: ref})
	if err != nil {
		return nil
	}
	r := pathReader{e: e}
	for i := 0; i < n.Count && r.more(); i++ {
		o, err := e.inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: ref, Index: i})
		if err == nil {
			r.object(o.PageObject, m, 0)
		}
	}
	return r.rects
}

func (r *pathReader) more() bool {
	return len(r.rects) < maxPageRects && r.visited < maxPageObjects
}

// object reads one object: a path's box and paint, a form's objects.
func (r *pathReader) object(obj references.FPDF_PAGEOBJECT, m matrix, depth int) {
	r.visited++
	t, err := r.e.inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj})
	if err != nil {
		return
	}
	switch t.Type {
	case enums.FPDF_PAGEOBJ_PATH:
		if rect, ok := r.path(obj, m); ok {
			r.rects = append(r.rects, rect)
		}
	case enums.FPDF_PAGEOBJ_FORM:
		if depth < maxFormDepth {
			r.form(obj, m, depth)
		}
	}
}

// form reads a form XObject's objects, whose bounds are in the form's
// space: the form object's matrix maps them onto the page.
func (r *pathReader) form(obj references.FPDF_PAGEOBJECT, m matrix, depth int) {
	in := r.e.inst
	fm, err := in.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: obj})
	if err != nil {
		return
	}
	x := fm.Matrix
	inner := m.then(matrix{float64(x.A), float64(x.B), float64(x.C), float64(x.D), float64(x.E), float64(x.F)})
	n, err := in.FPDFFormObj_CountObjects(&requests.FPDFFormObj_CountObjects{PageObject: obj})
	if err != nil {
		return
	}
	for i := 0; i < n.Count && r.more(); i++ {
		o, err := in.FPDFFormObj_GetObject(&requests.FPDFFormObj_GetObject{PageObject: obj, Index: uint64(i)})
		if err == nil {
			r.object(o.PageObject, inner, depth+1)
		}
	}
}

// path reads a painted path; ok is false for one that paints nothing.
func (r *pathReader) path(obj references.FPDF_PAGEOBJECT, m matrix) (Rect, bool) {
	in := r.e.inst
	mode, err := in.FPDFPath_GetDrawMode(&requests.FPDFPath_GetDrawMode{PageObject: obj})
	if err != nil {
		return Rect{}, false
	}
	rect := Rect{Fill: -1, Stroke: -1}
	if mode.FillMode != enums.FPDF_FILLMODE_NONE {
		if c, err := in.FPDFPageObj_GetFillColor(&requests.FPDFPageObj_GetFillColor{PageObject: obj}); err == nil && c.FillColor.A > 0 {
			rect.Fill = rgb(c.FillColor.R, c.FillColor.G, c.FillColor.B)
		}
	}
	if mode.Stroke {
		if c, err := in.FPDFPageObj_GetStrokeColor(&requests.FPDFPageObj_GetStrokeColor{PageObject: obj}); err == nil && c.StrokeColor.A > 0 {
			rect.Stroke = rgb(c.StrokeColor.R, c.StrokeColor.G, c.StrokeColor.B)
		}
	}
	if rect.Fill < 0 && rect.Stroke < 0 {
		return Rect{}, false
	}
	b, err := in.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: obj})
	if err != nil {
		return Rect{}, false
	}
	rect.Box = mapRect(m, float64(b.Left), float64(b.Bottom), float64(b.Right), float64(b.Top))
	return rect, true
}

func rgb(r, g, b uint) int { return int(r&0xff)<<16 | int(g&0xff)<<8 | int(b&0xff) }

// then is the matrix that applies inner first, then m.
func (m matrix) then(in matrix) matrix {
	return matrix{
		a: m.a*in.a + m.c*in.b, b: m.b*in.a + m.d*in.b,
		c: m.a*in.c + m.c*in.d, d: m.b*in.c + m.d*in.d,
		e: m.a*in.e + m.c*in.f + m.e, f: m.b*in.e + m.d*in.f + m.f,
	}
}

// mapRect maps a rectangle by its four corners (m may rotate or skew it)
// and returns their bounding box.
func mapRect(m matrix, left, bottom, right, top float64) Box {
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, p := range [4][2]float64{{left, bottom}, {right, bottom}, {left, top}, {right, top}} {
		x, y := m.apply(p[0], p[1])
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	return Box{round(x0), round(y0), round(x1), round(y1)}
}
