// Package anchor binds evidence refs to source evidence (EEF SPEC.md
// §4.5–4.6, §6.3): sieve-anchor (evidence refs as JSONL on stdin, one
// anchor per line out) and `sieve evidence anchor DOC --evidence-refs FILE`
// (EEF's CLI shape, evidence_anchor_request.json in,
// evidence_anchor_report.json out).
//
// Anchoring answers one narrow question: does this ref still bind to the
// source, at the anchor level the caller requires? It runs on the same
// GroundingSource adapters and indexes as verify, and never guesses: a
// source without top-left boxes binds no bbox level (capability_limited),
// whatever its text says.
package anchor

import (
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// Artifact identities (SPEC.md §4.5–4.6).
const (
	RequestType   = "ethos.evidence_anchor_request.v1"
	ReportType    = "ethos.evidence_anchor_report.v1"
	SchemaVersion = "1.0.0"
)

// Evidence kinds (SPEC.md §4.5). Any other kind is unsupported; other is
// a kind, bound on its text like text (what it claims is never checked).
const (
	KindPage       = "page"
	KindText       = "text"
	KindTextRegion = "text_region"
	KindTableCell  = "table_cell"
	KindRegion     = "region"
	KindOther      = "other"
)

// Required anchor levels (SPEC.md §4.5).
const (
	LevelPage      = "page"
	LevelText      = "text"
	LevelBBox      = "bbox"
	LevelTextBBox  = "text_bbox"
	LevelTableCell = "table_cell"
)

// Anchor statuses (SPEC.md §4.6): a closed set.
const (
	StatusBound               = "bound"
	StatusMismatch            = "mismatch"
	StatusNotFound            = "not_found"
	StatusStale               = "stale_fingerprint"
	StatusCapabilityLimited   = "capability_limited"
	StatusUnsupportedEvidence = "unsupported_evidence_kind"
)

// Match methods, beyond verify's text methods (exact, normalized,
// containment, table_cell).
const (
	MethodPage      = "page_lookup"
	MethodBox       = "box_containment"
	MethodNone      = "none"
	MethodTableCell = "table_cell"
)

// kinds lists the levels each kind can be required at, the default first.
var kinds = map[string][]string{
	KindPage:       {LevelPage, LevelBBox},
	KindText:       {LevelText, LevelPage, LevelBBox, LevelTextBBox},
	KindTextRegion: {LevelTextBBox, LevelPage, LevelText, LevelBBox},
	KindTableCell:  {LevelTableCell, LevelPage},
	KindRegion:     {LevelBBox, LevelPage, LevelTextBBox},
	KindOther:      {LevelText, LevelPage},
}

// Ref is one evidence ref. Fingerprints on a ref override the request's.
type Ref struct {
	EvidenceID          string `json:"evidence_id"`
	Kind                string `json:"kind"`
	RequiredAnchorLevel string `json:"required_anchor_level,omitempty"`
	PageRef             string `json:"page_ref,omitempty"`
	ElementRef          string `json:"element_ref,omitempty"`
	TableRef            string `json:"table_ref,omitempty"`
	Row                 *int   `json:"row,omitempty"`
	Column              *int   `json:"column,omitempty"`
	Text                string `json:"text,omitempty"`
	BBox                []int  `json:"bbox,omitempty"` // [x, y, w, h], ethos_quantized_top_left_v1
	SourceFingerprint   string `json:"source_fingerprint,omitempty"`
	DocumentFingerprint string `json:"document_fingerprint,omitempty"`
}

// Request is evidence_anchor_request.json.
type Request struct {
	ArtifactType        string `json:"artifact_type"`
	SchemaVersion       string `json:"schema_version"`
	SourceFingerprint   string `json:"source_fingerprint,omitempty"`
	DocumentFingerprint string `json:"document_fingerprint,omitempty"`
	CoordinateProfile   string `json:"coordinate_profile,omitempty"`
	TextNormalization   string `json:"text_normalization,omitempty"`
	EvidenceRefs        []Ref  `json:"evidence_refs"`
}

// Anchor is the result for one evidence ref.
type Anchor struct {
	EvidenceID          string   `json:"evidence_id"`
	Kind                string   `json:"kind"`
	RequiredAnchorLevel *string  `json:"required_anchor_level"` // null: an unsupported kind that named none
	AchievedAnchorLevel *string  `json:"achieved_anchor_level"` // null when nothing bound
	Status              string   `json:"status"`
	Reason              string   `json:"reason"`
	MatchMethod         string   `json:"match_method"`
	Binding             *Binding `json:"binding"` // what the ref bound to, when anything
	// latent is set when the ref's text (or part of it) occurs only in
	// quarantined latent text: the report warns about it.
	latent bool
}

// Binding is the source evidence a ref bound to (fully or in part).
type Binding struct {
	PageRef     string   `json:"page_ref"`
	PageIndex   int      `json:"page_index"`
	ElementRefs []string `json:"element_refs"`
	NativeRefs  []string `json:"native_refs"`
	TableRef    string   `json:"table_ref,omitempty"`
	Row         *int     `json:"row,omitempty"`
	Column      *int     `json:"column,omitempty"`
	BBox        []int    `json:"bbox"` // top-left [x, y, w, h]; null when not bound at a box level
	Text        string   `json:"text"`
}

// Report is evidence_anchor_report.json.
type Report struct {
	ArtifactType      string           `json:"artifact_type"`
	SchemaVersion     string           `json:"schema_version"`
	Grounding         ground.Grounding `json:"grounding"`
	CoordinateProfile string           `json:"coordinate_profile"`
	TextNormalization string           `json:"text_normalization"`
	FingerprintStale  bool             `json:"fingerprint_stale"`
	AllBound          bool             `json:"all_bound"`
	CapabilityLimits  []ground.Limit   `json:"capability_limits"`
	Warnings          []Warning        `json:"warnings"`
	Anchors           []Anchor         `json:"anchors"`
}

// Canonical is the report as canonical JSON.
func (r *Report) Canonical() ([]byte, error) { return c14n.Marshal(r) }

// Warning is one report warning; its refs are evidence ids.
type Warning struct {
	ID           string   `json:"id"`
	Code         string   `json:"code"`
	Message      string   `json:"message"`
	EvidenceRefs []string `json:"evidence_refs"`
}
