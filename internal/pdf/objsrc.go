package pdf

import (
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
	"github.com/tetratelabs/wazero/api"
)

// object is a page object: a go-pdfium reference (reqObjects) or a native
// handle (rawPage).
type object struct {
	ref references.FPDF_PAGEOBJECT
	h   uint64
}

// objSource answers the questions pathReader asks of a page's objects:
// rawPage calls the wasm module directly, reqObjects goes through
// go-pdfium's requests. ok is false where the request gives an error.
type objSource interface {
	count() (int, bool)
	pageObject(i int) (object, bool)
	kind(o object) (enums.FPDF_PAGEOBJ, bool)
	drawMode(o object) (fill, stroke, ok bool)
	fillColor(o object) (r, g, b, a uint32, ok bool)
	strokeColor(o object) (r, g, b, a uint32, ok bool)
	bounds(o object) (l, b, r, t float32, ok bool)
	matrix(o object) (matrix, bool)
	formCount(o object) (int, bool)
	formObject(o object, i int) (object, bool)
	// For revive: a text object's render mode (-1 when PDFium does not
	// say), setting it, its stroke width, and an identity transform that
	// makes PDFium compute its box again.
	renderMode(o object) int
	setRenderMode(o object, mode int) bool
	setStrokeWidth(o object, w float32) bool
	recompute(o object)
}

// reqObjects is an objSource on go-pdfium's requests.
type reqObjects struct {
	e    *engine
	page requests.Page
}

func (s reqObjects) count() (int, bool) {
	n, err := s.e.inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: s.page})
	if err != nil {
		return 0, false
	}
	return n.Count, true
}

func (s reqObjects) pageObject(i int) (object, bool) {
	o, err := s.e.inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: s.page, Index: i})
	if err != nil {
		return object{}, false
	}
	return object{ref: o.PageObject}, true
}

func (s reqObjects) kind(o object) (enums.FPDF_PAGEOBJ, bool) {
	t, err := s.e.inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: o.ref})
	if err != nil {
		return 0, false
	}
	return t.Type, true
}

func (s reqObjects) drawMode(o object) (fill, stroke, ok bool) {
	m, err := s.e.inst.FPDFPath_GetDrawMode(&requests.FPDFPath_GetDrawMode{PageObject: o.ref})
	if err != nil {
		return false, false, false
	}
	return m.FillMode != enums.FPDF_FILLMODE_NONE, m.Stroke, true
}

func (s reqObjects) fillColor(o object) (r, g, b, a uint32, ok bool) {
	c, err := s.e.inst.FPDFPageObj_GetFillColor(&requests.FPDFPageObj_GetFillColor{PageObject: o.ref})
	if err != nil {
		return 0, 0, 0, 0, false
	}
	return uint32(c.FillColor.R), uint32(c.FillColor.G), uint32(c.FillColor.B), uint32(c.FillColor.A), true
}

func (s reqObjects) strokeColor(o object) (r, g, b, a uint32, ok bool) {
	c, err := s.e.inst.FPDFPageObj_GetStrokeColor(&requests.FPDFPageObj_GetStrokeColor{PageObject: o.ref})
	if err != nil {
		return 0, 0, 0, 0, false
	}
	return uint32(c.StrokeColor.R), uint32(c.StrokeColor.G), uint32(c.StrokeColor.B), uint32(c.StrokeColor.A), true
}

func (s reqObjects) bounds(o object) (l, b, r, t float32, ok bool) {
	x, err := s.e.inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: o.ref})
	if err != nil {
		return 0, 0, 0, 0, false
	}
	return x.Left, x.Bottom, x.Right, x.Top, true
}

func (s reqObjects) matrix(o object) (matrix, bool) {
	fm, err := s.e.inst.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: o.ref})
	if err != nil {
		return matrix{}, false
	}
	x := fm.Matrix
	return matrix{float64(x.A), float64(x.B), float64(x.C), float64(x.D), float64(x.E), float64(x.F)}, true
}

func (s reqObjects) formCount(o object) (int, bool) {
	n, err := s.e.inst.FPDFFormObj_CountObjects(&requests.FPDFFormObj_CountObjects{PageObject: o.ref})
	if err != nil {
		return 0, false
	}
	return n.Count, true
}

func (s reqObjects) formObject(o object, i int) (object, bool) {
	x, err := s.e.inst.FPDFFormObj_GetObject(&requests.FPDFFormObj_GetObject{PageObject: o.ref, Index: uint64(i)})
	if err != nil {
		return object{}, false
	}
	return object{ref: x.PageObject}, true
}

func (s reqObjects) renderMode(o object) int {
	r, err := s.e.inst.FPDFTextObj_GetTextRenderMode(&requests.FPDFTextObj_GetTextRenderMode{PageObject: o.ref})
	if err != nil {
		return -1
	}
	return int(r.TextRenderMode)
}

func (s reqObjects) setRenderMode(o object, mode int) bool {
	_, err := s.e.inst.FPDFTextObj_SetTextRenderMode(&requests.FPDFTextObj_SetTextRenderMode{PageObject: o.ref, TextRenderMode: enums.FPDF_TEXT_RENDERMODE(mode)})
	return err == nil
}

func (s reqObjects) setStrokeWidth(o object, w float32) bool {
	_, err := s.e.inst.FPDFPageObj_SetStrokeWidth(&requests.FPDFPageObj_SetStrokeWidth{PageObject: o.ref, StrokeWidth: w})
	return err == nil
}

func (s reqObjects) recompute(o object) {
	s.e.inst.FPDFPageObj_Transform(&requests.FPDFPageObj_Transform{PageObject: o.ref, Transform: structs.FPDF_FS_MATRIX{A: 1, D: 1}})
}

// rawObjects is an objSource on the wasm module: a session on one page.
type rawObjects struct {
	*rawPage
	page uint64
}

func (s rawObjects) count() (int, bool) {
	n := s.callObj(fnCountObjects, s.page)
	return int(i32(n)), s.err == nil
}

func (s rawObjects) pageObject(i int) (object, bool) {
	h := s.callObj(fnGetObject, s.page, uint64(i))
	return object{h: h}, h != 0 && s.err == nil
}

func (s rawObjects) kind(o object) (enums.FPDF_PAGEOBJ, bool) {
	t := s.callObj(fnObjType, o.h)
	return enums.FPDF_PAGEOBJ(i32(t)), s.err == nil
}

func (s rawObjects) drawMode(o object) (fill, stroke, ok bool) {
	b := s.buf
	if i32(s.callObj(fnDrawMode, o.h, b, b+4)) == 0 || s.err != nil {
		return false, false, false
	}
	return enums.FPDF_FILLMODE(int32(s.u32(0))) != enums.FPDF_FILLMODE_NONE, int32(s.u32(4)) == 1, true
}

func (s rawObjects) color(fn int, o object) (r, g, b, a uint32, ok bool) {
	p := s.buf
	if i32(s.callObj(fn, o.h, p, p+4, p+8, p+12)) == 0 || s.err != nil {
		return 0, 0, 0, 0, false
	}
	return s.u32(0), s.u32(4), s.u32(8), s.u32(12), true
}

func (s rawObjects) fillColor(o object) (r, g, b, a uint32, ok bool) {
	return s.color(fnObjFill, o)
}

func (s rawObjects) strokeColor(o object) (r, g, b, a uint32, ok bool) {
	return s.color(fnObjStroke, o)
}

func (s rawObjects) bounds(o object) (l, b, r, t float32, ok bool) {
	p := s.buf
	if i32(s.callObj(fnObjBounds, o.h, p, p+4, p+8, p+12)) == 0 || s.err != nil {
		return 0, 0, 0, 0, false
	}
	return s.f32(0), s.f32(4), s.f32(8), s.f32(12), true
}

func (s rawObjects) matrix(o object) (matrix, bool) {
	if i32(s.callObj(fnObjMatrix, o.h, s.buf)) == 0 || s.err != nil {
		return matrix{}, false
	}
	var v [6]float64
	for i := range v {
		v[i] = float64(s.f32(uint64(4 * i)))
	}
	return matrix{v[0], v[1], v[2], v[3], v[4], v[5]}, true
}

func (s rawObjects) formCount(o object) (int, bool) {
	n := s.callObj(fnFormCount, o.h)
	return int(i32(n)), s.err == nil
}

func (s rawObjects) formObject(o object, i int) (object, bool) {
	h := s.callObj(fnFormObject, o.h, uint64(i))
	return object{h: h}, h != 0 && s.err == nil
}

func (s rawObjects) renderMode(o object) int {
	m := i32(s.callObj(fnRenderMode, o.h))
	if s.err != nil {
		return -1
	}
	return int(m)
}

func (s rawObjects) setRenderMode(o object, mode int) bool {
	ok := i32(s.callObj(fnSetRenderMode, o.h, uint64(uint32(int32(mode)))))
	return ok == 1 && s.err == nil
}

func (s rawObjects) setStrokeWidth(o object, w float32) bool {
	ok := i32(s.callObj(fnSetStrokeWidth, o.h, api.EncodeF32(w)))
	return ok == 1 && s.err == nil
}

func (s rawObjects) recompute(o object) {
	one, zero := api.EncodeF64(1), api.EncodeF64(0)
	s.callObj(fnTransform, o.h, one, zero, zero, one, zero, zero)
}
