package anchor

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/evidence/ground"
)

// Every locator field a ref carries narrows its binding, whatever its kind
// and level (SPEC.md §6.1, §7: fail closed, never guess). The kind's own
// fields (a page ref's page, a region's box, a cell's table, row and
// column) are checked by the kind; the others by locate and cells. A field
// that names nothing, or contradicts another, is not_found with the field
// named; one the source cannot follow is capability_limited.

// locate resolves the ref's page, element, table and box (ground.Resolve,
// shared with verify).
func (a *Anchorer) locate(r Ref) (ground.Scope, *Anchor) {
	sc, err := a.v.Resolve(ground.Locator{Page: r.PageRef, Element: r.ElementRef, Table: r.TableRef, BBox: r.BBox})
	if err != nil {
		an := result(StatusNotFound, "", MethodNone, err.Reason, nil)
		if err.Blocked {
			an.Status = StatusCapabilityLimited
		}
		return sc, &an
	}
	return sc, nil
}

// cells returns the cells of the ref's table its row and column name (nil
// when it names neither). Row or column without a table, or a row or
// column the table does not have, names nothing.
func (a *Anchorer) cells(r Ref) (ground.Table, []ground.Cell, *Anchor) {
	if r.Row == nil && r.Column == nil {
		return ground.Table{}, nil, nil
	}
	if r.TableRef == "" {
		an := result(StatusNotFound, "", MethodNone, "locator row/column name a table cell, but the ref has no table_ref: the locator names nothing", nil)
		return ground.Table{}, nil, &an
	}
	t, ok := a.v.Table(r.TableRef)
	if !ok {
		an := result(StatusNotFound, "", MethodTableCell, fmt.Sprintf("table %q is not a table of the source", r.TableRef), nil)
		return t, nil, &an
	}
	out := ground.CellsAt(t, r.Row, r.Column)
	if len(out) == 0 {
		an := result(StatusNotFound, "", MethodTableCell, fmt.Sprintf("table %s has no %s: the locator names nothing", t.ID, cellName(r.Row, r.Column)), nil)
		return t, nil, &an
	}
	return t, out, nil
}

// cellName names a row, a column or a cell for reasons (a cell as "cell
// at row 2, column 1": the anchor report's words since its first golden).
func cellName(row, column *int) string {
	if row != nil && column != nil {
		return "cell at " + ground.CellName(row, column)
	}
	return ground.CellName(row, column)
}

// findInCells finds r.Text in one of the located cells of table t (as a
// quote: verbatim, then normalised). Text in another cell of the table, or
// elsewhere, is a mismatch saying where.
func (a *Anchorer) findInCells(r Ref, t ground.Table, cells []ground.Cell) (hit, *Anchor) {
	el, _ := a.v.Element(t.ElementRef)
	for _, method := range []string{ground.MethodExact, ground.MethodNormalized} {
		for i := range cells {
			if holds(cells[i].Text, r.Text) == method {
				return hit{first: el, last: el, method: method, table: t.ID, cell: &cells[i]}, nil
			}
		}
	}
	located := fmt.Sprintf("%s of table %s", cellName(r.Row, r.Column), t.ID)
	for _, c := range t.Cells {
		if m := holds(c.Text, r.Text); m != "" {
			an := result(StatusMismatch, "", MethodTableCell, fmt.Sprintf("the text is not in the located %s; it is in table %s at row %d, column %d", located, t.ID, c.Row, c.Column), nil)
			return hit{}, &an
		}
	}
	if m, ok := a.v.FindText(r.Text); ok {
		an := result(StatusMismatch, "", m.Method, fmt.Sprintf("the text is not in the located %s; it occurs only outside it, at %s", located, a.v.Where(m.First)), nil)
		return hit{}, &an
	}
	an := a.notFound(r.Text)
	return hit{}, &an
}

// holds is how have holds text: exact, normalized, or "" (verify's quote
// rule, for a cell's text).
func holds(have, text string) string {
	switch {
	case strings.Contains(have, text):
		return ground.MethodExact
	case strings.Contains(ground.NormText(have), ground.NormText(text)):
		return ground.MethodNormalized
	}
	return ""
}

// bindingOf is the binding of a hit; withBox adds its box: the cell's when
// the hit is a cell with one, else the union of the elements' boxes.
func (a *Anchorer) bindingOf(h hit, withBox bool) *Binding {
	b := a.elementsBinding(h.first, h.last, withBox)
	if h.cell == nil {
		return b
	}
	c := h.cell
	b.TableRef, b.Row, b.Column, b.Text = h.table, &c.Row, &c.Column, c.Text
	if withBox && c.BBox != nil {
		b.BBox = fromBox(*c.BBox)
	}
	return b
}

// hasText reports whether the ref carries text to find.
func hasText(r Ref) bool { return strings.TrimSpace(r.Text) != "" }

// narrows reports whether the ref carries a field beyond a page ref's own
// (page and box) that must narrow its binding.
func narrows(r Ref) bool {
	return r.ElementRef != "" || r.TableRef != "" || r.Row != nil || r.Column != nil || r.Text != ""
}

// narrowed checks the fields of a page-level binding beyond the page and
// box (element, table, row/column, text) and returns the binding they
// narrow it to: the elements holding the text, else the elements (and
// cells) named.
func (a *Anchorer) narrowed(r Ref, b *Binding) (*Binding, string, *Anchor) {
	if !narrows(r) {
		return b, "", nil
	}
	if r.Text != "" {
		if !hasText(r) {
			an := result(StatusNotFound, "", MethodNone, "the ref's text is blank: it names nothing", nil)
			return nil, "", &an
		}
		h, bad := a.findText(r)
		if bad != nil {
			return nil, "", bad
		}
		nb := a.bindingOf(h, false)
		nb.BBox = b.BBox
		return nb, h.method, nil
	}
	sc, bad := a.locate(r)
	if bad != nil {
		return nil, "", bad
	}
	t, cells, bad := a.cells(r)
	if bad != nil {
		return nil, "", bad
	}
	for _, i := range sc.Elements {
		e := a.v.Source().Elements()[i]
		b.ElementRefs = append(b.ElementRefs, e.ID)
		b.NativeRefs = append(b.NativeRefs, e.NativeID)
	}
	if len(cells) == 1 {
		b.TableRef, b.Row, b.Column, b.Text = t.ID, &cells[0].Row, &cells[0].Column, cells[0].Text
	}
	return b, "", nil
}
