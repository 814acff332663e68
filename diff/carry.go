package diff

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/verify"
)

// Verdicts of a claim carried from the old document to the new one.
const (
	CarryGrounded     = "still_grounded"      // grounded in both, in the same section
	CarryMoved        = "moved"               // grounded in both, now in another section
	CarryChanged      = "changed"             // the cited text was edited: edits show how
	CarryContradicted = "contradicted"        // a value claim whose value changed
	CarryGone         = "gone"                // the cited text is no longer there
	CarryNotGrounded  = "not_grounded_before" // not grounded on the old document either
)

// CarryReport is `sieve diff OLD NEW --citations FILE`: every claim
// checked on both documents (schemas/diff-citations.schema.json).
type CarryReport struct {
	SchemaVersion string       `json:"schema_version"`
	Status        string       `json:"status"` // the page diff's status
	Old           CarrySide    `json:"old"`
	New           CarrySide    `json:"new"`
	Summary       CarrySummary `json:"summary"`
	Claims        []Carried    `json:"claims"`
}

// CarrySide identifies a document the claims were checked on.
type CarrySide struct {
	Path                string `json:"path"`
	DocumentFingerprint string `json:"document_fingerprint"`
	SourceFingerprint   string `json:"source_fingerprint"`
}

// CarrySummary counts the claims by verdict.
type CarrySummary struct {
	StillGrounded     int `json:"still_grounded"`
	Moved             int `json:"moved"`
	Changed           int `json:"changed"`
	Contradicted      int `json:"contradicted"`
	Gone              int `json:"gone"`
	NotGroundedBefore int `json:"not_grounded_before"`
}

// Carried is one claim's verdict (CarryVerdict) under its claim id.
type Carried struct {
	ClaimID string `json:"claim_id"`
	CarryVerdict
}

// Carry re-checks every claim on the old and the new document. The
// claims' own fingerprints are set aside: they name the old document, and
// the point is to check them on the new one. d is the page diff of the two,
// where the edits of cited blocks are looked up.
func Carry(old, new ground.Source, cit verify.Citations, d *Report) *CarryReport {
	r := &CarryReport{SchemaVersion: record.SchemaVersion, Status: d.Status,
		Old: carrySide(old, d.Old.Path), New: carrySide(new, d.New.Path), Claims: []Carried{}}
	vo, vn := verify.New(old), verify.New(new)
	secOld, secNew := sectionsOf(old), sectionsOf(new)
	edits := editsByOldBlock(d)
	native := nativeIDs(old)
	for i, c := range cit.Claims {
		c.DocumentFingerprint, c.SourceFingerprint = "", ""
		oc := vo.Check(i+1, c)
		nc := vn.Check(i+1, carried(c, native, d))
		cc := Carried{ClaimID: c.ClaimID, CarryVerdict: newVerdict(c.Kind,
			carriedSide{oc.Status, refs(oc), section(secOld, oc)},
			carriedSide{nc.Status, refs(nc), section(secNew, nc)}, nc.Reason, edits)}
		cc.Status = verdict(c, oc, nc, &cc.CarryVerdict)
		r.count(cc.Status)
		r.Claims = append(r.Claims, cc)
	}
	return r
}

func verdict(c verify.Claim, oc, nc verify.Check, cc *CarryVerdict) string {
	switch {
	case oc.Status != verify.StatusGrounded:
		return CarryNotGrounded
	case nc.Status == verify.StatusGrounded && cc.OldSectionID == cc.NewSectionID:
		return CarryGrounded
	case nc.Status == verify.StatusGrounded:
		return CarryMoved
	case c.Kind == verify.KindValue && (nc.Status == verify.StatusMismatch || edited(cc.Edits)):
		// The cited block is still there (or the value stands beside
		// another one) and no longer says it.
		return CarryContradicted
	case edited(cc.Edits):
		return CarryChanged
	}
	return CarryGone
}

func edited(edits []BlockChange) bool {
	for _, e := range edits {
		if e.Change == Edited {
			return true
		}
	}
	return false
}

// carried is the claim with its locator moved to the new document: an
// element (ours or the native block id) becomes the new id of the block it
// named, a section its new id (after a rename). A block the new document
// lacks keeps its old id, which then names nothing or another block.
func carried(c verify.Claim, native map[string]string, d *Report) verify.Claim {
	if c.Locator == nil {
		return c
	}
	l := *c.Locator
	if l.Element != "" {
		n, ok := native[l.Element]
		if !ok {
			n = l.Element // a native block id already
		}
		if b, ok := d.blocks[n]; ok {
			l.Element = b
		}
	}
	if s, ok := d.sections[l.Section]; ok {
		l.Section = s
	}
	c.Locator = &l
	return c
}

func (r *CarryReport) count(status string) {
	s := &r.Summary
	switch status {
	case CarryGrounded:
		s.StillGrounded++
	case CarryMoved:
		s.Moved++
	case CarryChanged:
		s.Changed++
	case CarryContradicted:
		s.Contradicted++
	case CarryGone:
		s.Gone++
	default:
		s.NotGroundedBefore++
	}
}

// Stands reports whether every claim grounded on the old document is
// still grounded on the new one (in place or moved).
func (r *CarryReport) Stands() bool {
	return r.Summary.Changed+r.Summary.Contradicted+r.Summary.Gone == 0
}

func carrySide(s ground.Source, path string) CarrySide {
	return CarrySide{Path: path, DocumentFingerprint: s.DocumentFingerprint(), SourceFingerprint: s.SourceFingerprint()}
}

// nativeIDs maps a source's element ids to their native (block) ids.
func nativeIDs(s ground.Source) map[string]string {
	m := map[string]string{}
	for _, e := range s.Elements() {
		m[e.ID] = e.NativeID
	}
	return m
}

// sectionsOf maps element ids to their section ids.
func sectionsOf(s ground.Source) map[string]string {
	m := map[string]string{}
	for _, e := range s.Elements() {
		m[e.ID] = e.SectionID
	}
	return m
}

func section(m map[string]string, c verify.Check) string {
	if c.Evidence == nil || len(c.Evidence.ElementRefs) == 0 {
		return ""
	}
	return m[c.Evidence.ElementRefs[0]]
}

func refs(c verify.Check) []string {
	if c.Evidence == nil {
		return []string{}
	}
	return append([]string{}, c.Evidence.NativeRefs...)
}

// editsByOldBlock indexes the diff's edited and removed blocks by their old
// block id.
func editsByOldBlock(d *Report) map[string]BlockChange {
	m := map[string]BlockChange{}
	for _, e := range d.Sections {
		for _, bc := range e.Blocks {
			if bc.Change == Edited || bc.Change == Removed {
				m[bc.OldID] = bc
			}
		}
	}
	return m
}

// RenderCarry writes the carried claims in the named format (json is
// canonical JSON, like the diff).
func RenderCarry(r *CarryReport, format string) ([]byte, error) {
	return renderCarried(format, "sieve diff --citations: "+r.Status, r, func() string { return carryText(r) })
}

func carryText(r *CarryReport) string {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "claims carried from %s to %s (page %s)\n", r.Old.DocumentFingerprint, r.New.DocumentFingerprint, r.Status)
	fmt.Fprintf(&b, "claims: %d still grounded, %d moved, %d changed, %d contradicted, %d gone, %d not grounded before\n",
		s.StillGrounded, s.Moved, s.Changed, s.Contradicted, s.Gone, s.NotGroundedBefore)
	for _, c := range r.Claims {
		c.writeText(&b, c.ClaimID)
	}
	return b.String()
}
