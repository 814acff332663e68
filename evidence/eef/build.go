package eef

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"
	"unicode/utf8"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/version"
)

// PageID is the one page of a web document.
const PageID = "p0001"

// DefaultConfig is the config sieve-render uses.
func DefaultConfig() Config {
	return Config{
		ChunkTokenBudget: 512,
		ChunkRoles:       []string{"content"},
		TextProjection:   "sieve_elements_blank_line_v1",
		TokenEstimate:    "ceil_code_points_div_4",
	}
}

// Bundle is the evidence of one page, each file as written.
type Bundle struct {
	Document *Document
	// Chunks are the lines of chunks.jsonl; nil from BuildLean, whose
	// Write makes each line as it writes it.
	Chunks   []Chunk
	Security *SecurityReport
	Text     string // document.txt

	// payload is the canonical bytes of Document.Payload at payloadOf,
	// computed once by Build for payload_sha256 and written again by Files,
	// when they are at most keepPayload bytes; nil above, and the payload
	// is encoded again when the document is written.
	payload   []byte
	payloadOf *Payload

	cfg    Config
	groups []chunkGroup // chunks still to be made (BuildLean)
}

// keepPayload is the largest payload whose canonical bytes Build keeps
// between hashing and writing: a page's payload is rarely over a few
// hundred KB; a page of a million paragraphs has one of hundreds of MB,
// cheaper encoded twice than held (issue 17).
var keepPayload = 8 << 20

// Build makes the bundle of rec under cfg.
func Build(rec *graph.Record, cfg Config) (*Bundle, error) {
	b, err := BuildLean(rec, cfg)
	if err != nil {
		return nil, err
	}
	b.Chunks = b.buildChunks()
	b.groups = nil
	return b, nil
}

// BuildLean is Build without the chunk lines: Write (or Files) makes each
// as it writes it, so the chunks' texts are never all held at once.
func BuildLean(rec *graph.Record, cfg Config) (*Bundle, error) {
	if cfg.ChunkTokenBudget <= 0 {
		return nil, fmt.Errorf("eef: chunk token budget %d", cfg.ChunkTokenBudget)
	}
	findings := securityFindings(rec)
	payload, text := buildPayload(rec, findings)
	groups := chunkGroups(payload.Elements, cfg)
	payload.Chunks = payloadChunks(payload.Elements, groups)
	doc := &Document{
		ArtifactType:  TypeDocument,
		SchemaVersion: SchemaVersion,
		Parser:        Parser{Name: "sieve", Version: version.Sieve, Tier: rec.Provenance.Tier},
		Profile:       Profile{Name: c14n.ProfileName, SHA256: c14n.ProfileSHA256()},
		Source:        source(rec),
		Config:        cfg,
		Payload:       payload,
		Runtime:       runtime(rec),
	}
	canon, err := stamp(doc)
	if err != nil {
		return nil, err
	}
	return &Bundle{
		Document:  doc,
		Security:  securityReport(rec, doc, findings),
		Text:      text,
		payload:   canon,
		payloadOf: &doc.Payload,
		cfg:       cfg,
		groups:    groups,
	}, nil
}

func source(rec *graph.Record) Source {
	s := Source{URL: rec.URL, FinalURL: rec.FinalURL, MediaType: "text/html",
		Bytes: rec.Stats.OriginalBytes, HTTPStatus: rec.Outcome.HTTPStatus, Screenshot: rec.Provenance.Screenshot}
	if isPDF(rec) {
		s.MediaType = MediaPDF
	}
	if rec.SourceFingerprint != "" {
		fp := rec.SourceFingerprint
		s.Fingerprint = &fp
	}
	return s
}

func runtime(rec *graph.Record) *Runtime {
	notes := append([]string{}, rec.Audit.Notes...)
	return &Runtime{Outcome: rec.Outcome.Status, TierReason: rec.Provenance.TierReason, Notes: notes}
}

// identity is what the document fingerprint is computed over.
type identity struct {
	ConfigSHA256      string  `json:"config_sha256"`
	PayloadSHA256     string  `json:"payload_sha256"`
	ProfileSHA256     string  `json:"profile_sha256"`
	SchemaVersion     string  `json:"schema_version"`
	SourceFingerprint *string `json:"source_fingerprint"`
}

// stamp computes config_sha256, payload_sha256 and the fingerprint, and
// returns the payload's canonical bytes (the bulk of document.ethos.json,
// reused when the file is written) when they are at most keepPayload
// bytes, else nil: the payload is hashed as it is encoded, never whole.
func stamp(doc *Document) ([]byte, error) {
	var err error
	if doc.ConfigSHA256, err = c14n.FingerprintOf(doc.Config); err != nil {
		return nil, err
	}
	h := &hashKeep{h: sha256.New(), max: keepPayload}
	if err := c14n.Encode(h, &doc.Payload); err != nil {
		return nil, err
	}
	canon := h.keep
	doc.PayloadSHA256 = "sha256:" + hex.EncodeToString(h.h.Sum(nil))
	doc.Fingerprint, err = c14n.FingerprintOf(identity{doc.ConfigSHA256, doc.PayloadSHA256,
		doc.Profile.SHA256, doc.SchemaVersion, doc.Source.Fingerprint})
	return canon, err
}

// hashKeep hashes what is written to it and keeps it up to max bytes;
// past max it keeps nothing.
type hashKeep struct {
	h    hash.Hash
	keep []byte
	max  int
	over bool
}

func (w *hashKeep) Write(p []byte) (int, error) {
	w.h.Write(p)
	if !w.over {
		if len(w.keep)+len(p) > w.max {
			w.over, w.keep = true, nil
		} else {
			w.keep = append(w.keep, p...)
		}
	}
	return len(p), nil
}

// Fingerprint recomputes doc's fingerprint from its parts: a reader checks
// that a document is what it says it is with it.
func Fingerprint(doc *Document) (config, payload, fingerprint string, err error) {
	d := *doc
	if _, err = stamp(&d); err != nil {
		return "", "", "", err
	}
	return d.ConfigSHA256, d.PayloadSHA256, d.Fingerprint, nil
}

func id(format string, n int) string { return fmt.Sprintf(format, n) }

// estTokens is ⌈code points / 4⌉.
func estTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

func buildPayload(rec *graph.Record, findings []Finding) (Payload, string) {
	boxes := hasBoxes(rec)
	unit := "css_px"
	if isPDF(rec) {
		unit = "pt"
	}
	pl := newPlacer(rec)
	p := Payload{
		CoordinateSystem: CoordinateSystem{Profile: c14n.CoordinateProfile, Origin: "top_left", Unit: unit, BoxesAvailable: boxes},
		Capabilities:     capabilities(rec, boxes),
		Pages:            pl.pages,
		Sections:         []Section{},
		Spans:            []Span{},
		Tables:           []Table{},
		Regions:          []Region{},
		Latent:           latent(rec, findings, pl),
		Warnings:         warnings(rec, boxes),
		SecuritySignals:  signals(findings),
	}
	var text strings.Builder
	offset := 0
	for i, b := range rec.Blocks {
		el := element(i+1, b, pl)
		if b.Text != "" {
			if text.Len() > 0 {
				text.WriteString("\n\n")
				offset += 2
			}
			n := utf8.RuneCountInString(b.Text)
			sp := Span{ID: id("s%06d", len(p.Spans)+1), ElementRef: el.ID, PageRef: el.PageRef, Text: b.Text,
				CharStart: offset, CharEnd: offset + n, BBox: el.BBox}
			text.WriteString(b.Text)
			offset += n
			el.SpanRefs = append(el.SpanRefs, sp.ID)
			p.Spans = append(p.Spans, sp)
		}
		if b.Type == graph.TypeTable && len(b.Rows) > 0 {
			t := table(len(p.Tables)+1, el.ID, el.PageRef, b.Rows, pl)
			el.TableRef = &t.ID
			p.Tables = append(p.Tables, t)
		}
		if el.BBox != nil {
			p.Regions = append(p.Regions, Region{ID: id("r%04d", len(p.Regions)+1), PageRef: el.PageRef, ElementRef: el.ID, BBox: el.BBox})
		}
		p.Elements = append(p.Elements, el)
	}
	if p.Elements == nil {
		p.Elements = []Element{}
	}
	p.Sections = sections(rec, p.Elements)
	if text.Len() > 0 {
		text.WriteString("\n")
	}
	return p, text.String()
}

func element(n int, b graph.Block, pl *placer) Element {
	el := Element{ID: id("e%06d", n), Type: b.Type, PageRef: pl.pageRef(b.Page), Text: b.Text, Role: b.Role,
		Level: b.Level, SieveBlockID: b.ID, SieveSectionID: b.SectionID, SpanRefs: []string{}}
	el.BBox = pl.bbox(el.PageRef, b.Box)
	if MachineRead(b.Source) {
		el.Source = b.Source
	}
	return el
}

func hasBoxes(rec *graph.Record) bool {
	for _, b := range rec.Blocks {
		if b.Box != nil {
			return true
		}
	}
	return false
}

func capabilities(rec *graph.Record, boxes bool) Capabilities {
	c := Capabilities{Spans: true, CharOffsets: true, Tables: true, Boxes: boxes, Regions: boxes,
		LatentTier: true, Fingerprints: rec.SourceFingerprint != "", CoordinateOrigin: "top_left", Limits: []Limit{}}
	switch {
	case boxes:
	case isPDF(rec):
		c.Limits = append(c.Limits, Limit{"no_boxes", "the PDF gave no positioned text (no text layer, or no page could be read): elements have no boxes, so region and box claims cannot be checked"})
	default:
		c.Limits = append(c.Limits, Limit{"no_boxes", "the " + rec.Provenance.Tier +
			" tier lays out no page: elements have no boxes, so region and box claims cannot be checked"})
	}
	c.Crop = cropLimits(rec, boxes, &c.Limits)
	if rec.SourceFingerprint == "" {
		c.Limits = append(c.Limits, Limit{"no_source_fingerprint", "no body was received, so the document is bound to no source bytes"})
	}
	return c
}

func sections(rec *graph.Record, els []Element) []Section {
	refs := map[string][]string{}
	for _, e := range els {
		refs[e.SieveSectionID] = append(refs[e.SieveSectionID], e.ID)
	}
	out := []Section{}
	for _, s := range rec.Sections {
		r := refs[s.ID]
		if r == nil {
			r = []string{}
		}
		out = append(out, Section{SieveSectionID: s.ID, Title: s.Title, Level: s.Level, Role: s.Role, ElementRefs: r})
	}
	return out
}

func latent(rec *graph.Record, findings []Finding, pl *placer) []Latent {
	byID := map[string]string{}
	for _, f := range findings {
		if f.Code == FindingHiddenText {
			byID[f.Evidence.SieveID] = f.ID
		}
	}
	out := []Latent{}
	for _, l := range rec.Latent {
		x := Latent{SieveLatentID: l.ID, Trust: l.Trust, Text: l.Text, Reason: l.Reason,
			Rule: l.Rule, SieveSectionID: l.SectionID, FindingRef: byID[l.ID]}
		if l.Page > 0 && isPDF(rec) {
			x.PageRef = pageID(l.Page)
			x.BBox = pl.bbox(x.PageRef, l.Box)
		}
		out = append(out, x)
	}
	return out
}

func warnings(rec *graph.Record, boxes bool) []Warning {
	var ws []Warning
	add := func(code, msg string) {
		ws = append(ws, Warning{ID: id("w%04d", len(ws)+1), Code: code, Message: msg})
	}
	if rec.Outcome.Status != graph.StatusOK {
		add("outcome_"+rec.Outcome.Status, "the read did not fully work: "+strings.Join(rec.Outcome.Evidence, "; "))
	}
	if rec.SourceFingerprint == "" {
		add("source_fingerprint_unavailable", "no body was received; freshness cannot be checked against source bytes")
	}
	switch {
	case boxes:
	case isPDF(rec):
		add("no_boxes", "no element has a box (the PDF gave no positioned text)")
	default:
		add("no_boxes", "no element has a box ("+rec.Provenance.Tier+" tier)")
	}
	if len(rec.Latent) > 0 {
		add("latent_text_quarantined", fmt.Sprintf("%d hidden text entries are quarantined in payload.latent and never in elements or chunks", len(rec.Latent)))
	}
	for _, g := range rec.Gaps {
		add("gap_"+g.Kind, g.Label+": "+g.Reason)
	}
	if ws == nil {
		return []Warning{}
	}
	return ws
}

func signals(findings []Finding) []Signal {
	out := []Signal{}
	at := map[string]int{}
	for _, f := range findings {
		if i, ok := at[f.Code]; ok {
			out[i].Count++
			continue
		}
		at[f.Code] = len(out)
		out = append(out, Signal{Code: f.Code, Count: 1, FindingRef: f.ID})
	}
	return out
}
