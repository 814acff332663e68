package pdf

import (
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// textSource answers the per-character questions chars and styler ask of
// one text page: rawPage calls the wasm module directly, reqPage goes
// through go-pdfium's requests (the fallback when rawText cannot bind).
// Both give the same answers; each method documents its failure value.
type textSource interface {
	unicode(i int) rune
	generated(i int) bool   // false when PDFium cannot say
	fontSize(i int) float64 // the Tf size
	charBox(i int) (l, r, b, t float64, ok bool)
	looseBox(i int) (l, r, b, t float64, ok bool) // from the font's ascent, descent and the advance
	mapError(i int) bool                          // PDFium found no Unicode for it
	fontWeight(i int) int                         // <= 0 when unknown
	fontInfo(i int) (fontInfo, bool)
	fillColor(i int) (r, g, b, a uint32, ok bool)
	matrixCD(i int) (c, d float32, ok bool)
	object(i int) objFacts // render 0 and mcid -1 when PDFium does not say
	failed() error         // a call that failed for good (the instance died)
}

// reqPage is a textSource on go-pdfium's requests.
type reqPage struct {
	e   *engine
	tp  references.FPDF_TEXTPAGE
	err error
}

func (p *reqPage) failed() error { return p.err }

func (p *reqPage) unicode(i int) rune {
	u, err := p.e.inst.FPDFText_GetUnicode(&requests.FPDFText_GetUnicode{TextPage: p.tp, Index: i})
	if err != nil {
		p.err = err
		return 0
	}
	return rune(u.Unicode)
}

func (p *reqPage) generated(i int) bool {
	g, err := p.e.inst.FPDFText_IsGenerated(&requests.FPDFText_IsGenerated{TextPage: p.tp, Index: i})
	return err == nil && g.IsGenerated
}

func (p *reqPage) fontSize(i int) float64 {
	fs, err := p.e.inst.FPDFText_GetFontSize(&requests.FPDFText_GetFontSize{TextPage: p.tp, Index: i})
	if err != nil {
		p.err = err
		return 0
	}
	return fs.FontSize
}

func (p *reqPage) charBox(i int) (l, r, b, t float64, ok bool) {
	c, err := p.e.inst.FPDFText_GetCharBox(&requests.FPDFText_GetCharBox{TextPage: p.tp, Index: i})
	if err != nil {
		return 0, 0, 0, 0, false
	}
	return c.Left, c.Right, c.Bottom, c.Top, true
}

func (p *reqPage) looseBox(i int) (l, r, b, t float64, ok bool) {
	c, err := p.e.inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: p.tp, Index: i})
	if err != nil {
		return 0, 0, 0, 0, false
	}
	return float64(c.Rect.Left), float64(c.Rect.Right), float64(c.Rect.Bottom), float64(c.Rect.Top), true
}

func (p *reqPage) mapError(i int) bool {
	m, err := p.e.inst.FPDFText_HasUnicodeMapError(&requests.FPDFText_HasUnicodeMapError{TextPage: p.tp, Index: i})
	return err == nil && m.HasUnicodeMapError
}

func (p *reqPage) fontWeight(i int) int {
	r, err := p.e.inst.FPDFText_GetFontWeight(&requests.FPDFText_GetFontWeight{TextPage: p.tp, Index: i})
	if err != nil {
		return 0
	}
	return r.FontWeight
}

func (p *reqPage) fontInfo(i int) (fontInfo, bool) {
	f, err := p.e.inst.FPDFText_GetFontInfo(&requests.FPDFText_GetFontInfo{TextPage: p.tp, Index: i})
	if err != nil {
		return fontInfo{}, false
	}
	return fontInfo{name: f.FontName, flags: f.Flags}, true
}

func (p *reqPage) fillColor(i int) (r, g, b, a uint32, ok bool) {
	f, err := p.e.inst.FPDFText_GetFillColor(&requests.FPDFText_GetFillColor{TextPage: p.tp, Index: i})
	if err != nil {
		return 0, 0, 0, 0, false
	}
	return uint32(f.R), uint32(f.G), uint32(f.B), uint32(f.A), true
}

func (p *reqPage) matrixCD(i int) (c, d float32, ok bool) {
	r, err := p.e.inst.FPDFText_GetMatrix(&requests.FPDFText_GetMatrix{TextPage: p.tp, Index: i})
	if err != nil {
		return 0, 0, false
	}
	return r.Matrix.C, r.Matrix.D, true
}

func (p *reqPage) object(i int) objFacts {
	out := objFacts{mcid: -1}
	obj, err := p.e.inst.FPDFText_GetTextObject(&requests.FPDFText_GetTextObject{TextPage: p.tp, Index: i})
	if err != nil {
		return out
	}
	if r, err := p.e.inst.FPDFTextObj_GetTextRenderMode(&requests.FPDFTextObj_GetTextRenderMode{PageObject: obj.TextObject}); err == nil && r.TextRenderMode >= 0 && r.TextRenderMode <= 7 {
		out.render = int(r.TextRenderMode)
	}
	if m, err := p.e.inst.FPDFPageObj_GetMarkedContentID(&requests.FPDFPageObj_GetMarkedContentID{PageObject: obj.TextObject}); err == nil && m.MarkedContentID >= 0 {
		out.mcid = m.MarkedContentID
	}
	return out
}
