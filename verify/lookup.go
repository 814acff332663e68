package verify

import "strings"

// The lookups below are the Verifier's indexes as an API, for other
// checkers over the same GroundingSource (anchor/): one index, one set of
// match rules.

// Match is where a text was found: elements First..Last (indexes into
// Source().Elements()) and the match method (exact, normalized,
// containment).
type Match struct {
	First, Last int
	Method      string
}

// Source is the grounding source the Verifier indexes.
func (v *Verifier) Source() GroundingSource { return v.src }

// FindText finds text in the visible elements, in time logarithmic in the
// source's size: verbatim, then after normalisation in one element, then
// across consecutive elements. The first hit in document order wins.
func (v *Verifier) FindText(text string) (Match, bool) {
	if h, ok := v.ix.exact.find(text); ok {
		return Match{h.first, h.last, MethodExact}, true
	}
	if h, ok := v.ix.norm.find(normText(text)); ok {
		m := MethodNormalized
		if h.first != h.last {
			m = MethodContainment
		}
		return Match{h.first, h.last, m}, true
	}
	return Match{}, false
}

// ElementHas reports how element i holds text: exact, normalized, or ""
// when it does not.
func (v *Verifier) ElementHas(i int, text string) string {
	e := v.src.Elements()[i]
	switch {
	case strings.Contains(e.Text, text):
		return MethodExact
	case strings.Contains(normText(e.Text), normText(text)):
		return MethodNormalized
	}
	return ""
}

// InLatent reports whether text occurs (normalised) in quarantined latent
// text.
func (v *Verifier) InLatent(text string) bool {
	_, ok := v.ix.latent.find(normText(text))
	return ok
}

// Element resolves an element id, ours (e000012) or the source's native id.
func (v *Verifier) Element(id string) (int, bool) {
	i, ok := v.byID[id]
	return i, ok
}

// Page resolves a page id.
func (v *Verifier) Page(id string) (Page, bool) {
	p, ok := v.pages[id]
	return p, ok
}

// Table resolves a table id, ours (t0001) or the source's native id.
func (v *Verifier) Table(id string) (Table, bool) {
	t, ok := v.tables[id]
	return t, ok
}

// Freshness compares the fingerprints a claim or ref was made against with
// the source's. reason is "" when they agree (or none was given); stale
// says whether a non-empty reason is staleness (true) or a fingerprint the
// source cannot compare (false).
func (v *Verifier) Freshness(document, source string) (stale bool, reason string) {
	return v.stale(document, source)
}

// CheckBox fails closed on a negative or empty box and on a box outside a
// page of known size.
func CheckBox(p Page, b Box) error { return checkBox(p, b) }

// Inside reports whether box e lies inside box r.
func Inside(e, r Box) bool { return inside(e, r) }

// Overlaps reports whether boxes a and b share some area.
func Overlaps(a, b Box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// NormText is the "normalized" match rule (ethos_collapse_whitespace_v1,
// then lower case and ASCII quotes and dashes).
func NormText(s string) string { return normText(s) }
