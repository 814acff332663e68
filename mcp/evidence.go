package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/render"
	"github.com/sieve-dev/sieve/verify"
)

// evidenceDocument is the artifact file the evidence tools check against:
// the EEF document render writes, as `sieve verify` reads it.
const evidenceDocument = "evidence/document.ethos.json"

type verifyInput struct {
	Artifact string  `json:"artifact" jsonschema:"distill's handle"`
	Claims   rawJSON `json:"claims" jsonschema:"citation claims: a non-empty array of claims ({claim_id, kind: quote|value|table_cell|region|presence…, text, locator?}) or an envelope {document_fingerprint?, source_fingerprint?, claims: [...]} as sieve verify --citations reads"`
}

type verifyOutput struct {
	Artifact            string   `json:"artifact"`
	Proof               string   `json:"proof" jsonschema:"the SPEC.md §4.4 proof summary: verified, partially_verified or unverified"`
	ReusableChecks      int      `json:"reusable_checks"`
	Checks              int      `json:"checks"`
	AllEvidenceGrounded bool     `json:"all_evidence_grounded"`
	Limitations         []string `json:"limitations" jsonschema:"what limits the proof (SPEC.md §4.4): capability limits, stale fingerprints, unsupported claim kinds, checks not grounded, semantic-unverified checks, the document's security findings; empty when none apply"`
	Warnings            []string `json:"warnings" jsonschema:"the report's warnings as code: message (latent text cited, stale fingerprints, security findings of warning or high severity in the document, SPEC.md §4.8); empty when none"`
	Report              rawJSON  `json:"report" jsonschema:"verification_report.json, canonical, as sieve verify writes it"`
}

// source loads the artifact's grounding source.
func (s *Server) source(key string) (ground.Source, error) {
	var src ground.Source
	err := s.store.evidence(key, func(dir string) (err error) {
		src, err = evcmd.LoadFile(ground.FormatAuto, filepath.Join(dir, eef.FileDocument))
		return err
	})
	return src, err
}

func (s *Server) verifyCitations(_ context.Context, _ *mcp.CallToolRequest, in verifyInput) (*mcp.CallToolResult, verifyOutput, error) {
	var out verifyOutput
	src, err := s.source(in.Artifact)
	if err != nil {
		return nil, out, err
	}
	cit, err := verify.ParseCitations(in.Claims)
	if err != nil {
		return nil, out, evcmd.Coded(cliutil.ExitInvalidCitations, "invalid_citations", "%v", err)
	}
	r := verify.Verify(src, cit)
	s.remember(in.Artifact, &r)
	canon, err := r.Canonical()
	if err != nil {
		return nil, out, evcmd.Coded(cliutil.ExitInternal, "internal_error", "%v", err)
	}
	proof, n := r.ProofSummary()
	lim := r.ProofLimitations()
	if lim == nil {
		lim = []string{}
	}
	warnings := []string{}
	for _, w := range r.Warnings {
		warnings = append(warnings, w.Code+": "+w.Message)
	}
	out = verifyOutput{Artifact: in.Artifact, Proof: proof, ReusableChecks: n, Checks: len(r.Checks),
		AllEvidenceGrounded: r.AllEvidenceGrounded, Limitations: lim, Warnings: warnings, Report: canon}
	var b strings.Builder
	fmt.Fprintf(&b, "proof: %s (%d of %d checks reusable)\n", proof, n, len(r.Checks))
	if len(lim) > 0 {
		fmt.Fprintf(&b, "limitations: %s\n", strings.Join(lim, "; "))
	}
	// Before the verdicts: the warnings bear on every one (SPEC.md §4.8).
	for _, w := range warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	for _, c := range r.Checks {
		fmt.Fprintf(&b, "%s %s (%s): %s", c.CheckID, mustJSON(c.ClaimID), c.Kind, c.Status)
		if c.Reason != "" {
			fmt.Fprintf(&b, " (%s)", oneLine(c.Reason))
		}
		b.WriteByte('\n')
	}
	b.WriteString("A verdict proves literal grounding only: the text is in the captured page, visibly; never that a claim is true.\n")
	return textResult(b.String()), out, nil
}

type anchorInput struct {
	Artifact string  `json:"artifact" jsonschema:"distill's handle"`
	Refs     rawJSON `json:"refs,omitempty" jsonschema:"an evidence_refs array; or give request"`
	Request  rawJSON `json:"request,omitempty" jsonschema:"a whole evidence anchor request"`
}

type anchorOutput struct {
	Artifact string  `json:"artifact"`
	Bound    int     `json:"bound"`
	Refs     int     `json:"refs"`
	AllBound bool    `json:"all_bound"`
	Report   rawJSON `json:"report" jsonschema:"evidence_anchor_report.json, canonical, as sieve evidence anchor writes it"`
}

func (s *Server) anchorEvidence(_ context.Context, _ *mcp.CallToolRequest, in anchorInput) (*mcp.CallToolResult, anchorOutput, error) {
	var out anchorOutput
	body := []byte(in.Request)
	switch {
	case (len(in.Refs) == 0) == (len(in.Request) == 0):
		return nil, out, usagef("anchor_evidence takes refs or request (exactly one)")
	case len(in.Refs) > 0:
		b, err := json.Marshal(map[string]any{
			"artifact_type":  anchor.RequestType,
			"schema_version": anchor.SchemaVersion,
			"evidence_refs":  json.RawMessage(in.Refs),
		})
		if err != nil {
			return nil, out, evcmd.Coded(cliutil.ExitInvalidEvidenceRefs, "invalid_evidence_refs", "%v", err)
		}
		body = b
	}
	src, err := s.source(in.Artifact)
	if err != nil {
		return nil, out, err
	}
	req, err := anchor.ParseRequest(body)
	if err != nil {
		return nil, out, evcmd.Coded(cliutil.ExitInvalidEvidenceRefs, "invalid_evidence_refs", "%v", err)
	}
	r := anchor.Run(src, req)
	canon, err := r.Canonical()
	if err != nil {
		return nil, out, evcmd.Coded(cliutil.ExitInternal, "internal_error", "%v", err)
	}
	out = anchorOutput{Artifact: in.Artifact, Bound: r.Bound(), Refs: len(r.Anchors), AllBound: r.AllBound, Report: canon}
	var b strings.Builder
	fmt.Fprintf(&b, "anchors: %d of %d bound\n", r.Bound(), len(r.Anchors))
	for _, a := range r.Anchors {
		fmt.Fprintf(&b, "%s (%s): %s\n", mustJSON(a.EvidenceID), a.Kind, a.Status)
	}
	return textResult(b.String()), out, nil
}

// resource files: what an artifact exposes as MCP resources. content.json
// and the evidence bundle are left out: content.json carries latent[],
// which only get_hidden_content may return.
var resourceFiles = []struct{ name, mime string }{
	{render.FileManifest, "application/json"},
	{render.FileMarkdown, "text/markdown"},
}

func resourceURI(key, name string) string { return "sieve://artifact/" + key + "/" + name }

func resourceURIs(key string) []string {
	var uris []string
	for _, f := range resourceFiles {
		uris = append(uris, resourceURI(key, f.name))
	}
	return uris
}

// addResources exposes every artifact already in the store, and the
// template that reads any artifact by URI.
func (s *Server) addResources() {
	s.srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "artifact",
		Title:       "sieve artifact file",
		URITemplate: "sieve://artifact/{key}/{file}",
		Description: "A file of a stored artifact: manifest.json (outcome first, never the body) or index.md (the page for an agent to read, under the untrusted-content notice).",
	}, s.readResource)
	for _, key := range s.store.keys() {
		s.register(key)
	}
}

// register lists key's files as resources (once).
func (s *Server) register(key string) {
	s.mu.Lock()
	done := s.registered[key]
	s.registered[key] = true
	s.mu.Unlock()
	if done {
		return
	}
	for _, f := range resourceFiles {
		s.srv.AddResource(&mcp.Resource{
			URI:      resourceURI(key, f.name),
			Name:     key + "/" + f.name,
			MIMEType: f.mime,
		}, s.readResource)
	}
}

func (s *Server) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, "sieve://artifact/")
	key, name, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	for _, f := range resourceFiles {
		if f.name != name {
			continue
		}
		b, err := s.store.file(key, name)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: f.mime, Text: string(b)}}}, nil
	}
	return nil, mcp.ResourceNotFoundError(uri)
}
