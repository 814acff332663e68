package ground

import (
	"fmt"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/internal/codec"
)

// Finding is one security finding of the source's document (SPEC.md §4.8):
// from its security_report.json when that was at hand, else from the
// document's own security_signals, which name a finding's code but not
// its severity (Severity "").
type Finding struct {
	ID       string
	Code     string
	Severity string // info | warning | high; "" when not known
}

// Warns reports whether the finding may affect trust in the document's
// evidence: severity warning or above, or a severity not known (fail
// closed: only the report says a finding is merely info).
func (f Finding) Warns() bool { return f.Severity != "info" }

func fromReport(fs []eef.Finding) []Finding {
	out := []Finding{}
	for _, f := range fs {
		out = append(out, Finding{ID: f.ID, Code: f.Code, Severity: f.Severity})
	}
	return out
}

func fromSignals(ss []eef.Signal) []Finding {
	out := []Finding{}
	for _, s := range ss {
		out = append(out, Finding{ID: s.FindingRef, Code: s.Code})
	}
	return out
}

// WithSecurityReport gives src the findings of the document's
// security_report.json b (the bundle's sibling of document.ethos.json),
// held to its schema and to src's document fingerprint: a report of
// another document is refused, never mixed in.
func WithSecurityReport(src Source, b []byte) (Source, error) {
	s, ok := src.(*source)
	if !ok {
		return nil, fmt.Errorf("security_report.json: the grounding source is not a document")
	}
	if err := Strict("ethos-security-report", b); err != nil {
		return nil, fmt.Errorf("security_report.json: %w", err)
	}
	var r eef.SecurityReport
	if err := codec.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("security_report.json: %w", err)
	}
	if r.DocumentFingerprint != s.documentFP {
		return nil, fmt.Errorf("security_report.json is the report of document %s, not of %s", r.DocumentFingerprint, s.documentFP)
	}
	out := *s
	out.findings = fromReport(r.Findings)
	return &out, nil
}
