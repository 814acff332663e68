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

// maxPageImages is how many image objects' boxes a page keeps: they tell
// an OCR text layer (invisible text over a scan) from hidden text.
const maxPageImages = 1000

// maxPageTexts is how many text objects' boxes a page keeps to find the
// text PDFium gives no characters for (unmapped).
const maxPageTexts = 20_000

// pathReader collects a page's painted paths, image boxes and text
// objects' boxes.
type pathReader struct {
	src     objSource
	visited int
	rects   []Rect
	images  []Box
	texts   []Box
	objs    []object // the text objects whose boxes are texts, for revive
}

// rects reads the page's path, image and text objects, also inside form
// XObjects, with boxes mapped by m to top-left display points.
func (e *engine) rects(page references.FPDF_PAGE, m matrix) pathReader {
	src, done := e.objSource(page)
	defer done()
	n, ok := src.count()
	if !ok {
		return pathReader{}
	}
	r := pathReader{src: src}
	for i := 0; i < n && r.more(); i++ {
		if o, ok := src.pageObject(i); ok {
			r.object(o, m, 0)
		}
	}
	r.src = nil
	return r
}

// objSource is the fast rawText reader of the page's objects when it
// binds, else go-pdfium's requests; done releases it.
func (e *engine) objSource(page references.FPDF_PAGE) (objSource, func()) {
	if e.raw != nil {
		if h, err := e.raw.handle("pageRefs", page); err == nil {
			if p, err := e.raw.session(); err == nil {
				return rawObjects{rawPage: p, page: h}, p.close
			}
		}
	}
	return reqObjects{e: e, page: requests.Page{ByReference: &page}}, func() {}
}

func (r *pathReader) more() bool {
	return len(r.rects) < maxPageRects && r.visited < maxPageObjects
}

// object reads one object: a path's box and paint, a form's objects.
func (r *pathReader) object(obj object, m matrix, depth int) {
	r.visited++
	t, ok := r.src.kind(obj)
	if !ok {
		return
	}
	switch t {
	case enums.FPDF_PAGEOBJ_PATH:
		if rect, ok := r.path(obj, m); ok {
			r.rects = append(r.rects, rect)
		}
	case enums.FPDF_PAGEOBJ_IMAGE:
		if l, b, rt, t, ok := r.src.bounds(obj); ok && len(r.images) < maxPageImages {
			r.images = append(r.images, mapRect(m, float64(l), float64(b), float64(rt), float64(t)))
		}
	case enums.FPDF_PAGEOBJ_TEXT:
		if l, b, rt, t, ok := r.src.bounds(obj); ok && len(r.texts) < maxPageTexts {
			r.texts = append(r.texts, mapRect(m, float64(l), float64(b), float64(rt), float64(t)))
			r.objs = append(r.objs, obj)
		}
	case enums.FPDF_PAGEOBJ_FORM:
		if depth < maxFormDepth {
			r.form(obj, m, depth)
		}
	}
}

// form reads a form XObject's objects, whose bounds are in the form's
// space: the form object's matrix maps them onto the page.
func (r *pathReader) form(obj object, m matrix, depth int) {
	fm, ok := r.src.matrix(obj)
	if !ok {
		return
	}
	inner := m.then(fm)
	n, ok := r.src.formCount(obj)
	if !ok {
		return
	}
	for i := 0; i < n && r.more(); i++ {
		if o, ok := r.src.formObject(obj, i); ok {
			r.object(o, inner, depth+1)
		}
	}
}

// path reads a painted path; ok is false for one that paints nothing.
func (r *pathReader) path(obj object, m matrix) (Rect, bool) {
	fill, stroke, ok := r.src.drawMode(obj)
	if !ok {
		return Rect{}, false
	}
	rect := Rect{Fill: -1, Stroke: -1}
	if fill {
		if cr, cg, cb, ca, ok := r.src.fillColor(obj); ok && ca > 0 {
			rect.Fill = rgb(cr, cg, cb)
		}
	}
	if stroke {
		if cr, cg, cb, ca, ok := r.src.strokeColor(obj); ok && ca > 0 {
			rect.Stroke = rgb(cr, cg, cb)
		}
	}
	if rect.Fill < 0 && rect.Stroke < 0 {
		return Rect{}, false
	}
	left, bottom, right, top, ok := r.src.bounds(obj)
	if !ok {
		return Rect{}, false
	}
	rect.Box = mapRect(m, float64(left), float64(bottom), float64(right), float64(top))
	return rect, true
}

func rgb(r, g, b uint32) int { return int(r&0xff)<<16 | int(g&0xff)<<8 | int(b&0xff) }

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
