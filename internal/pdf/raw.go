package pdf

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/tetratelabs/wazero/api"
)

// rawText calls PDFium's per-character and per-object functions on the
// wasm module directly. Through go-pdfium's requests every call takes a
// lock, looks its handle and function up by string, allocates its
// response and mallocs and frees each out-parameter inside the module
// (four of each for a character box), and every page object it hands out
// gets a random reference in a map: that was most of the time of a page
// (docs/DECISIONS.md, "PDF engine"). Here a fact costs one wasm call, with
// one scratch buffer per page for the out-parameters.
//
// It reaches the module through go-pdfium's escape hatch
// (Pdfium.GetImplementation) and exported methods and fields, found by
// reflection since their types are in go-pdfium's internal package; the
// native handles of text pages and pages are read from go-pdfium's handle
// tables, also by reflection (read only, no unsafe). Every value it
// returns is what the matching go-pdfium request returns, failures
// included (TestRawSameAsRequests). When any of this is not there
// (another go-pdfium version), bindRaw fails and the engine uses the
// requests (TestRawBinds catches that).
type rawText struct {
	ctx    context.Context
	mem    api.Memory
	locker sync.Locker
	alloc  allocator
	impl   reflect.Value // *PdfiumImplementation
	fns    [rawFnCount]caller
	stack  [8]uint64
}

// caller is a wazero function; go-pdfium's Function wraps api.Function.
type caller interface {
	CallWithStack(ctx context.Context, stack []uint64) error
}

type allocator interface {
	Malloc(size uint64) (uint64, error)
	Free(pointer uint64) error
}

// The functions rawText calls, by index into rawText.fns.
const (
	fnUnicode = iota
	fnIsGenerated
	fnFontSize
	fnCharBox
	fnFontWeight
	fnFontInfo
	fnFillColor
	fnMatrix
	fnTextObject
	fnRenderMode
	fnMarkedContentID
	fnCountObjects
	fnGetObject
	fnObjType
	fnDrawMode
	fnObjFill
	fnObjStroke
	fnObjBounds
	fnObjMatrix
	fnFormCount
	fnFormObject
	fnLooseBox
	fnMapError
	fnSetRenderMode
	fnSetStrokeWidth
	fnTransform
	rawFnCount
)

var rawFnNames = [rawFnCount]string{
	fnUnicode:         "FPDFText_GetUnicode",
	fnIsGenerated:     "FPDFText_IsGenerated",
	fnFontSize:        "FPDFText_GetFontSize",
	fnCharBox:         "FPDFText_GetCharBox",
	fnFontWeight:      "FPDFText_GetFontWeight",
	fnFontInfo:        "FPDFText_GetFontInfo",
	fnFillColor:       "FPDFText_GetFillColor",
	fnMatrix:          "FPDFText_GetMatrix",
	fnTextObject:      "FPDFText_GetTextObject",
	fnRenderMode:      "FPDFTextObj_GetTextRenderMode",
	fnMarkedContentID: "FPDFPageObj_GetMarkedContentID",
	fnCountObjects:    "FPDFPage_CountObjects",
	fnGetObject:       "FPDFPage_GetObject",
	fnObjType:         "FPDFPageObj_GetType",
	fnDrawMode:        "FPDFPath_GetDrawMode",
	fnObjFill:         "FPDFPageObj_GetFillColor",
	fnObjStroke:       "FPDFPageObj_GetStrokeColor",
	fnObjBounds:       "FPDFPageObj_GetBounds",
	fnObjMatrix:       "FPDFPageObj_GetMatrix",
	fnFormCount:       "FPDFFormObj_CountObjects",
	fnFormObject:      "FPDFFormObj_GetObject",
	fnLooseBox:        "FPDFText_GetLooseCharBox",
	fnMapError:        "FPDFText_HasUnicodeMapError",
	fnSetRenderMode:   "FPDFTextObj_SetTextRenderMode",
	fnSetStrokeWidth:  "FPDFPageObj_SetStrokeWidth",
	fnTransform:       "FPDFPageObj_Transform",
}

var errRaw = errors.New("go-pdfium's implementation is not the one rawText knows")

// bindRaw finds the module behind inst; an error when go-pdfium is not
// built the way rawText expects.
func bindRaw(inst pdfium.Pdfium) (_ *rawText, err error) {
	defer func() {
		if recover() != nil { // a reflect call on an unexpected shape
			err = errRaw
		}
	}()
	impl := reflect.ValueOf(inst.GetImplementation())
	r := &rawText{impl: impl}
	var ok bool
	if r.locker, ok = impl.Interface().(sync.Locker); !ok {
		return nil, errRaw
	}
	if r.alloc, ok = impl.Interface().(allocator); !ok {
		return nil, errRaw
	}
	if impl.Kind() != reflect.Pointer || impl.Elem().Kind() != reflect.Struct {
		return nil, errRaw
	}
	if r.ctx, ok = impl.Elem().FieldByName("Context").Interface().(context.Context); !ok {
		return nil, errRaw
	}
	mod := impl.Elem().FieldByName("Module")
	if r.mem, ok = mod.MethodByName("Memory").Call(nil)[0].Interface().(api.Memory); !ok {
		return nil, errRaw
	}
	fn := impl.MethodByName("Fn")
	for i, name := range rawFnNames {
		if r.fns[i], ok = fn.Call([]reflect.Value{reflect.ValueOf(name)})[0].Interface().(caller); !ok {
			return nil, errRaw
		}
	}
	return r, nil
}

// handle is the native handle behind a go-pdfium reference: the handle
// field of the entry for ref in the implementation's table (a map field,
// such as textPageRefs).
func (r *rawText) handle(table string, ref any) (_ uint64, err error) {
	defer func() {
		if recover() != nil {
			err = errRaw
		}
	}()
	refs := r.impl.Elem().FieldByName(table)
	if refs.Kind() != reflect.Map || refs.Type().Key() != reflect.TypeOf(ref) {
		return 0, errRaw
	}
	h := refs.MapIndex(reflect.ValueOf(ref))
	if !h.IsValid() || h.Kind() != reflect.Pointer || h.IsNil() {
		return 0, errRaw
	}
	p := h.Elem().FieldByName("handle")
	if p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Uint64 {
		return 0, errRaw
	}
	return p.Elem().Uint(), nil
}

// call runs function fn with params; its result is the first slot.
func (r *rawText) call(fn int, params ...uint64) (uint64, error) {
	copy(r.stack[:], params)
	if err := r.fns[fn].CallWithStack(r.ctx, r.stack[:]); err != nil {
		return 0, err
	}
	return r.stack[0], nil
}

// rawPage is a session of rawText calls on one page: it holds the
// instance's lock and a scratch buffer in the module until close. It is
// the textSource of a text page (tp) and, in rawObjects, the objSource of
// a page.
type rawPage struct {
	r   *rawText
	tp  uint64 // the text page, for the character functions
	buf uint64 // scratch: out-parameters, then the font name
	cap uint64 // the font name's room in buf
	err error  // the first call that failed

	obj   uint64 // the last text object read, and its facts
	facts objFacts
}

func (p *rawPage) failed() error { return p.err }

// Scratch layout: one call's out-parameters from offset 0 (at most 32
// bytes: a character box's four doubles), the font flags at scratchFlags,
// the font name from scratchName.
const (
	scratchFlags = 32
	scratchName  = 40
	scratchSize  = 512
)

// open starts reading text page tp.
func (r *rawText) open(tp references.FPDF_TEXTPAGE) (*rawPage, error) {
	h, err := r.handle("textPageRefs", tp)
	if err != nil {
		return nil, err
	}
	p, err := r.session()
	if err != nil {
		return nil, err
	}
	p.tp = h
	return p, nil
}

// session takes the instance's lock and a scratch buffer; close gives
// them back.
func (r *rawText) session() (*rawPage, error) {
	r.locker.Lock()
	buf, err := r.alloc.Malloc(scratchSize)
	if err != nil {
		r.locker.Unlock()
		return nil, err
	}
	return &rawPage{r: r, buf: buf, cap: scratchSize - scratchName}, nil
}

func (p *rawPage) close() {
	p.r.alloc.Free(p.buf)
	p.r.locker.Unlock()
}

// callObj runs a function on a page object (or page); a failure is kept
// in p.err and gives 0.
func (p *rawPage) callObj(fn int, params ...uint64) uint64 {
	if p.err != nil {
		return 0
	}
	v, err := p.r.call(fn, params...)
	if err != nil {
		p.err = err
	}
	return v
}

// call runs a text page function on character i; a failure is kept in
// p.err and gives 0.
func (p *rawPage) call(fn int, i int, params ...uint64) uint64 {
	if p.err != nil {
		return 0
	}
	var stack [7]uint64
	stack[0], stack[1] = p.tp, uint64(i)
	n := copy(stack[2:], params)
	v, err := p.r.call(fn, stack[:2+n]...)
	if err != nil {
		p.err = err
	}
	return v
}

func i32(v uint64) int32 { return int32(uint32(v)) }

func (p *rawPage) f64(off uint64) float64 {
	v, _ := p.r.mem.ReadFloat64Le(uint32(p.buf + off))
	return v
}

func (p *rawPage) f32(off uint64) float32 {
	v, _ := p.r.mem.ReadFloat32Le(uint32(p.buf + off))
	return v
}

func (p *rawPage) u32(off uint64) uint32 {
	v, _ := p.r.mem.ReadUint32Le(uint32(p.buf + off))
	return v
}

func (p *rawPage) unicode(i int) rune { return rune(uint32(p.call(fnUnicode, i))) }

func (p *rawPage) generated(i int) bool { return i32(p.call(fnIsGenerated, i)) == 1 }

func (p *rawPage) fontSize(i int) float64 { return math.Float64frombits(p.call(fnFontSize, i)) }

// charBox is FPDFText_GetCharBox: left, right, bottom, top; ok false when
// PDFium has none.
func (p *rawPage) charBox(i int) (l, r, b, t float64, ok bool) {
	b0 := p.buf
	if i32(p.call(fnCharBox, i, b0, b0+8, b0+16, b0+24)) == 0 || p.err != nil {
		return 0, 0, 0, 0, false
	}
	return p.f64(0), p.f64(8), p.f64(16), p.f64(24), true
}

// looseBox is FPDFText_GetLooseCharBox (an FS_RECTF: left, top, right,
// bottom); ok false when PDFium has none.
func (p *rawPage) looseBox(i int) (l, r, b, t float64, ok bool) {
	if i32(p.call(fnLooseBox, i, p.buf)) == 0 || p.err != nil {
		return 0, 0, 0, 0, false
	}
	return float64(p.f32(0)), float64(p.f32(8)), float64(p.f32(12)), float64(p.f32(4)), true
}

// mapError reports a character PDFium found no Unicode for (it then
// gives the character code itself).
func (p *rawPage) mapError(i int) bool { return i32(p.call(fnMapError, i)) == 1 }

// fontWeight is -1 when PDFium does not know it.
func (p *rawPage) fontWeight(i int) int { return int(i32(p.call(fnFontWeight, i))) }

// fontInfo is the font name and flags; ok false when PDFium has no name.
func (p *rawPage) fontInfo(i int) (fontInfo, bool) {
	flags, name := p.buf+scratchFlags, p.buf+scratchName
	n := uint64(uint32(p.call(fnFontInfo, i, name, p.cap, flags)))
	if n == 0 || p.err != nil {
		return fontInfo{}, false
	}
	if n > p.cap { // a longer name than the scratch holds: its own buffer
		return p.longFontInfo(i, n)
	}
	b, _ := p.r.mem.Read(uint32(name), uint32(n-1)) // without the NUL
	return fontInfo{name: string(b), flags: int(i32(uint64(p.u32(scratchFlags))))}, true
}

func (p *rawPage) longFontInfo(i int, n uint64) (fontInfo, bool) {
	name, err := p.r.alloc.Malloc(n)
	if err != nil {
		return fontInfo{}, false
	}
	defer p.r.alloc.Free(name)
	p.call(fnFontInfo, i, name, n, p.buf+scratchFlags)
	b, _ := p.r.mem.Read(uint32(name), uint32(n-1))
	if p.err != nil {
		return fontInfo{}, false
	}
	return fontInfo{name: string(b), flags: int(i32(uint64(p.u32(scratchFlags))))}, true
}

// fillColor is the character's fill colour; ok false when PDFium has none.
func (p *rawPage) fillColor(i int) (r, g, b, a uint32, ok bool) {
	b0 := p.buf
	if i32(p.call(fnFillColor, i, b0, b0+4, b0+8, b0+12)) == 0 || p.err != nil {
		return 0, 0, 0, 0, false
	}
	return p.u32(0), p.u32(4), p.u32(8), p.u32(12), true
}

// matrixCD is the character matrix's c and d; ok false when PDFium has none.
func (p *rawPage) matrixCD(i int) (c, d float32, ok bool) {
	if i32(p.call(fnMatrix, i, p.buf)) == 0 || p.err != nil {
		return 0, 0, false
	}
	cv, _ := p.r.mem.ReadFloat32Le(uint32(p.buf + 8))
	dv, _ := p.r.mem.ReadFloat32Le(uint32(p.buf + 12))
	return cv, dv, true
}

// object reads the render mode and marked-content id of character i's
// text object. They are facts of the object, so they are read again only
// when the object changes: go-pdfium hands out a new reference per call,
// the native handle is the object's identity.
func (p *rawPage) object(i int) objFacts {
	obj := uint64(uint32(p.call(fnTextObject, i)))
	if obj == 0 || p.err != nil {
		return objFacts{mcid: -1}
	}
	if obj != p.obj {
		p.obj, p.facts = obj, p.objFacts(obj)
	}
	return p.facts
}

func (p *rawPage) objFacts(obj uint64) objFacts {
	out := objFacts{mcid: -1}
	if v, err := p.r.call(fnRenderMode, obj); err != nil {
		p.err = err
	} else if m := i32(v); m >= 0 && m <= 7 {
		out.render = int(m)
	}
	if v, err := p.r.call(fnMarkedContentID, obj); err != nil {
		p.err = err
	} else if id := i32(v); id >= 0 {
		out.mcid = int(id)
	}
	return out
}
