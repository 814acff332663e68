package anchor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// ParseRequest reads evidence_anchor_request.json. Input that is not
// canonicalizable JSON (duplicate keys, fractions, invalid UTF-8), unknown
// fields and refs that are malformed are errors: a request-shape problem is
// a usage error, never report data (SPEC.md §6.3).
//
// The checks below say what is wrong in sieve's words and add the one rule
// a schema cannot state, unique evidence ids; the request is then held to
// ground.Strict (c14n, then ethos-evidence-anchor-request.schema.json), so
// the command refuses exactly what the schema refuses.
func ParseRequest(b []byte) (Request, error) {
	var r Request
	if err := strictDecode(b, &r); err != nil {
		return r, err
	}
	if r.ArtifactType != RequestType {
		return r, fmt.Errorf("artifact_type is %q, want %q", r.ArtifactType, RequestType)
	}
	if r.SchemaVersion != SchemaVersion {
		return r, fmt.Errorf("schema_version is %q, want %q", r.SchemaVersion, SchemaVersion)
	}
	if err := checkProfiles(r.CoordinateProfile, r.TextNormalization); err != nil {
		return r, err
	}
	if err := checkFingerprints(r.SourceFingerprint, r.DocumentFingerprint); err != nil {
		return r, err
	}
	if len(r.EvidenceRefs) == 0 {
		return r, errors.New("evidence_refs is empty")
	}
	seen := map[string]bool{}
	for i, ref := range r.EvidenceRefs {
		if err := ValidateRef(ref); err != nil {
			return r, fmt.Errorf("evidence_refs[%d]: %w", i, err)
		}
		if seen[ref.EvidenceID] {
			return r, fmt.Errorf("evidence_refs[%d]: evidence_id %q is not unique", i, ref.EvidenceID)
		}
		seen[ref.EvidenceID] = true
	}
	return r, ground.Strict("ethos-evidence-anchor-request", b)
}

// ParseRef reads one evidence ref (a line of sieve-anchor's input).
func ParseRef(b []byte) (Ref, error) {
	var r Ref
	if err := strictDecode(b, &r); err != nil {
		return r, err
	}
	return r, ValidateRef(r)
}

// ParseRefLine reads one line of sieve-anchor's input: a ref whose
// top-level fields beyond a ref's own (a user's "id", "record") are left to
// the record contract, which carries them onto the output; everything a
// ref defines is held to ValidateRef.
func ParseRefLine(b []byte) (Ref, error) {
	var r Ref
	if _, err := c14n.Canonicalize(b); err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, err
	}
	return r, ValidateRef(r)
}

func strictDecode(b []byte, v any) error {
	if _, err := c14n.Canonicalize(b); err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	return d.Decode(v)
}

func checkProfiles(coord, text string) error {
	if coord != "" && coord != c14n.CoordinateProfile {
		return fmt.Errorf("coordinate_profile %q is not %s", coord, c14n.CoordinateProfile)
	}
	if text != "" && text != c14n.TextNormalization {
		return fmt.Errorf("text_normalization %q is not %s", text, c14n.TextNormalization)
	}
	return nil
}

func checkFingerprints(fps ...string) error {
	for _, fp := range fps {
		if fp != "" && !c14n.IsFingerprint(fp) {
			return fmt.Errorf("fingerprint %q is not sha256:<64 lowercase hex>", fp)
		}
	}
	return nil
}

var levels = []string{LevelPage, LevelText, LevelBBox, LevelTextBBox, LevelTableCell}

// ValidateRef checks that a ref is well formed: the fields its kind and
// level need are there and in range. A kind sieve does not anchor is well
// formed (it is reported as unsupported_evidence_kind).
func ValidateRef(r Ref) error {
	if r.EvidenceID == "" {
		return errors.New("evidence_id is missing")
	}
	if r.Kind == "" {
		return errors.New("kind is missing")
	}
	if err := checkFingerprints(r.SourceFingerprint, r.DocumentFingerprint); err != nil {
		return err
	}
	if r.RequiredAnchorLevel != "" && !slices.Contains(levels, r.RequiredAnchorLevel) {
		return fmt.Errorf("required_anchor_level %q is not one of %s", r.RequiredAnchorLevel, strings.Join(levels, ", "))
	}
	if r.BBox != nil {
		if err := checkBBox(r.BBox); err != nil {
			return err
		}
	}
	if (r.Row != nil && *r.Row < 0) || (r.Column != nil && *r.Column < 0) {
		return errors.New("row and column are 0-based and cannot be negative")
	}
	allowed, known := kinds[r.Kind]
	if !known {
		return nil
	}
	level := Level(r)
	if !slices.Contains(allowed, level) {
		return fmt.Errorf("a %s ref cannot be required at level %s (allowed: %s)", r.Kind, level, strings.Join(allowed, ", "))
	}
	return needs(r, level)
}

// needs checks the fields a kind at a level cannot do without.
func needs(r Ref, level string) error {
	var missing []string
	need := func(ok bool, field string) {
		if !ok {
			missing = append(missing, field)
		}
	}
	text := strings.TrimSpace(r.Text) != ""
	switch r.Kind {
	case KindPage:
		need(r.PageRef != "", "page_ref")
		need(level != LevelBBox || r.BBox != nil, "bbox")
	case KindText:
		need(text, "text")
	case KindOther:
		// At page level an other ref may name just its page (bound on the
		// page alone); text it does carry must not be blank.
		pageOnly := level == LevelPage && r.PageRef != "" && r.Text == ""
		need(text || pageOnly, map[bool]string{true: "text or page_ref", false: "text"}[level == LevelPage])
	case KindTextRegion:
		need(text, "text")
		need(r.PageRef != "", "page_ref")
		need(r.BBox != nil, "bbox")
	case KindTableCell:
		need(r.TableRef != "", "table_ref")
		need(r.Row != nil, "row")
		need(r.Column != nil, "column")
	case KindRegion:
		need(r.PageRef != "", "page_ref")
		need(r.BBox != nil, "bbox")
		need(level != LevelTextBBox || text, "text")
	}
	if len(missing) > 0 {
		return fmt.Errorf("a %s ref at level %s needs %s", r.Kind, level, strings.Join(missing, ", "))
	}
	return nil
}

func checkBBox(b []int) error {
	if len(b) != 4 {
		return fmt.Errorf("bbox has %d numbers, want [x, y, w, h]", len(b))
	}
	if b[0] < 0 || b[1] < 0 || b[2] <= 0 || b[3] <= 0 {
		return fmt.Errorf("bbox %v is negative or empty", b)
	}
	return nil
}

// Level is the ref's required anchor level: the one it names, else its
// kind's default ("" for a kind sieve does not anchor).
func Level(r Ref) string {
	if r.RequiredAnchorLevel != "" {
		return r.RequiredAnchorLevel
	}
	if l, ok := kinds[r.Kind]; ok {
		return l[0]
	}
	return ""
}
