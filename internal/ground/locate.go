package ground

import (
	"fmt"
	"slices"
	"strings"
)

// Locator is where a claim or evidence ref says its evidence is (SPEC.md
// §4.3, §7: page, element, span, table, region; sieve adds section, by
// stable section id, and a box). Every field given narrows the search;
// none is ever ignored. Row and column are a table cell's business and
// are not part of it.
type Locator struct {
	Page    string
	Section string
	Element string // ours (e000012) or the source's native id
	Span    string
	Table   string
	Region  string
	BBox    []int // [x, y, w, h], ethos_quantized_top_left_v1, on the located page
}

// Empty reports whether the locator names nothing at all.
func (l Locator) Empty() bool {
	return l.Page == "" && l.Section == "" && l.Element == "" && l.Span == "" && l.Table == "" && l.Region == "" && l.BBox == nil
}

// Scope is what a locator names: the elements the evidence must be in.
type Scope struct {
	// All is true for an empty locator: the whole source.
	All bool
	// Elements are the element indexes in scope, in document order.
	Elements []int
	// Page is the located page, "" when the locator implies none.
	Page string
	// Box is the located box (bbox or region) on Page, nil when none.
	Box *Box
	// Span narrows its element's text to the span's text.
	Span *Span
	// Desc says what the locator names, for reasons: "page p0002, section s-x".
	Desc string
}

// Has reports whether element i is in scope.
func (s Scope) Has(i int) bool {
	if s.All {
		return true
	}
	_, ok := slices.BinarySearch(s.Elements, i)
	return ok
}

// LocateError is a locator that cannot be followed. Blocked is true when
// the source lacks the capability (boxes) to follow it (capability_blocked
// or capability_limited); otherwise the locator names nothing in the
// source (error, fail closed). Field names the locator field at fault.
type LocateError struct {
	Field   string
	Blocked bool
	Reason  string
}

func (e *LocateError) Error() string { return e.Reason }

func nothing(field, format string, a ...any) *LocateError {
	return &LocateError{Field: field, Reason: fmt.Sprintf(format, a...)}
}

// Resolve follows a locator, field by field, failing closed: a field that
// names nothing in the source, or that contradicts another field (an
// element that is not on the located page), is a LocateError naming it.
func (x *Index) Resolve(l Locator) (Scope, *LocateError) {
	if l.Empty() {
		return Scope{All: true, Desc: "the whole source"}, nil
	}
	r := resolver{x: x}
	steps := []func(Locator) *LocateError{r.page, r.section, r.element, r.span, r.table, r.region, r.bbox}
	for _, step := range steps {
		if err := step(l); err != nil {
			return Scope{}, err
		}
	}
	sc := Scope{Elements: r.elements(), Page: r.pageID, Box: r.box, Span: r.spanOf, Desc: strings.Join(r.desc, ", ")}
	if sc.Elements == nil {
		sc.Elements = []int{}
	}
	return sc, nil
}

type resolver struct {
	x      *Index
	cand   []int // nil before the first narrowing field
	pageID string
	box    *Box
	spanOf *Span
	desc   []string
	pinned bool // an element, span or table named one element
}

func (r *resolver) elements() []int {
	if r.cand == nil {
		out := make([]int, len(r.x.src.Elements()))
		for i := range out {
			out[i] = i
		}
		return out
	}
	return r.cand
}

// filter narrows the candidates to the elements keep accepts.
func (r *resolver) filter(keep func(i int, e Element) bool) {
	out := []int{}
	els := r.x.src.Elements()
	for _, i := range r.elements() {
		if keep(i, els[i]) {
			out = append(out, i)
		}
	}
	r.cand = out
}

// one narrows the candidates to element i, which must be among them.
func (r *resolver) one(field, what string, i int) *LocateError {
	if !slices.Contains(r.elements(), i) {
		return nothing(field, "locator %s %s is not in the located %s: the locator names nothing", field, what, strings.Join(r.desc, ", "))
	}
	r.cand = []int{i}
	r.pinned = true
	return nil
}

// boxFilter narrows the candidates to the elements inside box on page; a
// named element outside it is a contradiction.
func (r *resolver) boxFilter(field, page string, box Box) *LocateError {
	r.filter(func(_ int, e Element) bool { return e.PageRef == page && e.BBox != nil && Inside(*e.BBox, box) })
	if r.pinned && len(r.cand) == 0 {
		return nothing(field, "the located %s does not lie inside locator %s: the locator names nothing", strings.Join(r.desc, ", "), field)
	}
	return nil
}

func (r *resolver) setPage(field, page string) *LocateError {
	if r.pageID != "" && r.pageID != page {
		return nothing(field, "locator %s is on page %s, not on the located page %s: the locator names nothing", field, page, r.pageID)
	}
	r.pageID = page
	return nil
}

func (r *resolver) page(l Locator) *LocateError {
	if l.Page == "" {
		return nil
	}
	if _, ok := r.x.pages[l.Page]; !ok {
		return nothing("page", "locator page %q is not a page of the source", l.Page)
	}
	r.pageID = l.Page
	r.filter(func(_ int, e Element) bool { return e.PageRef == l.Page })
	r.desc = append(r.desc, "page "+l.Page)
	return nil
}

func (r *resolver) section(l Locator) *LocateError {
	if l.Section == "" {
		return nil
	}
	if len(r.x.sections) == 0 {
		return nothing("section", "locator section %q names nothing: the grounding source has no sections", l.Section)
	}
	if !r.x.sections[l.Section] {
		return nothing("section", "locator section %q is not a section of the source", l.Section)
	}
	r.filter(func(_ int, e Element) bool { return e.SectionID == l.Section })
	r.desc = append(r.desc, "section "+l.Section)
	return nil
}

func (r *resolver) element(l Locator) *LocateError {
	if l.Element == "" {
		return nil
	}
	i, ok := r.x.byID[l.Element]
	if !ok {
		return nothing("element", "locator element %q is not an element of the source", l.Element)
	}
	if err := r.one("element", l.Element, i); err != nil {
		return err
	}
	r.pageID = r.x.src.Elements()[i].PageRef
	r.desc = append(r.desc, "element "+r.x.src.Elements()[i].ID)
	return nil
}

func (r *resolver) span(l Locator) *LocateError {
	if l.Span == "" {
		return nil
	}
	sp, ok := r.x.spans[l.Span]
	if !ok {
		return nothing("span", "locator span %q is not a span of the source", l.Span)
	}
	i, ok := r.x.byID[sp.ElementRef]
	if !ok {
		return nothing("span", "locator span %q belongs to no element of the source", l.Span)
	}
	if err := r.one("span", l.Span, i); err != nil {
		return err
	}
	r.pageID = sp.PageRef
	r.spanOf = &sp
	r.desc = append(r.desc, "span "+sp.ID)
	return nil
}

func (r *resolver) table(l Locator) *LocateError {
	if l.Table == "" {
		return nil
	}
	t, ok := r.x.tables[l.Table]
	if !ok {
		return nothing("table", "locator table %q is not a table of the source", l.Table)
	}
	if i, ok := r.x.byID[t.ElementRef]; ok {
		if err := r.one("table", l.Table, i); err != nil {
			return err
		}
	} else {
		r.cand = []int{}
	}
	if err := r.setPage("table", t.PageRef); err != nil {
		return err
	}
	r.desc = append(r.desc, "table "+t.ID)
	return nil
}

func (r *resolver) region(l Locator) *LocateError {
	if l.Region == "" {
		return nil
	}
	rg, ok := r.x.regions[l.Region]
	if !ok {
		return nothing("region", "locator region %q is not a region of the source", l.Region)
	}
	if err := r.setPage("region", rg.PageRef); err != nil {
		return err
	}
	box := rg.BBox
	r.box = &box
	if err := r.boxFilter("region", rg.PageRef, box); err != nil {
		return err
	}
	r.desc = append(r.desc, "region "+rg.ID)
	return nil
}

func (r *resolver) bbox(l Locator) *LocateError {
	if l.BBox == nil {
		return nil
	}
	if len(l.BBox) != 4 {
		return nothing("bbox", "locator bbox has %d numbers, want [x, y, w, h]", len(l.BBox))
	}
	switch {
	case !r.x.caps.Boxes:
		return &LocateError{Field: "bbox", Blocked: true, Reason: "the grounding source has no boxes (a static-tier web page is not laid out): locator bbox cannot be checked"}
	case r.x.caps.CoordinateOrigin != "top_left":
		return &LocateError{Field: "bbox", Blocked: true, Reason: "the grounding source's boxes are " + r.x.caps.CoordinateOrigin + " and cannot be converted to ethos_quantized_top_left_v1: locator bbox cannot be checked"}
	}
	if r.pageID == "" {
		return nothing("bbox", "locator bbox names no page: give locator.page (or an element, span, table or region on one)")
	}
	b := Box{l.BBox[0], l.BBox[1], l.BBox[2], l.BBox[3]}
	if err := CheckBox(r.x.pages[r.pageID], b); err != nil {
		return nothing("bbox", "locator bbox: %v", err)
	}
	if r.box != nil && !Overlaps(*r.box, b) {
		return nothing("bbox", "locator bbox does not overlap the located region: the locator names nothing")
	}
	r.box = &b
	if err := r.boxFilter("bbox", r.pageID, b); err != nil {
		return err
	}
	r.desc = append(r.desc, fmt.Sprintf("bbox [%d %d %d %d]", b.X, b.Y, b.W, b.H))
	return nil
}

// FindIn finds text inside a scope: in one element of it (verbatim, then
// normalised), or across consecutive elements of it. With a span, the
// span's element is searched in the span's text only.
func (x *Index) FindIn(s Scope, text string) (Match, bool) {
	if s.All {
		return x.FindText(text)
	}
	els := x.src.Elements()
	have := func(i int) string {
		if s.Span != nil && els[i].ID == s.Span.ElementRef {
			return s.Span.Text
		}
		return els[i].Text
	}
	for _, method := range []string{MethodExact, MethodNormalized} {
		for _, i := range s.Elements {
			if m := holds(have(i), text); m == method {
				return Match{i, i, m}, true
			}
		}
	}
	// Across consecutive elements of the scope, joined as the index joins them.
	n := NormText(text)
	for a := 0; a < len(s.Elements); {
		b := a
		for b+1 < len(s.Elements) && s.Elements[b+1] == s.Elements[b]+1 {
			b++
		}
		if b > a {
			var joined strings.Builder
			starts := make([]int, 0, b-a+1)
			for k := a; k <= b; k++ {
				if k > a {
					joined.WriteByte(' ')
				}
				starts = append(starts, joined.Len())
				joined.WriteString(NormText(have(s.Elements[k])))
			}
			if off := strings.Index(joined.String(), n); off >= 0 && n != "" {
				first, last := a, a
				for k, st := range starts {
					if st <= off {
						first = a + k
					}
					if st <= off+len(n)-1 {
						last = a + k
					}
				}
				return Match{s.Elements[first], s.Elements[last], MethodContainment}, true
			}
		}
		a = b + 1
	}
	return Match{}, false
}
