package anchor

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/internal/ground"
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

func (a *Anchorer) page(r Ref) Anchor {
	p, ok := a.v.Page(r.PageRef)
	if !ok {
		return result(StatusNotFound, "", MethodPage, fmt.Sprintf("page %q is not a page of the source", r.PageRef), nil)
	}
	b := a.pageBinding(p)
	if Level(r) == LevelPage {
		return result(StatusBound, LevelPage, MethodPage, "the page exists", b)
	}
	if why := a.boxes(); why != "" {
		return result(StatusCapabilityLimited, LevelPage, MethodPage, why, b)
	}
	box := toBox(r.BBox)
	if err := ground.CheckBox(p, box); err != nil {
		return result(StatusMismatch, LevelPage, MethodBox, err.Error(), b)
	}
	b.BBox = r.BBox
	return result(StatusBound, LevelBBox, MethodBox, "the box lies on the page", b)
}

func toBox(b []int) ground.Box { return ground.Box{X: b[0], Y: b[1], W: b[2], H: b[3]} }

func fromBox(b ground.Box) []int { return []int{b.X, b.Y, b.W, b.H} }

// hit is the text found for a ref: elements first..last.
type hit struct {
	first, last int
	method      string
}

// findText finds r.Text where r's locator fields point (ground.Resolve:
// page, element, table, and the box when the ref carries one at a text
// level). A locator that names nothing is not_found, one the source cannot
// follow is capability_limited, text found only outside the located scope
// is a mismatch that says where; when it fails, the Anchor to return says
// why.
func (a *Anchorer) findText(r Ref) (hit, *Anchor) {
	loc := ground.Locator{Page: r.PageRef, Element: r.ElementRef}
	if r.Kind == KindText || r.Kind == KindOther {
		loc.Table, loc.BBox = r.TableRef, r.BBox
	}
	return a.findIn(r, loc)
}

func (a *Anchorer) findIn(r Ref, loc ground.Locator) (hit, *Anchor) {
	sc, err := a.v.Resolve(loc)
	if err != nil {
		an := result(StatusNotFound, "", MethodNone, err.Reason, nil)
		if err.Blocked {
			an.Status = StatusCapabilityLimited
		}
		return hit{}, &an
	}
	if m, ok := a.v.FindIn(sc, r.Text); ok {
		return hit{m.First, m.Last, m.Method}, nil
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
	var texts []string
	for i := first; i <= last; i++ {
		b.ElementRefs = append(b.ElementRefs, els[i].ID)
		b.NativeRefs = append(b.NativeRefs, els[i].NativeID)
		texts = append(texts, els[i].Text)
	}
	b.Text = strings.Join(texts, "\n")
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
		return result(StatusBound, LevelPage, h.method, "the text is on the page", a.elementsBinding(h.first, h.last, false))
	case LevelText:
		return result(StatusBound, LevelText, h.method, "the text is in the source", a.elementsBinding(h.first, h.last, false))
	}
	if why := a.boxes(); why != "" {
		return result(StatusCapabilityLimited, LevelText, h.method, "the text is in the source, but "+why, a.elementsBinding(h.first, h.last, false))
	}
	b := a.elementsBinding(h.first, h.last, true)
	if b.BBox == nil {
		return result(StatusCapabilityLimited, LevelText, h.method, "the text is in the source, but an element holding it has no box", b)
	}
	return result(StatusBound, level, h.method, "the text is in the source, at the elements' box", b)
}

func (a *Anchorer) textRegion(r Ref) Anchor {
	level := Level(r)
	if level == LevelPage || level == LevelText {
		return a.text(r, level)
	}
	if bad := a.regionOnPage(r); bad != nil {
		return *bad
	}
	h, bad := a.findTextInRegion(r)
	if bad != nil {
		return *bad
	}
	return result(StatusBound, level, h.method, "the text is in an element inside the region", a.elementsBinding(h.first, h.last, true))
}

// regionOnPage checks a ref's page and box: the page exists, the source
// has top-left boxes, and the box lies on the page.
func (a *Anchorer) regionOnPage(r Ref) *Anchor {
	p, ok := a.v.Page(r.PageRef)
	if !ok {
		an := result(StatusNotFound, "", MethodPage, fmt.Sprintf("page %q is not a page of the source", r.PageRef), nil)
		return &an
	}
	if why := a.boxes(); why != "" {
		an := result(StatusCapabilityLimited, LevelPage, MethodPage, why, a.pageBinding(p))
		if r.Text != "" {
			if h, bad := a.findText(r); bad == nil {
				an = result(StatusCapabilityLimited, LevelText, h.method, "the text is in the source, but "+why, a.elementsBinding(h.first, h.last, false))
			}
		}
		return &an
	}
	if err := ground.CheckBox(p, toBox(r.BBox)); err != nil {
		an := result(StatusMismatch, LevelPage, MethodBox, err.Error(), a.pageBinding(p))
		return &an
	}
	return nil
}

// findTextInRegion finds an element of the ref's page inside the region
// (and inside its element or table, when it names one) that holds the text.
func (a *Anchorer) findTextInRegion(r Ref) (hit, *Anchor) {
	h, bad := a.findIn(r, ground.Locator{Page: r.PageRef, Element: r.ElementRef, Table: r.TableRef, BBox: r.BBox})
	if bad != nil && bad.Status == StatusMismatch {
		bad.MatchMethod = MethodBox
	}
	return h, bad
}

func (a *Anchorer) region(r Ref) Anchor {
	if Level(r) == LevelPage {
		return a.page(Ref{PageRef: r.PageRef, RequiredAnchorLevel: LevelPage})
	}
	if bad := a.regionOnPage(r); bad != nil {
		return *bad
	}
	if Level(r) == LevelTextBBox {
		h, bad := a.findTextInRegion(r)
		if bad != nil {
			return *bad
		}
		return result(StatusBound, LevelTextBBox, h.method, "the text is in an element inside the region", a.elementsBinding(h.first, h.last, true))
	}
	p, _ := a.v.Page(r.PageRef)
	b := a.pageBinding(p)
	region := toBox(r.BBox)
	for _, e := range a.v.Source().Elements() {
		if e.PageRef == r.PageRef && e.BBox != nil && ground.Overlaps(*e.BBox, region) {
			b.ElementRefs = append(b.ElementRefs, e.ID)
			b.NativeRefs = append(b.NativeRefs, e.NativeID)
		}
	}
	if len(b.ElementRefs) == 0 {
		return result(StatusNotFound, LevelPage, MethodBox, "no element of the page lies in the region", b)
	}
	b.BBox = r.BBox
	return result(StatusBound, LevelBBox, MethodBox, fmt.Sprintf("%d elements of the page lie in the region", len(b.ElementRefs)), b)
}

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
	if r.PageRef != "" && r.PageRef != t.PageRef {
		return result(StatusMismatch, "", MethodTableCell, fmt.Sprintf("table %s is on page %s, not %s", t.ID, t.PageRef, r.PageRef), b)
	}
	if Level(r) == LevelPage {
		return result(StatusBound, LevelPage, MethodTableCell, "the table is on the page", b)
	}
	for _, c := range t.Cells {
		if c.Row != *r.Row || c.Column != *r.Column {
			continue
		}
		b.Row, b.Column, b.Text = &c.Row, &c.Column, c.Text
		if c.BBox != nil {
			b.BBox = fromBox(*c.BBox)
		}
		if r.Text != "" && ground.NormText(c.Text) != ground.NormText(r.Text) {
			return result(StatusMismatch, LevelPage, MethodTableCell, "the cell holds other text", b)
		}
		reason := "the cell exists and holds the text"
		if r.Text == "" {
			reason = "the cell exists"
		}
		return result(StatusBound, LevelTableCell, MethodTableCell, reason, b)
	}
	return result(StatusNotFound, LevelPage, MethodTableCell, fmt.Sprintf("table %s has no cell at row %d, column %d", t.ID, *r.Row, *r.Column), b)
}
