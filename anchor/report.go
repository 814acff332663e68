package anchor

import (
	"fmt"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
)

// Run anchors every ref of a well-formed request (ParseRequest) and
// assembles the report: one anchor per ref, in request order.
func Run(src ground.Source, req Request) Report {
	a := New(src)
	r := newReport(src)
	for _, ref := range req.EvidenceRefs {
		r.Anchors = append(r.Anchors, a.Anchor(ref, req.DocumentFingerprint, req.SourceFingerprint))
	}
	r.finish()
	return r
}

func newReport(src ground.Source) Report {
	caps := src.Capabilities()
	g := ground.Grounding{Identity: src.Identity(), Capabilities: caps}
	if fp := src.SourceFingerprint(); fp != "" {
		g.SourceFingerprint = &fp
	}
	if fp := src.DocumentFingerprint(); fp != "" {
		g.DocumentFingerprint = &fp
	}
	return Report{ArtifactType: ReportType, SchemaVersion: SchemaVersion, Grounding: g,
		CoordinateProfile: c14n.CoordinateProfile, TextNormalization: c14n.TextNormalization,
		CapabilityLimits: append([]ground.Limit{}, caps.Limits...), Warnings: []Warning{}, Anchors: []Anchor{}}
}

// finish derives the report-level fields from the anchors.
func (r *Report) finish() {
	var latent, stale []string
	all := len(r.Anchors) > 0
	for _, an := range r.Anchors {
		switch {
		case an.Status == StatusStale:
			r.FingerprintStale = true
			stale = append(stale, an.EvidenceID)
		case an.latent:
			latent = append(latent, an.EvidenceID)
		}
		all = all && an.Status == StatusBound
	}
	r.AllBound = all
	if len(latent) > 0 {
		r.warn("latent_text_cited", "some evidence refs cite text that is hidden from visitors (quarantined latent text); it may be planted to steer a model", latent)
	}
	if len(stale) > 0 {
		r.warn("fingerprint_stale", "some evidence refs were made against another version of the source", stale)
	}
}

// warn adds a warning; its refs are evidence ids.
func (r *Report) warn(code, msg string, refs []string) {
	r.Warnings = append(r.Warnings, Warning{ID: fmt.Sprintf("w%04d", len(r.Warnings)+1), Code: code, Message: msg, EvidenceRefs: refs})
}

// Bound counts the bound anchors.
func (r *Report) Bound() int {
	n := 0
	for _, an := range r.Anchors {
		if an.Status == StatusBound {
			n++
		}
	}
	return n
}
