package pdf

import (
	"errors"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Revived text objects are drawn, while PDFium builds the text page, in
// render mode reviveMode with a stroke reviveStroke points wide: a
// stroked text object's bounds are widened by half its stroke, so a
// one-glyph object whose glyph has no outline is no longer a point, and
// PDFium reads its character (mapping its code through the font's CMap
// and character collection: GBK-EUC-H, 90ms-RKSJ-H, UniGB-UCS2-H, …
// are all built into the engine).
const (
	reviveMode   = 1 // stroke
	reviveStroke = 1.0
)

// revive reads the page's text again with the text objects at the
// indexes ids of objs (points with no character: pointsAlone) made
// readable, each set back to its own render mode before any character is
// read, so that the hidden-text rules see them as drawn. Characters
// PDFium still has no Unicode for are left out. When no object could be
// changed the error is errNotRevived: the first read stands.
func (e *engine) revive(page references.FPDF_PAGE, ref requests.Page, m matrix, limit int, marked bool, objs []object, ids []int) ([]Char, int, error) {
	type saved struct {
		obj  object
		mode int
	}
	var changed []saved
	src, done := e.objSource(page)
	for _, k := range ids {
		o := objs[k]
		mode := src.renderMode(o)
		if mode < 0 || !src.setRenderMode(o, reviveMode) {
			continue
		}
		changed = append(changed, saved{o, mode})
		src.setStrokeWidth(o, reviveStroke)
		src.recompute(o)
	}
	done()
	if len(changed) == 0 {
		return nil, 0, errNotRevived
	}
	restore := func() {
		src, done := e.objSource(page)
		defer done()
		for _, s := range changed {
			src.setRenderMode(s.obj, s.mode)
		}
	}
	return e.chars(ref, m, limit, marked, restore)
}

var errNotRevived = errors.New("no text object could be revived")
