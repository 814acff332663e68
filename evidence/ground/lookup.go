package ground

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// LatentOnly is the reason of a check or anchor whose text occurs only in
// hidden text.
const LatentOnly = "found only in quarantined latent (hidden) text: present in the markup but not shown to visitors, so it is not grounded visible evidence"

// MarkLatent quotes a fragment of latent text for a reason, with the trust
// marker inline before it (ARTIFACT.md: a fragment copied out of the
// latent tier still says what it is): [UNTRUSTED HIDDEN TEXT: …] "part".
func MarkLatent(part string) string {
	return "[" + graph.TrustMarker + "] " + strconv.Quote(part)
}

// Match methods of a text lookup.
const (
	MethodExact       = "exact"
	MethodNormalized  = "normalized"
	MethodContainment = "containment"
)

// Index is a Source with its lookups built once: element, page, table,
// span, region and section ids, and the text indexes. Every checker over a
// Source (verify, anchor) finds text and resolves locators through it.
type Index struct {
	src      Source
	caps     Capabilities
	ix       *index
	byID     map[string]int // element id and native id → index
	pages    map[string]Page
	tables   map[string]Table
	spans    map[string]Span
	regions  map[string]Region
	sections map[string]bool
}

// NewIndex indexes src.
func NewIndex(src Source) *Index {
	x := &Index{src: src, caps: src.Capabilities(), ix: newIndex(src), byID: map[string]int{},
		pages: map[string]Page{}, tables: map[string]Table{}, spans: map[string]Span{},
		regions: map[string]Region{}, sections: map[string]bool{}}
	for i, e := range src.Elements() {
		x.byID[e.ID] = i
		if e.NativeID != "" {
			x.byID[e.NativeID] = i
		}
	}
	for _, p := range src.Pages() {
		x.pages[p.ID] = p
	}
	for _, t := range src.Tables() {
		x.tables[t.ID] = t
		if t.NativeID != "" {
			x.tables[t.NativeID] = t
		}
	}
	for _, s := range src.Spans() {
		x.spans[s.ID] = s
	}
	for _, r := range src.Regions() {
		x.regions[r.ID] = r
	}
	for _, s := range src.Sections() {
		x.sections[s] = true
	}
	return x
}

// Source is the indexed source.
func (x *Index) Source() Source { return x.src }

// Match is where a text was found: elements First..Last (indexes into
// Source().Elements()) and the match method (exact, normalized,
// containment).
type Match struct {
	First, Last int
	Method      string
}

// FindText finds text in the visible elements, in time logarithmic in the
// source's size: verbatim, then after normalisation in one element, then
// across consecutive elements. The first hit in document order wins.
func (x *Index) FindText(text string) (Match, bool) {
	if h, ok := x.ix.exact.find(text); ok {
		return Match{h.first, h.last, MethodExact}, true
	}
	if h, ok := x.ix.norm.find(NormText(text)); ok {
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
func (x *Index) ElementHas(i int, text string) string { return holds(x.src.Elements()[i].Text, text) }

func holds(have, text string) string {
	switch {
	case strings.Contains(have, text):
		return MethodExact
	case strings.Contains(NormText(have), NormText(text)):
		return MethodNormalized
	}
	return ""
}

// InLatent reports whether text occurs (normalised) in quarantined latent
// text.
func (x *Index) InLatent(text string) bool {
	_, ok := x.ix.latent.find(NormText(text))
	return ok
}

// LatentPart returns the longest part of text (at least two words or 12
// characters, normalised) that occurs in quarantined latent text and
// nowhere in the visible text: a quote that runs visible words together
// with hidden ones. It is "" when there is none.
func (x *Index) LatentPart(text string) string {
	if len(x.ix.latent.starts) == 0 {
		return ""
	}
	words := strings.Fields(NormText(text))
	best := ""
	for i := range words {
		for j := len(words); j > i; j-- {
			part := strings.Join(words[i:j], " ")
			if len(part) <= len(best) {
				break
			}
			if j-i < 2 && len(part) < 12 {
				break
			}
			if _, ok := x.ix.latent.find(part); !ok {
				continue
			}
			if _, ok := x.ix.norm.find(part); !ok {
				best = part
			}
			break
		}
	}
	return best
}

// Element resolves an element id, ours (e000012) or the source's native id.
func (x *Index) Element(id string) (int, bool) {
	i, ok := x.byID[id]
	return i, ok
}

// Page resolves a page id.
func (x *Index) Page(id string) (Page, bool) {
	p, ok := x.pages[id]
	return p, ok
}

// Table resolves a table id, ours (t0001) or the source's native id.
func (x *Index) Table(id string) (Table, bool) {
	t, ok := x.tables[id]
	return t, ok
}

// Where names element i for a reason: "e000012 (page p0002, section s-x)".
func (x *Index) Where(i int) string {
	e := x.src.Elements()[i]
	s := e.ID + " (page " + e.PageRef
	if e.SectionID != "" {
		s += ", section " + e.SectionID
	}
	return s + ")"
}

// Freshness compares the fingerprints a claim or ref was made against with
// the source's. reason is "" when they agree (or none was given); stale
// says whether a non-empty reason is staleness (true) or a fingerprint the
// source cannot compare (false).
func (x *Index) Freshness(document, source string) (stale bool, reason string) {
	for _, f := range []struct{ name, claimed, have string }{
		{"document", document, x.src.DocumentFingerprint()},
		{"source", source, x.src.SourceFingerprint()},
	} {
		switch {
		case f.claimed == "":
		case !c14n.IsFingerprint(f.claimed):
			return false, fmt.Sprintf("the %s fingerprint %q is not sha256:<64 lowercase hex>", f.name, f.claimed)
		case f.have == "":
			return false, fmt.Sprintf("the grounding source has no %s fingerprint: freshness cannot be checked", f.name)
		case f.claimed != f.have:
			return true, fmt.Sprintf("the claim cites %s fingerprint %s; the source is %s", f.name, f.claimed, f.have)
		}
	}
	return false, ""
}

// Inside reports whether box e lies inside box r.
func Inside(e, r Box) bool {
	return e.X >= r.X && e.Y >= r.Y && e.X+e.W <= r.X+r.W && e.Y+e.H <= r.Y+r.H
}

// Overlaps reports whether boxes a and b share some area.
func Overlaps(a, b Box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}
