package ground

import (
	"fmt"
	"slices"
	"strings"
)

// Locator is where a claim or evidence ref says its evidence is (SPEC.md
// §4.3, §7: page, element, span, table, region; sieve adds section, by
// stable section id, row and column of the table, and a box). Every field
// given narrows the search; none is ever ignored.
type Locator struct {
	Page    string
	Section string
	Element string // ours (e000012) or the source's native id
	Span    string
	Table   string
	Row     *int // 0-based, of Table; with Column a cell, alone a row
	Column  *int // 0-based, of Table; alone a column
	Region  string
	BBox    []int // [x, y, w, h], ethos_quantized_top_left_v1, on the located page
}

// Empty reports whether the locator names nothing at all.
func (l Locator) Empty() bool {
	return l.Page == "" && l.Section == "" && l.Element == "" && l.Span == "" && l.Table == "" &&
		l.Row == nil && l.Column == nil && l.Region == "" && l.BBox == nil
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
	// Table and Cells: a row or column narrows the table element's text
	// to those cells (TextIn); Cells is nil when the locator names none.
	Table *Table
	Cells []Cell
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

// LocateError is a locator that cannot be followed, failing closed.
// Blocked is true when the source lacks the capability (boxes, sections)
// to follow it (capability_blocked or capability_limited). Absent is true
// when the locator is well formed but names something the source does not
// have (an unknown id, a row past the table, an element off the located
// page): the evidence is not there (not_found). Neither is a malformed
// locator (a negative row, a box off its page, a row without a table):
// error. Field names the locator field at fault.
type LocateError struct {
	Field   string
	Blocked bool
	Absent  bool
	Reason  string
}

func (e *LocateError) Error() string { return e.Reason }

// nothing is a well-formed locator field that names nothing in the source.
func nothing(field, format string, a ...any) *LocateError {
	return &LocateError{Field: field, Absent: true, Reason: fmt.Sprintf(format, a...)}
}

// malformed is a locator field no source could satisfy.
func malformed(field, format string, a ...any) *LocateError {
	return &LocateError{Field: field, Reason: fmt.Sprintf(format, a...)}
}

// blocked is a locator field the source lacks the capability to follow.
func blocked(field, format string, a ...any) *LocateError {
	return &LocateError{Field: field, Blocked: true, Reason: fmt.Sprintf(format, a...)}
}

// Resolve follows a locator, field by field, failing closed: a field that
// names nothing in the source, or that contradicts another field (an
// element that is not on the located page), is a LocateError naming it.
func (x *Index) Resolve(l Locator) (Scope, *LocateError) {
	if l.Empty() {
		return Scope{All: true, Desc: "the whole source"}, nil
	}
	r := resolver{x: x, cellsNamed: l.Row != nil || l.Column != nil}
	steps := []func(Locator) *LocateError{r.page, r.section, r.element, r.span, r.table, r.region, r.bbox, r.cells}
	for _, step := range steps {
		if err := step(l); err != nil {
			return Scope{}, err
		}
	}
	sc := Scope{Elements: r.elements(), Page: r.pageID, Box: r.box, Span: r.spanOf, Table: r.tableOf, Cells: r.cellsOf, Desc: strings.Join(r.desc, ", ")}
	if sc.Elements == nil {
		sc.Elements = []int{}
	}
	return sc, nil
}

type resolver struct {
	x       *Index
	cand    []int // nil before the first narrowing field
	pageID  string
	box     *Box
	spanOf  *Span
	tableOf *Table
	cellsOf []Cell
	desc    []string
	pinned  bool // an element, span or table named one element
	// cellsNamed: row or column given, the table's cells meet the box.
	cellsNamed bool
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
	if r.cand == nil { // every element: walked without listing them first
		for i := range els {
			if keep(i, els[i]) {
				out = append(out, i)
			}
		}
		r.cand = out
		return
	}
	for _, i := range r.cand {
		if keep(i, els[i]) {
			out = append(out, i)
		}
	}
	r.cand = out
}

// among says whether element i is a candidate, in constant time while no
// field has narrowed them (a located claim on a long page names its element
// first: listing every element for it made each claim cost the page).
func (r *resolver) among(i int) bool {
	if r.cand == nil {
		return i >= 0 && i < len(r.x.src.Elements())
	}
	return slices.Contains(r.cand, i)
}

// one narrows the candidates to element i, which must be among them.
func (r *resolver) one(field, what string, i int) *LocateError {
	if !r.among(i) {
		return nothing(field, "locator %s %s is not in the located %s: the locator names nothing", field, what, strings.Join(r.desc, ", "))
	}
	r.cand = []int{i}
	r.pinned = true
	return nil
}

// boxFilter narrows the candidates to the elements inside box on page; a
// named element outside it is a contradiction.
func (r *resolver) boxFilter(field, page string, box Box) *LocateError {
	r.filter(func(_ int, e Element) bool {
		if e.PageRef != page || e.BBox == nil {
			return false
		}
		// A located table whose cells are named need only meet the box:
		// cells then holds each named cell to it.
		return Inside(*e.BBox, box) || r.cellsNamed && r.tableOf != nil && e.ID == r.tableOf.ElementRef && Overlaps(*e.BBox, box)
	})
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
		return blocked("section", "the grounding source has no sections: locator section %q cannot be followed", l.Section)
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
	r.tableOf = &t
	r.desc = append(r.desc, "table "+t.ID)
	return nil
}

// cells narrows the located table to the cells its row and column name
// (and, with a box, to those of them inside it when cells have boxes).
func (r *resolver) cells(l Locator) *LocateError {
	if l.Row == nil && l.Column == nil {
		return nil
	}
	switch {
	case r.tableOf == nil:
		return malformed(rowColumn(l), "locator %s names a table's cells but the locator has no table", rowColumn(l))
	case l.Row != nil && *l.Row < 0 || l.Column != nil && *l.Column < 0:
		return malformed(rowColumn(l), "locator %s is negative", rowColumn(l))
	}
	out := slices.DeleteFunc(CellsAt(*r.tableOf, l.Row, l.Column), func(c Cell) bool { return !r.cellInBox(c) })
	if len(out) == 0 {
		return nothing(rowColumn(l), "table %s has no %s%s: the locator names nothing", r.tableOf.ID, CellName(l.Row, l.Column), inBox(r.box))
	}
	r.cellsOf = out
	r.desc = append(r.desc, CellName(l.Row, l.Column))
	return nil
}

// cellInBox: no box located, or the cell's box inside it; a cell without a
// box is inside when its table's element is.
func (r *resolver) cellInBox(c Cell) bool {
	switch {
	case r.box == nil:
		return true
	case c.BBox != nil:
		return Inside(*c.BBox, *r.box)
	}
	i, ok := r.x.byID[r.tableOf.ElementRef]
	e := r.x.src.Elements()
	return ok && e[i].BBox != nil && Inside(*e[i].BBox, *r.box)
}

// Refs are what evidence found in els (consecutive elements) cites: their
// ids, their native ids and their texts joined by newlines.
func Refs(els []Element) (ids, natives []string, text string) {
	ids, natives = make([]string, 0, len(els)), make([]string, 0, len(els))
	texts := make([]string, 0, len(els))
	for _, e := range els {
		ids, natives, texts = append(ids, e.ID), append(natives, e.NativeID), append(texts, e.Text)
	}
	return ids, natives, strings.Join(texts, "\n")
}

// CellsAt are the cells of t in the row and the column given (nil: any),
// in the table's order; never nil.
func CellsAt(t Table, row, column *int) []Cell {
	out := []Cell{}
	for _, c := range t.Cells {
		if (row == nil || c.Row == *row) && (column == nil || c.Column == *column) {
			out = append(out, c)
		}
	}
	return out
}

func rowColumn(l Locator) string {
	switch {
	case l.Row != nil && l.Column != nil:
		return "row/column"
	case l.Row != nil:
		return "row"
	}
	return "column"
}

func inBox(b *Box) string {
	if b == nil {
		return ""
	}
	return " inside the located box"
}

// CellName names a row, a column or a cell for reasons: "row 2, column 1".
func CellName(row, column *int) string {
	switch {
	case row != nil && column != nil:
		return fmt.Sprintf("row %d, column %d", *row, *column)
	case row != nil:
		return fmt.Sprintf("row %d", *row)
	case column != nil:
		return fmt.Sprintf("column %d", *column)
	}
	return "cell"
}

// TextIn is element i's text as the scope narrows it: a span's text, or
// the located cells (a row's cells joined by " | ", rows by a newline, as
// a table element's text is written).
func (s Scope) TextIn(els []Element, i int) string {
	e := els[i]
	switch {
	case s.Cells != nil && s.Table != nil && e.ID == s.Table.ElementRef:
		return CellsText(s.Cells)
	case s.Span != nil && e.ID == s.Span.ElementRef:
		return s.Span.Text
	}
	return e.Text
}

// CellsText joins cells as a table element's text joins them.
func CellsText(cells []Cell) string {
	var b strings.Builder
	for k, c := range cells {
		if k > 0 {
			if c.Row == cells[k-1].Row {
				b.WriteString(" | ")
			} else {
				b.WriteByte('\n')
			}
		}
		b.WriteString(c.Text)
	}
	return b.String()
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
		return malformed("bbox", "locator bbox has %d numbers, want [x, y, w, h]", len(l.BBox))
	}
	switch {
	case !r.x.caps.Boxes:
		return blocked("bbox", "the grounding source has no boxes (a static-tier web page is not laid out): locator bbox cannot be checked")
	case r.x.caps.CoordinateOrigin != "top_left":
		return blocked("bbox", "the grounding source's boxes are %s and cannot be converted to ethos_quantized_top_left_v1: locator bbox cannot be checked", r.x.caps.CoordinateOrigin)
	}
	if r.pageID == "" {
		return malformed("bbox", "locator bbox names no page: give locator.page (or an element, span, table or region on one)")
	}
	b := Box{l.BBox[0], l.BBox[1], l.BBox[2], l.BBox[3]}
	if err := CheckBox(r.x.pages[r.pageID], b); err != nil {
		return malformed("bbox", "locator bbox: %v", err)
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
	have := func(i int) string { return s.TextIn(els, i) }
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
