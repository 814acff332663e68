package anchor

import (
	"fmt"

	"github.com/sieve-dev/sieve/evidence/ground"
)

// Anchorer binds refs to one source. Build it once; Anchor is then a
// lookup in the source's indexes (ground.Index; a region walks its page's
// elements).
type Anchorer struct {
	v    *ground.Index
	caps ground.Capabilities
}

// New indexes src.
func New(src ground.Source) *Anchorer {
	return &Anchorer{v: ground.NewIndex(src), caps: src.Capabilities()}
}

// Anchor binds one well-formed ref (ValidateRef); fingerprints the ref
// does not carry are taken from doc and src (the request's).
func (a *Anchorer) Anchor(r Ref, doc, src string) Anchor {
	if r.DocumentFingerprint == "" && r.SourceFingerprint == "" {
		r.DocumentFingerprint, r.SourceFingerprint = doc, src
	}
	out := a.bind(r)
	out.EvidenceID, out.Kind = r.EvidenceID, r.Kind
	if l := Level(r); l != "" {
		out.RequiredAnchorLevel = &l
	}
	if out.MatchMethod == "" {
		out.MatchMethod = MethodNone
	}
	return out
}

// result builds an Anchor; achieved "" is null.
func result(status, achieved, method, reason string, b *Binding) Anchor {
	an := Anchor{Status: status, MatchMethod: method, Reason: reason, Binding: b}
	if achieved != "" {
		an.AchievedAnchorLevel = &achieved
	}
	return an
}

func (a *Anchorer) bind(r Ref) Anchor {
	if stale, reason := a.v.Freshness(r.DocumentFingerprint, r.SourceFingerprint); reason != "" {
		if stale {
			return result(StatusStale, "", "", reason, nil)
		}
		return result(StatusCapabilityLimited, "", "", reason, nil)
	}
	switch r.Kind {
	case KindPage:
		return a.page(r)
	case KindText:
		return a.text(r, Level(r))
	case KindTextRegion:
		return a.textRegion(r)
	case KindTableCell:
		return a.tableCell(r)
	case KindRegion:
		return a.region(r)
	case KindOther:
		if !hasText(r) {
			an := a.page(r)
			an.Reason += " (kind other without text: bound on its page only; what the ref claims is not checked)"
			return an
		}
		an := a.text(r, Level(r))
		an.Reason += " (kind other: bound on its text only; what the ref claims is not checked)"
		return an
	}
	return result(StatusUnsupportedEvidence, "", "", fmt.Sprintf("evidence kind %q is not a v1 evidence kind", r.Kind), nil)
}

// boxes says why the source cannot bind a box level, or "" when it can.
func (a *Anchorer) boxes() string {
	switch {
	case !a.caps.Boxes:
		return "the grounding source has no boxes (a static-tier web page is not laid out): a box level cannot be bound"
	case a.caps.CoordinateOrigin != "top_left":
		return "the grounding source's boxes are " + a.caps.CoordinateOrigin + " and cannot be converted to ethos_quantized_top_left_v1"
	}
	return ""
}

func (a *Anchorer) pageBinding(p ground.Page) *Binding {
	return &Binding{PageRef: p.ID, PageIndex: p.Index, ElementRefs: []string{}, NativeRefs: []string{}}
}

// page binds a page (and a box on it when the ref has one: at page level
// the box must still lie on the page); the ref's other fields narrow the
// binding (narrowed).
func (a *Anchorer) page(r Ref) Anchor {
	p, ok := a.v.Page(r.PageRef)
	if !ok {
		return result(StatusNotFound, "", MethodPage, fmt.Sprintf("page %q is not a page of the source", r.PageRef), nil)
	}
	b := a.pageBinding(p)
	method, reason := MethodPage, "the page exists"
	if r.BBox != nil {
		if bad := a.boxOnPage(r, p); bad != nil {
			return *bad
		}
		method, reason = MethodBox, "the box lies on the page"
		b.BBox = r.BBox
	}
	b, found, bad := a.narrowed(r, b)
	if bad != nil {
		return *bad
	}
	if found != "" {
		method, reason = found, reason+" and holds the text"
	} else if narrows(r) {
		reason += " and holds the located evidence"
	}
	level := Level(r)
	if level == LevelPage {
		b.BBox = nil
	}
	return result(StatusBound, level, method, reason, b)
}

// boxOnPage checks the ref's box against page p: the source has top-left
// boxes (else capability_limited at page) and the box lies on the page
// (else a mismatch).
func (a *Anchorer) boxOnPage(r Ref, p ground.Page) *Anchor {
	if why := a.boxes(); why != "" {
		if l := Level(r); l == LevelPage || l == LevelText {
			why += "; the ref's bbox cannot be checked"
		}
		an := result(StatusCapabilityLimited, LevelPage, MethodPage, why, a.pageBinding(p))
		return &an
	}
	if err := ground.CheckBox(p, toBox(r.BBox)); err != nil {
		an := result(StatusMismatch, LevelPage, MethodBox, err.Error(), a.pageBinding(p))
		return &an
	}
	return nil
}

func toBox(b []int) ground.Box { return ground.Box{X: b[0], Y: b[1], W: b[2], H: b[3]} }

func fromBox(b ground.Box) []int { return []int{b.X, b.Y, b.W, b.H} }

// hit is the text found for a ref: elements first..last, or one cell of
// a table (cell set) when the ref's row/column narrowed the search to it.
type hit struct {
	first, last int
	method      string
	table       string
	cell        *ground.Cell
}

// findText finds r.Text where every locator field of r points (locate,
// then the cells its row/column name). A locator that names nothing is
// not_found, one the source cannot follow is capability_limited, text
// found only outside the located scope is a mismatch that says where;
// when it fails, the Anchor to return says why.
func (a *Anchorer) findText(r Ref) (hit, *Anchor) {
	sc, bad := a.locate(r)
	if bad != nil {
		return hit{}, bad
	}
	t, cells, bad := a.cells(r)
	if bad != nil {
		return hit{}, bad
	}
	if cells != nil {
		return a.findInCells(r, t, cells)
	}
	if m, ok := a.v.FindIn(sc, r.Text); ok {
		return hit{first: m.First, last: m.Last, method: m.Method}, nil
	}
	if !sc.All {
		if m, ok := a.v.FindText(r.Text); ok {
			var b *Binding
			if len(sc.Elements) == 1 {
				b = a.elementsBinding(sc.Elements[0], sc.Elements[0], false)
			}
			an := result(StatusMismatch, "", m.Method, fmt.Sprintf("the text is not in the located %s; it occurs only outside it, at %s", sc.Desc, a.v.Where(m.First)), b)
			return hit{}, &an
		}
	}
	an := a.notFound(r.Text)
	return hit{}, &an
}

func (a *Anchorer) notFound(text string) Anchor {
	if a.v.InLatent(text) {
		an := result(StatusNotFound, "", ground.MethodNormalized, ground.LatentOnly, nil)
		an.latent = true
		return an
	}
	if part := a.v.LatentPart(text); part != "" {
		an := result(StatusNotFound, "", ground.MethodNormalized, fmt.Sprintf("the text does not occur in the visible text: part of it (%s) occurs only in quarantined latent (hidden) text, run together with visible words", ground.MarkLatent(part)), nil)
		an.latent = true
		return an
	}
	reason := "the text does not occur in the visible text"
	if !a.caps.LatentTier {
		reason += " (the source has no latent tier: hidden text was not inspected)"
	}
	return result(StatusNotFound, "", ground.MethodNormalized, reason, nil)
}

// elementsBinding binds elements first..last; withBox adds the union of
// their boxes (nil when one has none).
func (a *Anchorer) elementsBinding(first, last int, withBox bool) *Binding {
	els := a.v.Source().Elements()
	p, _ := a.v.Page(els[first].PageRef)
	b := a.pageBinding(p)
	b.ElementRefs, b.NativeRefs, b.Text = ground.Refs(els[first : last+1])
	if withBox {
		if u, ok := union(els[first : last+1]); ok {
			b.BBox = fromBox(u)
		}
	}
	return b
}

// union is the smallest box holding every element's box.
func union(els []ground.Element) (ground.Box, bool) {
	var u ground.Box
	for i, e := range els {
		if e.BBox == nil {
			return u, false
		}
		if i == 0 {
			u = *e.BBox
			continue
		}
		x2, y2 := max(u.X+u.W, e.BBox.X+e.BBox.W), max(u.Y+u.H, e.BBox.Y+e.BBox.H)
		u.X, u.Y = min(u.X, e.BBox.X), min(u.Y, e.BBox.Y)
		u.W, u.H = x2-u.X, y2-u.Y
	}
	return u, true
}

func (a *Anchorer) text(r Ref, level string) Anchor {
	h, bad := a.findText(r)
	if bad != nil {
		return *bad
	}
	switch level {
	case LevelPage:
		return result(StatusBound, LevelPage, h.method, "the text is on the page", a.bindingOf(h, false))
	case LevelText:
		return result(StatusBound, LevelText, h.method, "the text is in the source", a.bindingOf(h, false))
	}
	if why := a.boxes(); why != "" {
		return result(StatusCapabilityLimited, LevelText, h.method, "the text is in the source, but "+why, a.bindingOf(h, false))
	}
	b := a.bindingOf(h, true)
	if b.BBox == nil {
		return result(StatusCapabilityLimited, LevelText, h.method, "the text is in the source, but an element holding it has no box", b)
	}
	return result(StatusBound, level, h.method, "the text is in the source, at the elements' box", b)
}

// textRegion binds text inside a region at any level: the box is checked
// at page and text level too (a box the source cannot check is
// capability_limited, never skipped).
func (a *Anchorer) textRegion(r Ref) Anchor {
	if bad := a.regionOnPage(r); bad != nil {
		return *bad
	}
	h, bad := a.findTextInRegion(r)
	if bad != nil {
		return *bad
	}
	level := Level(r)
	withBox := level == LevelTextBBox || level == LevelBBox
	return result(StatusBound, level, h.method, "the text is in an element inside the region", a.bindingOf(h, withBox))
}

// regionOnPage checks a ref's page and box: the page exists, the source
// has top-left boxes, and the box lies on the page.
func (a *Anchorer) regionOnPage(r Ref) *Anchor {
	p, ok := a.v.Page(r.PageRef)
	if !ok {
		an := result(StatusNotFound, "", MethodPage, fmt.Sprintf("page %q is not a page of the source", r.PageRef), nil)
		return &an
	}
	bad := a.boxOnPage(r, p)
	if bad != nil && bad.Status == StatusCapabilityLimited && hasText(r) {
		// Say how far the ref does bind: its text, found without the box;
		// text that is not there at all is not there, box or none.
		unboxed := r
		unboxed.BBox = nil
		h, miss := a.findText(unboxed)
		if miss != nil {
			return miss
		}
		an := result(StatusCapabilityLimited, LevelText, h.method, "the text is in the source, but "+bad.Reason, a.bindingOf(h, false))
		return &an
	}
	return bad
}

// findTextInRegion finds an element of the ref's page inside the region
// (and inside its element, table or cell, when it names one) that holds
// the text.
func (a *Anchorer) findTextInRegion(r Ref) (hit, *Anchor) {
	h, bad := a.findText(r)
	if bad != nil && bad.Status == StatusMismatch && bad.MatchMethod != MethodTableCell {
		bad.MatchMethod = MethodBox
	}
	return h, bad
}

// region binds a box on a page: at bbox level the elements that overlap it
// (or, when the ref names an element, table, cell or text, the elements
// inside it that it names); at text_bbox the elements inside it holding
// the text; at page level the page, once the box is checked.
func (a *Anchorer) region(r Ref) Anchor {
	if bad := a.regionOnPage(r); bad != nil {
		return *bad
	}
	level := Level(r)
	p, _ := a.v.Page(r.PageRef)
	if level == LevelTextBBox || r.Text != "" {
		if !hasText(r) {
			return result(StatusNotFound, "", MethodNone, "the ref's text is blank: it names nothing", nil)
		}
		h, bad := a.findTextInRegion(r)
		if bad != nil {
			return *bad
		}
		b := a.bindingOf(h, level == LevelTextBBox)
		if level == LevelBBox {
			b.BBox = r.BBox
		}
		if level == LevelPage {
			b.BBox = nil
		}
		return result(StatusBound, level, h.method, "the text is in an element inside the region", b)
	}
	b := a.pageBinding(p)
	b.BBox = r.BBox
	if narrows(r) {
		var bad *Anchor
		if b, _, bad = a.narrowed(r, b); bad != nil {
			return *bad
		}
	} else {
		a.overlapping(r, b)
	}
	if level == LevelPage {
		b.BBox = nil
		return result(StatusBound, LevelPage, MethodBox, "the box lies on the page", b)
	}
	if len(b.ElementRefs) == 0 {
		return result(StatusNotFound, LevelPage, MethodBox, "no element of the page lies in the region", a.pageBinding(p))
	}
	return result(StatusBound, LevelBBox, MethodBox, fmt.Sprintf("%d elements of the page lie in the region", len(b.ElementRefs)), b)
}

// overlapping adds the elements of the ref's page whose boxes overlap its
// box to b.
func (a *Anchorer) overlapping(r Ref, b *Binding) {
	region := toBox(r.BBox)
	for _, e := range a.v.Source().Elements() {
		if e.PageRef == r.PageRef && e.BBox != nil && ground.Overlaps(*e.BBox, region) {
			b.ElementRefs = append(b.ElementRefs, e.ID)
			b.NativeRefs = append(b.NativeRefs, e.NativeID)
		}
	}
}

// tableCell binds a cell: the table exists (on the ref's page, when it
// names one), the cell exists at every level, holds the ref's text when it
// has one, and lies inside the ref's element and box when it names them.
func (a *Anchorer) tableCell(r Ref) Anchor {
	if !a.caps.Tables {
		return result(StatusCapabilityLimited, "", "", "the grounding source has no tables", nil)
	}
	t, ok := a.v.Table(r.TableRef)
	if !ok {
		return result(StatusNotFound, "", MethodTableCell, fmt.Sprintf("table %q is not a table of the source", r.TableRef), nil)
	}
	p, _ := a.v.Page(t.PageRef)
	b := a.pageBinding(p)
	b.TableRef = t.ID
	b.ElementRefs = []string{t.ElementRef}
	b.NativeRefs = []string{t.NativeID}
	if r.PageRef != "" {
		if _, ok := a.v.Page(r.PageRef); !ok {
			return result(StatusNotFound, "", MethodPage, fmt.Sprintf("page %q is not a page of the source", r.PageRef), nil)
		}
		if r.PageRef != t.PageRef {
			return result(StatusMismatch, "", MethodTableCell, fmt.Sprintf("table %s is on page %s, not %s", t.ID, t.PageRef, r.PageRef), b)
		}
	}
	if _, bad := a.locate(r); bad != nil {
		return *bad
	}
	_, cells, bad := a.cells(r)
	if bad != nil {
		bad.AchievedAnchorLevel, bad.Binding = ptrTo(LevelPage), b
		return *bad
	}
	c := cells[0]
	b.Row, b.Column, b.Text = &c.Row, &c.Column, c.Text
	if c.BBox != nil {
		b.BBox = fromBox(*c.BBox)
		if r.BBox != nil && !ground.Inside(*c.BBox, toBox(r.BBox)) {
			return result(StatusNotFound, LevelPage, MethodTableCell, fmt.Sprintf("the cell does not lie inside locator bbox %v: the locator names nothing", r.BBox), b)
		}
	}
	if r.Text != "" && ground.NormText(c.Text) != ground.NormText(r.Text) {
		return result(StatusMismatch, LevelPage, MethodTableCell, "the cell holds other text", b)
	}
	reason := "the cell exists and holds the text"
	if r.Text == "" {
		reason = "the cell exists"
	}
	if Level(r) == LevelPage {
		b.BBox = nil
		return result(StatusBound, LevelPage, MethodTableCell, reason+" on the page", b)
	}
	return result(StatusBound, LevelTableCell, MethodTableCell, reason, b)
}

func ptrTo(s string) *string { return &s }
