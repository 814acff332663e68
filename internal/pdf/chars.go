package pdf

import (
	"fmt"
	"math"
	"unicode"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// deviceScale is device pixels per point for FPDF_PageToDevice, which
// answers in integers: at 100 its rounding is 1/100 pt, the box quantum.
const deviceScale = 100

// matrix maps page space (PDF user space, bottom-left) to top-left
// display points: x' = a*x + c*y + e, y' = b*x + d*y + f.
type matrix struct{ a, b, c, d, e, f float64 }

func (m matrix) apply(x, y float64) (float64, float64) {
	return m.a*x + m.c*y + m.e, m.b*x + m.d*y + m.f
}

// displayMatrix asks PDFium where three page-space points land on a large
// device the page's size: the display transform is affine, so three points
// fix it, /Rotate and the CropBox offset included.
func (e *engine) displayMatrix(ref requests.Page, w, h float64) (matrix, error) {
	const span = 10000 // page-space distance of the probe points
	var pts [3][2]float64
	for i, p := range [3][2]float64{{0, 0}, {span, 0}, {0, span}} {
		r, err := e.inst.FPDF_PageToDevice(&requests.FPDF_PageToDevice{
			Page: ref, SizeX: int(math.Round(w * deviceScale)), SizeY: int(math.Round(h * deviceScale)),
			PageX: p[0], PageY: p[1],
		})
		if err != nil {
			return matrix{}, fmt.Errorf("mapping page coordinates: %w", err)
		}
		pts[i] = [2]float64{float64(r.DeviceX) / deviceScale, float64(r.DeviceY) / deviceScale}
	}
	o := pts[0]
	return matrix{
		a: (pts[1][0] - o[0]) / span, b: (pts[1][1] - o[1]) / span,
		c: (pts[2][0] - o[0]) / span, d: (pts[2][1] - o[1]) / span,
		e: o[0], f: o[1],
	}, nil
}

// chars reads the page's text layer, at most limit characters; total is
// how many the page has. In a tagged document (marked) every character's
// marked-content id is read. loaded, when not nil, runs once the text page
// is built, before any character is read (revive restores the objects it
// changed there); after it, characters PDFium drew from an outline-less
// glyph and found no Unicode for are left out (the character code itself,
// or U+FFFD for a code that names no character) and not counted in total.
func (e *engine) chars(ref requests.Page, m matrix, limit int, marked bool, loaded func()) (out []Char, total int, err error) {
	tp, err := e.inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: ref})
	if err != nil {
		return nil, 0, fmt.Errorf("loading text: %w", err)
	}
	defer e.inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	if loaded != nil {
		loaded()
	}
	n, err := e.inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return nil, 0, fmt.Errorf("counting characters: %w", err)
	}
	src, done := e.textSource(tp.TextPage)
	defer done()
	count := min(n.Count, limit)
	out = make([]Char, count)
	st := styler{src: src, marked: marked, m: m}
	var codes []int // characters that are codes, not Unicode
	for i := range count {
		flat, err := readChar(src, i, m, &out[i])
		if err != nil {
			return nil, 0, fmt.Errorf("character %d: %w", i, err)
		}
		if flat && loaded != nil && (out[i].Rune == unicode.ReplacementChar || src.mapError(i)) {
			codes = append(codes, i)
			continue
		}
		st.next(i, &out[i])
	}
	if err := src.failed(); err != nil {
		return nil, 0, fmt.Errorf("reading characters: %w", err)
	}
	return without(out, codes), n.Count - len(codes), nil
}

// without is chars without the characters at the ascending indexes drop.
func without(chars []Char, drop []int) []Char {
	if len(drop) == 0 {
		return chars
	}
	out := chars[:0]
	for i, c := range chars {
		if len(drop) > 0 && drop[0] == i {
			drop = drop[1:]
			continue
		}
		out = append(out, c)
	}
	return out
}

// textSource is the fast rawText reader of the text page when it binds,
// else go-pdfium's requests; done releases it.
func (e *engine) textSource(tp references.FPDF_TEXTPAGE) (textSource, func()) {
	if e.raw != nil {
		if p, err := e.raw.open(tp); err == nil {
			return p, p.close
		}
	}
	return &reqPage{e: e, tp: tp}, func() {}
}

// flatShare: a glyph box thinner than this share of the font size across
// its baseline is PDFium's stand-in for a glyph with no outline (a font
// not embedded that no font here can stand in for, as CJK fonts in the
// sandbox): size/1000 tall at the baseline.
const flatShare = 0.005

// readChar reads character i's rune, size and box into c. flat: PDFium
// had no outline for the glyph, and c.Box is the loose box its font's
// ascent, descent and advance give instead.
func readChar(src textSource, i int, m matrix, c *Char) (flat bool, err error) {
	c.Rune, c.Style = src.unicode(i), plain
	if err := src.failed(); err != nil {
		return false, err
	}
	if unicode.IsSpace(c.Rune) && src.generated(i) {
		c.Generated = true
		return false, nil
	}
	c.FontSize = round(src.fontSize(i))
	if err := src.failed(); err != nil {
		return false, err
	}
	l, r, b, t, ok := src.charBox(i)
	if ok && !unicode.IsSpace(c.Rune) && math.Min(r-l, t-b) < flatShare*c.FontSize {
		if ll, lr, lb, lt, lok := src.looseBox(i); lok && math.Min(lr-ll, lt-lb) > math.Min(r-l, t-b) {
			l, r, b, t, flat = ll, lr, lb, lt, true
		}
	}
	if ok { // PDFium has no box for some characters (e.g. some generated ones)
		c.Box = mapBox(m, l, b, r, t)
	}
	return flat, nil
}

// mapBox maps a page-space rectangle to a top-left display box.
func mapBox(m matrix, left, bottom, right, top float64) Box {
	x0, y0 := m.apply(left, bottom)
	x1, y1 := m.apply(right, top)
	return Box{
		X0: round(math.Min(x0, x1)), Y0: round(math.Min(y0, y1)),
		X1: round(math.Max(x0, x1)), Y1: round(math.Max(y0, y1)),
	}
}

// round quantises to 1/100 pt.
func round(v float64) float64 {
	r := math.Round(v*100) / 100
	if r == 0 {
		return 0 // no negative zero
	}
	return r
}
