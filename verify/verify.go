package verify

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// Claim kinds (SPEC.md §4.3). Any other kind is reported as unsupported.
const (
	KindQuote     = "quote"
	KindValue     = "value"
	KindPresence  = "presence"
	KindTableCell = "table_cell"
	KindRegion    = "region"
	KindOther     = "other"
)

// Check statuses (SPEC.md §4.4): a closed set.
const (
	StatusGrounded          = "grounded"
	StatusNotFound          = "not_found"
	StatusMismatch          = "mismatch"
	StatusStale             = "stale"
	StatusUnsupported       = "unsupported_claim_kind"
	StatusCapabilityBlocked = "capability_blocked"
	StatusError             = "error"
)

// Match methods.
const (
	MethodExact       = ground.MethodExact
	MethodNormalized  = ground.MethodNormalized
	MethodContainment = ground.MethodContainment
	MethodTableCell   = "table_cell"
	MethodBox         = "box_containment"
	MethodPresence    = "presence"
	MethodNone        = "none"
)

// Claim is one citation claim.
type Claim struct {
	ClaimID   string   `json:"claim_id,omitempty"`
	Kind      string   `json:"kind"`
	Text      string   `json:"text,omitempty"`
	Value     string   `json:"value,omitempty"`
	Locator   *Locator `json:"locator,omitempty"`
	Statement string   `json:"statement,omitempty"` // the answer sentence the evidence is meant to support: never checked
	// DocumentFingerprint / SourceFingerprint the claim was made against.
	DocumentFingerprint string `json:"document_fingerprint,omitempty"`
	SourceFingerprint   string `json:"source_fingerprint,omitempty"`
}

// Locator points into a source (SPEC.md §4.3, §7). Every field given
// narrows the search, for every claim kind (ground.Locator). Element
// accepts our id (e000012) or the source's native id (a sieve block id,
// b_012); section is a sieve section id; span and region are native span
// (s%06d) and region (r%04d) ids. Row and column (0-based) narrow the
// table to a row, a column or, together, a cell.
type Locator struct {
	Page    string `json:"page,omitempty"`
	Element string `json:"element,omitempty"`
	Section string `json:"section,omitempty"`
	Span    string `json:"span,omitempty"`
	Region  string `json:"region,omitempty"`
	Table   string `json:"table,omitempty"`
	Row     *int   `json:"row,omitempty"`
	Column  *int   `json:"column,omitempty"`
	BBox    []int  `json:"bbox,omitempty"` // [x, y, w, h], ethos_quantized_top_left_v1
}

func (l *Locator) ground() ground.Locator {
	if l == nil {
		return ground.Locator{}
	}
	return ground.Locator{Page: l.Page, Section: l.Section, Element: l.Element, Span: l.Span, Table: l.Table,
		Row: l.Row, Column: l.Column, Region: l.Region, BBox: l.BBox}
}

// Check is one verdict.
type Check struct {
	CheckID            string    `json:"check_id"`
	ClaimID            string    `json:"claim_id"`
	Kind               string    `json:"kind"`
	Status             string    `json:"status"`
	Reason             string    `json:"reason"`
	MatchMethod        string    `json:"match_method"`
	SemanticUnverified bool      `json:"semantic_unverified"`
	Evidence           *Evidence `json:"evidence"`
	// latent is set when the claim's text (or part of it) occurs only in
	// quarantined latent text: the report warns about it.
	latent bool
	// quote is the claim's text (its value for a value claim): what a crop
	// of the evidence marks. Not in the report: crop reads it in process.
	quote string
}

// Quote is the text the check's claim cited (its value for a value
// claim), "" when it cited none; crops mark the lines that hold it.
func (c Check) Quote() string { return c.quote }

// Evidence is where a grounded (or mismatching) claim points.
type Evidence struct {
	PageRef     string   `json:"page_ref"`
	ElementRefs []string `json:"element_refs"`
	NativeRefs  []string `json:"native_refs"`
	TableRef    string   `json:"table_ref,omitempty"`
	Text        string   `json:"text"`
	// BBox is the cited cell's or element's box on PageRef, when the
	// source has one (PDFs, render-tier pages) and the check is about it.
	BBox []int `json:"bbox,omitempty"`
}

// Verifier checks claims against one source. Build it once; Check is then
// a lookup in the source's indexes (ground.Index), not a scan.
type Verifier struct {
	x      *ground.Index
	src    ground.Source
	caps   ground.Capabilities
	values valueIndex
}

// New indexes src.
func New(src ground.Source) *Verifier {
	return &Verifier{x: ground.NewIndex(src), src: src, caps: src.Capabilities(), values: newValueIndex(src.Elements())}
}

// Check checks one claim; n numbers the check (v%04d). A claim of kind
// other, or with a statement, is never more than literal grounding:
// semantic_unverified is true.
func (v *Verifier) Check(n int, c Claim) Check {
	ck := v.check(c)
	ck.CheckID = fmt.Sprintf("v%04d", n)
	ck.ClaimID = c.ClaimID
	ck.Kind = c.Kind
	ck.quote = cmp.Or(c.Text, c.Value)
	ck.SemanticUnverified = c.Statement != "" || c.Kind == KindOther
	if ck.MatchMethod == "" {
		ck.MatchMethod = MethodNone
	}
	return ck
}

func (v *Verifier) check(c Claim) Check {
	for _, fp := range []string{c.DocumentFingerprint, c.SourceFingerprint} {
		if fp != "" && !c14n.IsFingerprint(fp) {
			return Check{Status: StatusError, Reason: fmt.Sprintf("the claim's fingerprint %q is not sha256:<64 lowercase hex>", fp)}
		}
	}
	if stale, reason := v.x.Freshness(c.DocumentFingerprint, c.SourceFingerprint); reason != "" {
		if stale {
			return Check{Status: StatusStale, Reason: reason}
		}
		return Check{Status: StatusCapabilityBlocked, Reason: reason}
	}
	switch c.Kind {
	case KindQuote:
		return v.text(c, "the quote")
	case KindPresence, KindOther:
		return v.text(c, "the text")
	case KindValue:
		return v.value(c)
	case KindTableCell:
		return v.tableCell(c)
	case KindRegion:
		return v.region(c)
	}
	return Check{Status: StatusUnsupported, Reason: fmt.Sprintf("claim kind %q is not a v1 claim kind", c.Kind)}
}

// scope resolves a claim's locator, failing closed: a well-formed locator
// that names nothing in the source is not_found (the evidence is not
// there), a malformed one is an error, one the source cannot follow is
// capability_blocked.
func (v *Verifier) scope(c Claim) (ground.Scope, *Check) {
	sc, err := v.x.Resolve(c.Locator.ground())
	switch {
	case err == nil:
		return sc, nil
	case err.Blocked:
		return sc, &Check{Status: StatusCapabilityBlocked, Reason: err.Reason}
	case err.Absent:
		return sc, &Check{Status: StatusNotFound, Reason: err.Reason}
	}
	return sc, &Check{Status: StatusError, Reason: err.Reason}
}

// located is the evidence of elements first..last in scope: with located
// cells, the table and (for one cell) the cell's box.
func (v *Verifier) located(sc ground.Scope, first, last int) *Evidence {
	ev := v.evidence(first, last)
	if sc.Cells == nil || sc.Table == nil {
		return ev
	}
	ev.TableRef = sc.Table.ID
	if len(sc.Cells) == 1 && sc.Cells[0].BBox != nil {
		b := sc.Cells[0].BBox
		ev.BBox = []int{b.X, b.Y, b.W, b.H}
	}
	return ev
}

func (v *Verifier) evidence(first, last int) *Evidence {
	els := v.src.Elements()
	ev := &Evidence{PageRef: els[first].PageRef}
	ev.ElementRefs, ev.NativeRefs, ev.Text = ground.Refs(els[first : last+1])
	return ev
}

// text checks a quote, presence or other claim: its text in the located
// scope, else a mismatch that says where it is, else not found.
func (v *Verifier) text(c Claim, what string) Check {
	if strings.TrimSpace(c.Text) == "" {
		return Check{Status: StatusError, Reason: fmt.Sprintf("a %s claim needs text", c.Kind)}
	}
	sc, bad := v.scope(c)
	if bad != nil {
		return *bad
	}
	at := ""
	if !sc.All {
		at = " in the located " + sc.Desc
	}
	if m, ok := v.x.FindIn(sc, c.Text); ok {
		ck := Check{Status: StatusGrounded, MatchMethod: m.Method, Evidence: v.located(sc, m.First, m.Last)}
		switch m.Method {
		case MethodExact:
			ck.Reason = what + " occurs verbatim" + at
		case MethodNormalized:
			ck.Reason = what + " occurs" + at + " after normalisation (white space, case, quotes, dashes)"
		default:
			ck.Reason = what + " runs across consecutive elements" + at
		}
		if c.Kind == KindPresence {
			ck.MatchMethod, ck.Reason = MethodPresence, "the text is present"+at
		}
		ck.Reason += v.machineRead(m.First, m.Last)
		return ck
	}
	if !sc.All {
		if m, ok := v.x.FindText(c.Text); ok {
			return Check{Status: StatusMismatch, MatchMethod: m.Method, Evidence: v.evidence(m.First, m.Last),
				Reason: fmt.Sprintf("%s is not in the located %s; it occurs only outside it, at %s", what, sc.Desc, v.where(sc, m.First, c.Text))}
		}
	}
	return v.notFound(c.Text, what)
}

// where names element i for a reason; in the located table, the cell
// that holds text.
func (v *Verifier) where(sc ground.Scope, i int, text string) string {
	if sc.Table != nil && v.src.Elements()[i].ID == sc.Table.ElementRef {
		for _, c := range sc.Table.Cells {
			if ground.NormText(c.Text) != "" && strings.Contains(ground.NormText(c.Text), ground.NormText(text)) {
				return fmt.Sprintf("%s, row %d, column %d of table %s", v.x.Where(i), c.Row, c.Column, sc.Table.ID)
			}
		}
	}
	return v.x.Where(i)
}

// notFound says whether text occurs only in quarantined latent text,
// wholly or in part.
func (v *Verifier) notFound(text, what string) Check {
	if v.x.InLatent(text) {
		return Check{Status: StatusNotFound, MatchMethod: MethodNormalized, Reason: LatentOnly, latent: true}
	}
	if part := v.x.LatentPart(text); part != "" {
		return Check{Status: StatusNotFound, MatchMethod: MethodNormalized, latent: true,
			Reason: fmt.Sprintf("%s does not occur in the visible text: part of it (%s) occurs only in quarantined latent (hidden) text, run together with visible words", what, ground.MarkLatent(part))}
	}
	reason := what + " does not occur in the visible text"
	if !v.caps.LatentTier {
		reason += " (the source has no latent tier: hidden text was not inspected)"
	}
	return Check{Status: StatusNotFound, MatchMethod: MethodNormalized, Reason: reason}
}

// LatentOnly is the reason of a check whose text occurs only in hidden text.
const LatentOnly = ground.LatentOnly

func (v *Verifier) value(c Claim) Check {
	claimed := values(c.Value)
	if len(claimed) != 1 {
		return Check{Status: StatusError, Reason: fmt.Sprintf("value %q is not one number, percentage, amount or date", c.Value)}
	}
	want := claimed[0]
	sc, bad := v.scope(c)
	if bad != nil {
		return *bad
	}
	elsewhere, otherUnit, otherUnitOutside := -1, -1, -1
	for _, hit := range v.values[want.key] {
		in := sc.Has(hit.el) && v.statesIn(sc, hit.el, want.key)
		switch {
		case sameValue(want, hit.v) && in:
			reason := "the value is stated (compared after normalising separators, units and dates)"
			if !sc.All {
				reason = "the located " + sc.Desc + " states the value (compared after normalising separators, units and dates)"
			}
			return Check{Status: StatusGrounded, MatchMethod: MethodNormalized, Reason: reason + v.machineRead(hit.el, hit.el), Evidence: v.located(sc, hit.el, hit.el)}
		case sameValue(want, hit.v) && !in && elsewhere < 0:
			elsewhere = hit.el
		case in && otherUnit < 0:
			otherUnit = hit.el
		case !in && otherUnitOutside < 0:
			otherUnitOutside = hit.el
		}
	}
	switch {
	case elsewhere >= 0:
		return Check{Status: StatusMismatch, MatchMethod: MethodNormalized, Evidence: v.evidence(elsewhere, elsewhere),
			Reason: fmt.Sprintf("the located %s does not state %q; it is stated only outside it, at %s", sc.Desc, c.Value, v.x.Where(elsewhere))}
	case otherUnit >= 0:
		return Check{Status: StatusMismatch, MatchMethod: MethodNormalized, Evidence: v.located(sc, otherUnit, otherUnit),
			Reason: fmt.Sprintf("the number is stated, but not with the claimed unit %q, at %s", want.unit, v.x.Where(otherUnit))}
	case otherUnitOutside >= 0:
		// The number is on the page, but neither in the located scope nor
		// with the claimed unit: "does not occur" would be untrue.
		return Check{Status: StatusMismatch, MatchMethod: MethodNormalized, Evidence: v.evidence(otherUnitOutside, otherUnitOutside),
			Reason: fmt.Sprintf("the located %s does not state %q; the number is stated only outside it and not with the claimed unit %q, at %s", sc.Desc, c.Value, want.unit, v.x.Where(otherUnitOutside))}
	}
	return v.notFound(c.Value, "the value")
}

// statesIn reports whether element i's text, as the scope narrows it (a
// span, located cells), still states a value with the key.
func (v *Verifier) statesIn(sc ground.Scope, i int, key string) bool {
	els := v.src.Elements()
	t := sc.TextIn(els, i)
	if t == els[i].Text {
		return true
	}
	for _, w := range values(t) {
		if w.key == key {
			return true
		}
	}
	return false
}

func (v *Verifier) tableCell(c Claim) Check {
	if !v.caps.Tables {
		return Check{Status: StatusCapabilityBlocked, Reason: "the grounding source has no tables"}
	}
	l := c.Locator
	if l == nil || l.Table == "" || l.Row == nil || l.Column == nil {
		return Check{Status: StatusError, Reason: "a table_cell claim needs locator.table, row and column"}
	}
	want := c.Text
	if want == "" {
		want = c.Value
	}
	if strings.TrimSpace(want) == "" {
		return Check{Status: StatusError, Reason: "a table_cell claim needs text or value"}
	}
	sc, bad := v.scope(c)
	if bad != nil {
		return *bad
	}
	t, cell := sc.Table, sc.Cells[0]
	ev := &Evidence{PageRef: t.PageRef, ElementRefs: []string{t.ElementRef}, NativeRefs: []string{t.NativeID}, TableRef: t.ID, Text: cell.Text}
	if cell.BBox != nil {
		ev.BBox = []int{cell.BBox.X, cell.BBox.Y, cell.BBox.W, cell.BBox.H}
	}
	if cellHolds(cell.Text, want) {
		return Check{Status: StatusGrounded, MatchMethod: MethodTableCell, Reason: "the cell holds the claimed text", Evidence: ev}
	}
	reason := "the cell holds other text"
	for _, o := range t.Cells {
		if cellHolds(o.Text, want) {
			reason += fmt.Sprintf("; the claimed text is in table %s at row %d, column %d", t.ID, o.Row, o.Column)
			break
		}
	}
	return Check{Status: StatusMismatch, MatchMethod: MethodTableCell, Reason: reason, Evidence: ev}
}

func cellHolds(cell, want string) bool {
	return ground.NormText(cell) == ground.NormText(want) || cellValue(want, cell)
}

func cellValue(want, have string) bool {
	a, b := values(want), values(have)
	return len(a) == 1 && len(b) == 1 && sameValue(a[0], b[0])
}

func (v *Verifier) region(c Claim) Check {
	if !v.caps.Boxes {
		return Check{Status: StatusCapabilityBlocked, Reason: "the grounding source has no boxes (a static-tier web page is not laid out): a region claim cannot be checked"}
	}
	if v.caps.CoordinateOrigin != "top_left" {
		return Check{Status: StatusCapabilityBlocked, Reason: "the grounding source's boxes are " + v.caps.CoordinateOrigin + " and cannot be converted to ethos_quantized_top_left_v1"}
	}
	l := c.Locator
	if l == nil || (l.Region == "" && (len(l.BBox) != 4 || l.Page == "")) {
		return Check{Status: StatusError, Reason: "a region claim needs locator.region, or locator.page and locator.bbox [x, y, w, h]"}
	}
	sc, bad := v.scope(c)
	if bad != nil {
		return *bad
	}
	if strings.TrimSpace(c.Text) == "" {
		return Check{Status: StatusError, Reason: "a region claim needs text"}
	}
	n := ground.NormText(c.Text)
	els := v.src.Elements()
	for _, i := range sc.Elements {
		if strings.Contains(ground.NormText(sc.TextIn(els, i)), n) {
			ev := v.located(sc, i, i)
			ev.BBox = []int{els[i].BBox.X, els[i].BBox.Y, els[i].BBox.W, els[i].BBox.H}
			return Check{Status: StatusGrounded, MatchMethod: MethodBox, Reason: "an element inside the region holds the text", Evidence: ev}
		}
	}
	if m, ok := v.x.FindText(c.Text); ok {
		return Check{Status: StatusMismatch, MatchMethod: MethodBox, Evidence: v.evidence(m.First, m.Last),
			Reason: fmt.Sprintf("no element inside the located %s holds the text; it occurs only outside it, at %s", sc.Desc, v.x.Where(m.First))}
	}
	ck := v.notFound(c.Text, "the text")
	ck.MatchMethod = MethodBox
	return ck
}

// sortedKeys of a set.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
