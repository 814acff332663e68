package verify

import (
	"fmt"
	"sort"
	"strings"

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
	MethodExact       = "exact"
	MethodNormalized  = "normalized"
	MethodContainment = "containment"
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

// Locator points into a source. Element accepts our id (e000012) or the
// source's native id (a sieve block id, b_012).
type Locator struct {
	Page    string `json:"page,omitempty"`
	Element string `json:"element,omitempty"`
	Section string `json:"section,omitempty"`
	Table   string `json:"table,omitempty"`
	Row     *int   `json:"row,omitempty"`
	Column  *int   `json:"column,omitempty"`
	BBox    []int  `json:"bbox,omitempty"` // [x, y, w, h], ethos_quantized_top_left_v1
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
}

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
// a lookup in the source's indexes, not a scan.
type Verifier struct {
	src    GroundingSource
	caps   Capabilities
	ix     *index
	values valueIndex
	byID   map[string]int // element id and native id → index
	pages  map[string]Page
	tables map[string]Table
}

// New indexes src.
func New(src GroundingSource) *Verifier {
	v := &Verifier{src: src, caps: src.Capabilities(), ix: newIndex(src), values: newValueIndex(src.Elements()),
		byID: map[string]int{}, pages: map[string]Page{}, tables: map[string]Table{}}
	for i, e := range src.Elements() {
		v.byID[e.ID] = i
		if e.NativeID != "" {
			v.byID[e.NativeID] = i
		}
	}
	for _, p := range src.Pages() {
		v.pages[p.ID] = p
	}
	for _, t := range src.Tables() {
		v.tables[t.ID] = t
		if t.NativeID != "" {
			v.tables[t.NativeID] = t
		}
	}
	return v
}

// Check checks one claim; n numbers the check (v%04d).
func (v *Verifier) Check(n int, c Claim) Check {
	ck := v.check(c)
	ck.CheckID = fmt.Sprintf("v%04d", n)
	ck.ClaimID = c.ClaimID
	ck.Kind = c.Kind
	ck.SemanticUnverified = c.Statement != ""
	if ck.MatchMethod == "" {
		ck.MatchMethod = MethodNone
	}
	return ck
}

func (v *Verifier) check(c Claim) Check {
	if stale, reason := v.stale(c.DocumentFingerprint, c.SourceFingerprint); reason != "" {
		if stale {
			return Check{Status: StatusStale, Reason: reason}
		}
		return Check{Status: StatusCapabilityBlocked, Reason: reason}
	}
	switch c.Kind {
	case KindQuote:
		return v.quote(c)
	case KindValue:
		return v.value(c)
	case KindPresence:
		return v.presence(c)
	case KindTableCell:
		return v.tableCell(c)
	case KindRegion:
		return v.region(c)
	case KindOther:
		return Check{Status: StatusUnsupported, Reason: "claims of kind other carry no rule a literal check can apply"}
	}
	return Check{Status: StatusUnsupported, Reason: fmt.Sprintf("claim kind %q is not a v1 claim kind", c.Kind)}
}

// stale compares the fingerprints a claim was made against with the
// source's. It returns a reason when the claim cannot be checked: stale,
// or (stale false) a fingerprint the source cannot compare.
func (v *Verifier) stale(doc, src string) (bool, string) {
	for _, f := range []struct{ name, claimed, have string }{
		{"document", doc, v.src.DocumentFingerprint()},
		{"source", src, v.src.SourceFingerprint()},
	} {
		switch {
		case f.claimed == "":
		case !c14n.IsFingerprint(f.claimed):
			return false, fmt.Sprintf("the claim's %s fingerprint %q is not sha256:<64 lowercase hex>", f.name, f.claimed)
		case f.have == "":
			return false, fmt.Sprintf("the grounding source has no %s fingerprint: freshness cannot be checked", f.name)
		case f.claimed != f.have:
			return true, fmt.Sprintf("the claim cites %s fingerprint %s; the source is %s", f.name, f.claimed, f.have)
		}
	}
	return false, ""
}

func (v *Verifier) evidence(first, last int) *Evidence {
	els := v.src.Elements()
	ev := &Evidence{PageRef: els[first].PageRef, ElementRefs: []string{}, NativeRefs: []string{}}
	var texts []string
	for i := first; i <= last; i++ {
		ev.ElementRefs = append(ev.ElementRefs, els[i].ID)
		ev.NativeRefs = append(ev.NativeRefs, els[i].NativeID)
		texts = append(texts, els[i].Text)
	}
	ev.Text = strings.Join(texts, "\n")
	return ev
}

// locate resolves a locator's element, failing closed on one that cannot
// be right. ok is false with a Check to return.
func (v *Verifier) locate(l *Locator) (int, *Check) {
	if l.Page != "" {
		if _, ok := v.pages[l.Page]; !ok {
			return -1, &Check{Status: StatusError, Reason: fmt.Sprintf("locator page %q is not a page of the source", l.Page)}
		}
	}
	if l.Element == "" {
		return -1, nil
	}
	i, ok := v.byID[l.Element]
	if !ok {
		return -1, &Check{Status: StatusError, Reason: fmt.Sprintf("locator element %q is not an element of the source", l.Element)}
	}
	if l.Page != "" && v.src.Elements()[i].PageRef != l.Page {
		return -1, &Check{Status: StatusError, Reason: fmt.Sprintf("element %q is not on page %s", l.Element, l.Page)}
	}
	return i, nil
}

func (v *Verifier) quote(c Claim) Check {
	if strings.TrimSpace(c.Text) == "" {
		return Check{Status: StatusError, Reason: "a quote claim needs text"}
	}
	at := -1
	if c.Locator != nil {
		i, bad := v.locate(c.Locator)
		if bad != nil {
			return *bad
		}
		at = i
	}
	if at >= 0 {
		return v.quoteAt(c, at)
	}
	if h, ok := v.ix.exact.find(c.Text); ok {
		return Check{Status: StatusGrounded, MatchMethod: MethodExact, Reason: "the quote occurs verbatim", Evidence: v.evidence(h.first, h.last)}
	}
	if h, ok := v.ix.norm.find(normText(c.Text)); ok {
		if h.first == h.last {
			return Check{Status: StatusGrounded, MatchMethod: MethodNormalized, Reason: "the quote occurs after normalisation (white space, case, quotes, dashes)", Evidence: v.evidence(h.first, h.last)}
		}
		return Check{Status: StatusGrounded, MatchMethod: MethodContainment, Reason: "the quote runs across consecutive elements", Evidence: v.evidence(h.first, h.last)}
	}
	return v.notFound(c.Text, "the quote")
}

func (v *Verifier) quoteAt(c Claim, i int) Check {
	e := v.src.Elements()[i]
	switch {
	case strings.Contains(e.Text, c.Text):
		return Check{Status: StatusGrounded, MatchMethod: MethodExact, Reason: "the quote occurs verbatim at the cited element", Evidence: v.evidence(i, i)}
	case strings.Contains(normText(e.Text), normText(c.Text)):
		return Check{Status: StatusGrounded, MatchMethod: MethodNormalized, Reason: "the quote occurs at the cited element after normalisation", Evidence: v.evidence(i, i)}
	}
	reason := "the cited element does not contain the quote"
	if h, ok := v.ix.norm.find(normText(c.Text)); ok {
		reason += "; it occurs at " + v.src.Elements()[h.first].ID
	}
	return Check{Status: StatusMismatch, MatchMethod: MethodNormalized, Reason: reason, Evidence: v.evidence(i, i)}
}

// notFound says whether text occurs only in quarantined latent text.
func (v *Verifier) notFound(text, what string) Check {
	if _, ok := v.ix.latent.find(normText(text)); ok {
		return Check{Status: StatusNotFound, MatchMethod: MethodNormalized, Reason: LatentOnly}
	}
	reason := what + " does not occur in the visible text"
	if !v.caps.LatentTier {
		reason += " (the source has no latent tier: hidden text was not inspected)"
	}
	return Check{Status: StatusNotFound, MatchMethod: MethodNormalized, Reason: reason}
}

// LatentOnly is the reason of a check whose text occurs only in hidden text.
const LatentOnly = "found only in quarantined latent (hidden) text: present in the markup but not shown to visitors, so it is not grounded visible evidence"

func (v *Verifier) presence(c Claim) Check {
	if strings.TrimSpace(c.Text) == "" {
		return Check{Status: StatusError, Reason: "a presence claim needs text"}
	}
	if h, ok := v.ix.norm.find(normText(c.Text)); ok {
		if c.Locator != nil && c.Locator.Section != "" && v.src.Elements()[h.first].SectionID != c.Locator.Section {
			return v.presenceInSection(c)
		}
		return Check{Status: StatusGrounded, MatchMethod: MethodPresence, Reason: "the text is present", Evidence: v.evidence(h.first, h.last)}
	}
	return v.notFound(c.Text, "the text")
}

// presenceInSection scans one section's elements: a section is small.
func (v *Verifier) presenceInSection(c Claim) Check {
	n := normText(c.Text)
	for i, e := range v.src.Elements() {
		if e.SectionID == c.Locator.Section && strings.Contains(normText(e.Text), n) {
			return Check{Status: StatusGrounded, MatchMethod: MethodPresence, Reason: "the text is present in the cited section", Evidence: v.evidence(i, i)}
		}
	}
	return Check{Status: StatusMismatch, MatchMethod: MethodPresence, Reason: "the text is present, but not in section " + c.Locator.Section}
}

func (v *Verifier) value(c Claim) Check {
	claimed := values(c.Value)
	if len(claimed) != 1 {
		return Check{Status: StatusError, Reason: fmt.Sprintf("value %q is not one number, percentage, amount or date", c.Value)}
	}
	want := claimed[0]
	if c.Locator != nil {
		i, bad := v.locate(c.Locator)
		if bad != nil {
			return *bad
		}
		if i >= 0 {
			return v.valueAt(want, c.Value, i)
		}
	}
	for _, hit := range v.values[want.key] {
		if sameValue(want, hit.v) {
			return Check{Status: StatusGrounded, MatchMethod: MethodNormalized, Reason: "the value is stated (compared after normalising separators, units and dates)", Evidence: v.evidence(hit.el, hit.el)}
		}
	}
	if len(v.values[want.key]) > 0 {
		return Check{Status: StatusMismatch, MatchMethod: MethodNormalized, Reason: "the number is stated, but with another unit"}
	}
	return v.notFound(c.Value, "the value")
}

func (v *Verifier) valueAt(want value, raw string, i int) Check {
	stated := values(v.src.Elements()[i].Text)
	for _, s := range stated {
		if sameValue(want, s) {
			return Check{Status: StatusGrounded, MatchMethod: MethodNormalized, Reason: "the cited element states the value", Evidence: v.evidence(i, i)}
		}
	}
	return Check{Status: StatusMismatch, MatchMethod: MethodNormalized, Reason: fmt.Sprintf("the cited element does not state %q", raw), Evidence: v.evidence(i, i)}
}

func (v *Verifier) tableCell(c Claim) Check {
	if !v.caps.Tables {
		return Check{Status: StatusCapabilityBlocked, Reason: "the grounding source has no tables"}
	}
	l := c.Locator
	if l == nil || l.Table == "" || l.Row == nil || l.Column == nil {
		return Check{Status: StatusError, Reason: "a table_cell claim needs locator.table, row and column"}
	}
	if *l.Row < 0 || *l.Column < 0 {
		return Check{Status: StatusError, Reason: "a table_cell locator has a negative row or column"}
	}
	t, ok := v.tables[l.Table]
	if !ok {
		return Check{Status: StatusError, Reason: fmt.Sprintf("locator table %q is not a table of the source", l.Table)}
	}
	want := c.Text
	if want == "" {
		want = c.Value
	}
	ev := &Evidence{PageRef: t.PageRef, ElementRefs: []string{t.ElementRef}, NativeRefs: []string{t.NativeID}, TableRef: t.ID}
	for _, cell := range t.Cells {
		if cell.Row != *l.Row || cell.Column != *l.Column {
			continue
		}
		ev.Text = cell.Text
		if cell.BBox != nil {
			ev.BBox = []int{cell.BBox.X, cell.BBox.Y, cell.BBox.W, cell.BBox.H}
		}
		if normText(cell.Text) == normText(want) || cellValue(want, cell.Text) {
			return Check{Status: StatusGrounded, MatchMethod: MethodTableCell, Reason: "the cell holds the claimed text", Evidence: ev}
		}
		return Check{Status: StatusMismatch, MatchMethod: MethodTableCell, Reason: "the cell holds other text", Evidence: ev}
	}
	return Check{Status: StatusNotFound, MatchMethod: MethodTableCell, Reason: fmt.Sprintf("table %s has no cell at row %d, column %d", t.ID, *l.Row, *l.Column)}
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
	if l == nil || len(l.BBox) != 4 || l.Page == "" {
		return Check{Status: StatusError, Reason: "a region claim needs locator.page and locator.bbox [x, y, w, h]"}
	}
	p, ok := v.pages[l.Page]
	if !ok {
		return Check{Status: StatusError, Reason: fmt.Sprintf("locator page %q is not a page of the source", l.Page)}
	}
	r := Box{l.BBox[0], l.BBox[1], l.BBox[2], l.BBox[3]}
	if err := checkBox(p, r); err != nil {
		return Check{Status: StatusError, Reason: err.Error()}
	}
	n := normText(c.Text)
	for i, e := range v.src.Elements() {
		if e.PageRef == l.Page && e.BBox != nil && inside(*e.BBox, r) && strings.Contains(normText(e.Text), n) {
			ev := v.evidence(i, i)
			ev.BBox = []int{e.BBox.X, e.BBox.Y, e.BBox.W, e.BBox.H}
			return Check{Status: StatusGrounded, MatchMethod: MethodBox, Reason: "an element inside the region holds the text", Evidence: ev}
		}
	}
	return Check{Status: StatusMismatch, MatchMethod: MethodBox, Reason: "no element inside the region holds the text"}
}

func inside(e, r Box) bool {
	return e.X >= r.X && e.Y >= r.Y && e.X+e.W <= r.X+r.W && e.Y+e.H <= r.Y+r.H
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
