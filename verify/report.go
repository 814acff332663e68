package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// Report identity.
const (
	ReportType          = "ethos.verification_report.v1"
	ReportSchemaVersion = "1.0.0"
)

// Report is verification_report.json.
type Report struct {
	ArtifactType             string         `json:"artifact_type"`
	SchemaVersion            string         `json:"schema_version"`
	Grounding                Grounding      `json:"grounding"`
	VerificationConfigSHA256 string         `json:"verification_config_sha256"`
	FingerprintStale         bool           `json:"fingerprint_stale"`
	AllEvidenceGrounded      bool           `json:"all_evidence_grounded"`
	CapabilityLimits         []ground.Limit `json:"capability_limits"`
	UnsupportedClaimKinds    []string       `json:"unsupported_claim_kinds"`
	Warnings                 []Warning      `json:"warnings"`
	Checks                   []Check        `json:"checks"`
	// findings are the grounding document's security findings.
	findings []ground.Finding
}

// Grounding identifies the source the claims were checked against.
type Grounding = ground.Grounding

// Warning is one report warning.
type Warning struct {
	ID        string   `json:"id"`
	Code      string   `json:"code"`
	Message   string   `json:"message"`
	CheckRefs []string `json:"check_refs"`
}

// verificationConfig is what verification_config_sha256 covers: the rules.
var verificationConfig = map[string]any{
	"normalized_text":   "ethos_collapse_whitespace_v1+lowercase+ascii_quotes_dashes",
	"value_units":       "claimed_unit_stated",
	"containment":       "consecutive_elements_joined_by_space",
	"latent_is_visible": false,
}

// Citations is the input of `sieve verify --citations`: a bare non-empty
// array of claims, or an envelope.
type Citations struct {
	DocumentFingerprint string  `json:"document_fingerprint,omitempty"`
	SourceFingerprint   string  `json:"source_fingerprint,omitempty"`
	Claims              []Claim `json:"claims"`
}

// ParseCitations reads citations.json under the one input rule of
// ground.Strict: canonicalizable JSON (valid UTF-8, no duplicate keys)
// valid against ethos-citations.schema.json (every claim with a claim_id,
// well-formed fingerprints, no unknown fields), and then the rule the
// schema cannot state: claim ids are unique.
func ParseCitations(b []byte) (Citations, error) {
	var c Citations
	if r := gjson.ParseBytes(b); gjson.ValidBytes(b) && (r.IsArray() && len(r.Array()) == 0 || r.Get("claims").IsArray() && len(r.Get("claims").Array()) == 0) {
		return c, errors.New("citations hold no claims")
	}
	if err := ground.Strict("ethos-citations", b); err != nil {
		return c, err
	}
	b = bytes.TrimSpace(b)
	dec := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(b))
		d.DisallowUnknownFields()
		return d.Decode(v)
	}
	if len(b) > 0 && b[0] == '[' {
		if err := dec(&c.Claims); err != nil {
			return c, err
		}
	} else if err := dec(&c); err != nil {
		return c, err
	}
	if len(c.Claims) == 0 {
		return c, errors.New("citations hold no claims")
	}
	seen := map[string]int{}
	for i, cl := range c.Claims {
		if j, dup := seen[cl.ClaimID]; dup {
			return c, fmt.Errorf("claims[%d]: claim_id %q is already the id of claims[%d]", i, cl.ClaimID, j)
		}
		seen[cl.ClaimID] = i
	}
	return c, nil
}

// Verify checks every claim (envelope fingerprints apply to claims that
// carry none) and assembles the report.
func Verify(src ground.Source, cit Citations) Report {
	v := New(src)
	r := newReport(src)
	r.findings = src.Findings()
	for i, c := range cit.Claims {
		if c.DocumentFingerprint == "" && c.SourceFingerprint == "" {
			c.DocumentFingerprint, c.SourceFingerprint = cit.DocumentFingerprint, cit.SourceFingerprint
		}
		r.Checks = append(r.Checks, v.Check(i+1, c))
	}
	r.finish()
	return r
}

func newReport(src ground.Source) Report {
	caps := src.Capabilities()
	g := Grounding{Identity: src.Identity(), Capabilities: caps}
	if fp := src.SourceFingerprint(); fp != "" {
		g.SourceFingerprint = &fp
	}
	if fp := src.DocumentFingerprint(); fp != "" {
		g.DocumentFingerprint = &fp
	}
	cfg, _ := c14n.FingerprintOf(verificationConfig)
	return Report{ArtifactType: ReportType, SchemaVersion: ReportSchemaVersion, Grounding: g,
		VerificationConfigSHA256: cfg, CapabilityLimits: append([]ground.Limit{}, caps.Limits...),
		UnsupportedClaimKinds: []string{}, Warnings: []Warning{}, Checks: []Check{}}
}

// finish derives the report-level fields from the checks.
func (r *Report) finish() {
	kinds := map[string]bool{}
	var latent []string
	all := len(r.Checks) > 0
	for _, c := range r.Checks {
		switch c.Status {
		case StatusStale:
			r.FingerprintStale = true
		case StatusUnsupported:
			kinds[c.Kind] = true
		}
		if c.latent {
			latent = append(latent, c.CheckID)
		}
		all = all && c.Status == StatusGrounded
	}
	r.UnsupportedClaimKinds = sortedKeys(kinds)
	r.AllEvidenceGrounded = all && !r.FingerprintStale
	if len(latent) > 0 {
		r.Warnings = append(r.Warnings, Warning{ID: "w0001", Code: "latent_text_cited",
			Message: "some claims cite text that is hidden from visitors (quarantined latent text); it may be planted to steer a model", CheckRefs: latent})
	}
	if r.FingerprintStale {
		r.Warnings = append(r.Warnings, Warning{ID: fmt.Sprintf("w%04d", len(r.Warnings)+1), Code: "fingerprint_stale",
			Message: "some claims were made against another version of the source", CheckRefs: refs(r.Checks, StatusStale)})
	}
	if f := SecurityFindings(r.findings); len(f) > 0 {
		r.Warnings = append(r.Warnings, Warning{ID: fmt.Sprintf("w%04d", len(r.Warnings)+1), Code: WarningSecurityFindings,
			Message: "the document carries security findings that may affect trust in its evidence (" + strings.Join(f, ", ") +
				"): review its security_report.json before relying on any check", CheckRefs: allRefs(r.Checks)})
	}
}

// WarningSecurityFindings is the code of the warning a report carries when
// its document has security findings of severity warning or above (SPEC.md
// §4.8: surfaced near verification results).
const WarningSecurityFindings = "security_findings"

// SecurityFindings names the findings that warn (ground.Finding.Warns),
// one phrase per code, most severe first: "prompt_injection_like_hidden_text
// (high, f0011)", "hidden_text (warning, 10 from f0001)". A finding known
// only from the document's security signals says its severity is not known.
func SecurityFindings(fs []ground.Finding) []string {
	type group struct {
		f ground.Finding
		n int
	}
	var groups []*group
	at := map[string]*group{}
	for _, f := range fs {
		if !f.Warns() {
			continue
		}
		key := f.Code + "/" + f.Severity
		if g := at[key]; g != nil {
			g.n++
			continue
		}
		at[key] = &group{f, 1}
		groups = append(groups, at[key])
	}
	rank := map[string]int{"high": 0, "warning": 1, "": 2}
	sort.SliceStable(groups, func(i, j int) bool { return rank[groups[i].f.Severity] < rank[groups[j].f.Severity] })
	var out []string
	for _, g := range groups {
		sev := g.f.Severity
		if sev == "" {
			sev = "severity not known: no security_report.json was read"
		}
		ids := g.f.ID
		if g.n > 1 {
			ids = fmt.Sprintf("%d from %s", g.n, g.f.ID)
		}
		out = append(out, fmt.Sprintf("%s (%s, %s)", g.f.Code, sev, ids))
	}
	return out
}

func allRefs(checks []Check) []string {
	out := []string{}
	for _, c := range checks {
		out = append(out, c.CheckID)
	}
	return out
}

func refs(checks []Check, status string) []string {
	out := []string{}
	for _, c := range checks {
		if c.Status == status {
			out = append(out, c.CheckID)
		}
	}
	return out
}

// Proof summaries (derived; never part of the report).
const (
	ProofVerified          = "verified"
	ProofPartiallyVerified = "partially_verified"
	ProofUnverified        = "unverified"
)

// ProofSummary is the derived proof status of SPEC.md §4.4, with the
// number of reusable checks. Where SPEC's two rules meet — all evidence
// grounded, yet no check reusable (every check semantic_unverified) — it
// is unverified: "verified" would claim a proof no check gives.
func (r *Report) ProofSummary() (string, int) {
	reusable := 0
	for _, c := range r.Checks {
		if c.Status == StatusGrounded && !c.SemanticUnverified && !r.FingerprintStale {
			reusable++
		}
	}
	switch {
	case reusable == 0:
		return ProofUnverified, reusable
	case r.AllEvidenceGrounded:
		return ProofVerified, reusable
	}
	return ProofPartiallyVerified, reusable
}

// ProofLimitations are the limitations a derived proof summary surfaces
// (SPEC.md §4.4): capability limits, stale checks, unsupported claim
// kinds, non-grounded checks, semantic-unverified checks and the
// document's security findings (§4.8), one phrase each, only those that
// apply.
func (r *Report) ProofLimitations() []string {
	var out []string
	if len(r.CapabilityLimits) > 0 {
		var codes []string
		for _, l := range r.CapabilityLimits {
			codes = append(codes, l.Code)
		}
		out = append(out, "capability limits: "+strings.Join(codes, ", "))
	}
	if r.FingerprintStale {
		out = append(out, "fingerprint stale: "+strings.Join(refs(r.Checks, StatusStale), " "))
	}
	if len(r.UnsupportedClaimKinds) > 0 {
		out = append(out, "unsupported claim kinds: "+strings.Join(r.UnsupportedClaimKinds, ", "))
	}
	var bad, semantic []string
	for _, c := range r.Checks {
		if c.Status != StatusGrounded && c.Status != StatusStale {
			bad = append(bad, c.CheckID+" "+c.Status)
		}
		if c.SemanticUnverified {
			semantic = append(semantic, c.CheckID)
		}
	}
	if len(bad) > 0 {
		out = append(out, "not grounded: "+strings.Join(bad, ", "))
	}
	if len(semantic) > 0 {
		out = append(out, "semantic unverified: "+strings.Join(semantic, " "))
	}
	if f := SecurityFindings(r.findings); len(f) > 0 {
		out = append(out, "security findings: "+strings.Join(f, ", "))
	}
	return out
}

// Canonical is the report as canonical JSON.
func (r *Report) Canonical() ([]byte, error) { return c14n.Marshal(r) }
