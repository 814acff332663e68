package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/record"
)

// AnchorCarryReport is `sieve diff OLD NEW --evidence-refs FILE`: every
// evidence-anchor ref bound on both documents
// (schemas/diff-anchors.schema.json). The verdicts are the claims' (no
// contradicted: a ref states no value).
type AnchorCarryReport struct {
	SchemaVersion string        `json:"schema_version"`
	Status        string        `json:"status"` // the page diff's status
	Old           CarrySide     `json:"old"`
	New           CarrySide     `json:"new"`
	Summary       AnchorSummary `json:"summary"`
	Refs          []CarriedRef  `json:"refs"`
}

// AnchorSummary counts the refs by verdict.
type AnchorSummary struct {
	StillGrounded     int `json:"still_grounded"`
	Moved             int `json:"moved"`
	Changed           int `json:"changed"`
	Gone              int `json:"gone"`
	NotGroundedBefore int `json:"not_grounded_before"`
}

// CarriedRef is one ref's verdict (CarryVerdict) under its evidence id:
// its anchor status on each document, the sections its binding lay in and
// the blocks it bound (native ids).
type CarriedRef struct {
	EvidenceID string `json:"evidence_id"`
	CarryVerdict
}

// CarryAnchors binds every ref on the old and on the new document, as
// `sieve evidence anchor` does. The refs' fingerprints are set aside (they
// name the old document); an element_ref or table_ref (positional e…/t…
// ids) is carried to the same block in the new document through d.
func CarryAnchors(old, new ground.Source, refs []anchor.Ref, d *Report) *AnchorCarryReport {
	r := &AnchorCarryReport{SchemaVersion: record.SchemaVersion, Status: d.Status,
		Old: carrySide(old, d.Old.Path), New: carrySide(new, d.New.Path), Refs: []CarriedRef{}}
	ao, an := anchor.New(old), anchor.New(new)
	secOld, secNew := sectionsOf(old), sectionsOf(new)
	edits := editsByOldBlock(d)
	move := newRefMover(old, new, d)
	for _, ref := range refs {
		ref.DocumentFingerprint, ref.SourceFingerprint = "", ""
		oa := ao.Anchor(ref, "", "")
		na := an.Anchor(move.carry(ref), "", "")
		cr := CarriedRef{EvidenceID: ref.EvidenceID, CarryVerdict: newVerdict(ref.Kind,
			carriedSide{oa.Status, natives(oa), boundSection(secOld, oa)},
			carriedSide{na.Status, natives(na), boundSection(secNew, na)}, na.Reason, edits)}
		cr.Status = refVerdict(oa, na, &cr.CarryVerdict)
		r.count(cr.Status)
		r.Refs = append(r.Refs, cr)
	}
	return r
}

func refVerdict(oa, na anchor.Anchor, cr *CarryVerdict) string {
	switch {
	case oa.Status != anchor.StatusBound:
		return CarryNotGrounded
	case na.Status == anchor.StatusBound && cr.OldSectionID == cr.NewSectionID:
		return CarryGrounded
	case na.Status == anchor.StatusBound:
		return CarryMoved
	case edited(cr.Edits):
		return CarryChanged
	}
	return CarryGone
}

func (r *AnchorCarryReport) count(status string) {
	s := &r.Summary
	switch status {
	case CarryGrounded:
		s.StillGrounded++
	case CarryMoved:
		s.Moved++
	case CarryChanged:
		s.Changed++
	case CarryGone:
		s.Gone++
	default:
		s.NotGroundedBefore++
	}
}

// Stands reports whether every ref bound on the old document is still
// bound on the new one (in place or moved).
func (r *AnchorCarryReport) Stands() bool { return r.Summary.Changed+r.Summary.Gone == 0 }

func natives(a anchor.Anchor) []string {
	if a.Binding == nil || a.Status != anchor.StatusBound {
		return []string{}
	}
	return append([]string{}, a.Binding.NativeRefs...)
}

func boundSection(m map[string]string, a anchor.Anchor) string {
	if a.Binding == nil || a.Status != anchor.StatusBound || len(a.Binding.ElementRefs) == 0 {
		return ""
	}
	return m[a.Binding.ElementRefs[0]]
}

// refMover carries positional refs (e… elements, t… tables) from the old
// document to the new one by the blocks the diff matched.
type refMover struct {
	oldNative   map[string]string // old element id → native (block) id
	newElement  map[string]string // new native id → element id
	oldTableEl  map[string]string // old table id → its element id
	newTableOf  map[string]string // new element id → table id
	blocksMoved map[string]string // the diff's old → new block ids
}

func newRefMover(old, new ground.Source, d *Report) *refMover {
	m := &refMover{oldNative: map[string]string{}, newElement: map[string]string{},
		oldTableEl: map[string]string{}, newTableOf: map[string]string{}, blocksMoved: d.blocks}
	for _, e := range old.Elements() {
		m.oldNative[e.ID] = e.NativeID
	}
	for _, e := range new.Elements() {
		m.newElement[e.NativeID] = e.ID
	}
	for _, t := range old.Tables() {
		m.oldTableEl[t.ID] = t.ElementRef
	}
	for _, t := range new.Tables() {
		m.newTableOf[t.ElementRef] = t.ID
	}
	return m
}

// element is the new element id of old element id e, or e when the diff
// did not match its block (it then names nothing, or another element).
func (m *refMover) element(e string) string {
	if nb, ok := m.blocksMoved[m.oldNative[e]]; ok {
		if ne, ok := m.newElement[nb]; ok {
			return ne
		}
	}
	return e
}

func (m *refMover) carry(r anchor.Ref) anchor.Ref {
	if r.ElementRef != "" {
		r.ElementRef = m.element(r.ElementRef)
	}
	if r.TableRef != "" {
		if el, ok := m.oldTableEl[r.TableRef]; ok {
			if t, ok := m.newTableOf[m.element(el)]; ok {
				r.TableRef = t
			}
		}
	}
	return r
}

// ParseRefs reads the refs to carry: an evidence_anchor_request.json or a
// bare JSON array of evidence refs, each held to the anchor command's
// checks.
func ParseRefs(b []byte) ([]anchor.Ref, error) {
	b = bytes.TrimSpace(b)
	if !bytes.HasPrefix(b, []byte("[")) {
		req, err := anchor.ParseRequest(b)
		return req.EvidenceRefs, err
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, fmt.Errorf("no evidence refs")
	}
	refs := make([]anchor.Ref, len(raw))
	seen := map[string]bool{}
	for i, x := range raw {
		r, err := anchor.ParseRef(x)
		if err != nil {
			return nil, fmt.Errorf("evidence ref %d: %w", i, err)
		}
		if seen[r.EvidenceID] {
			return nil, fmt.Errorf("evidence ref %d: evidence_id %q is not unique", i, r.EvidenceID)
		}
		seen[r.EvidenceID], refs[i] = true, r
	}
	return refs, nil
}

// RenderAnchors writes the carried refs in the named format.
func RenderAnchors(r *AnchorCarryReport, format string) ([]byte, error) {
	return renderCarried(format, "sieve diff --evidence-refs: "+r.Status, r, func() string { return anchorText(r) })
}

func anchorText(r *AnchorCarryReport) string {
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "evidence refs carried from %s to %s (page %s)\n", r.Old.DocumentFingerprint, r.New.DocumentFingerprint, r.Status)
	fmt.Fprintf(&b, "refs: %d still grounded, %d moved, %d changed, %d gone, %d not grounded before\n",
		s.StillGrounded, s.Moved, s.Changed, s.Gone, s.NotGroundedBefore)
	for _, c := range r.Refs {
		c.writeText(&b, c.EvidenceID)
	}
	return b.String()
}
