// Package eef builds the Ethos Evidence Format bundle (EEF 0.2, SPEC.md)
// of one page from its graph record: document.ethos.json, chunks.jsonl,
// security_report.json and document.txt, all canonical JSON (internal/c14n)
// and byte-identical for the same graph. A web page is one page (p0001);
// blocks become elements (e%06d) that keep their sieve block and section
// ids, so a check can point at both.
package eef

import "github.com/sieve-dev/sieve/internal/c14n"

import "github.com/sieve-dev/sieve/graph"

// Artifact identities.
const (
	SchemaVersion      = "1.0.0"
	TypeDocument       = "ethos.document.v1"
	TypeChunk          = "ethos.chunk.v1"
	TypeSecurityReport = "ethos.security_report.v1"
)

// File names inside an artifact's evidence/ directory.
const (
	Dir                = "evidence"
	FileDocument       = "document.ethos.json"
	FileChunks         = "chunks.jsonl"
	FileSecurityReport = "security_report.json"
	FileMarkdown       = "document.md"
	FileText           = "document.txt"
	// FileProfile is the deterministic profile the document names
	// (SPEC.md §3), in canonical bytes: its sha256 is profile.sha256.
	FileProfile = "profiles/" + c14n.ProfileName + ".json"
)

// Document is document.ethos.json.
type Document struct {
	ArtifactType  string   `json:"artifact_type"`
	SchemaVersion string   `json:"schema_version"`
	Parser        Parser   `json:"parser"`
	Profile       Profile  `json:"profile"`
	Source        Source   `json:"source"`
	ConfigSHA256  string   `json:"config_sha256"`
	Config        Config   `json:"config"`
	PayloadSHA256 string   `json:"payload_sha256"`
	Fingerprint   string   `json:"fingerprint"`
	Payload       Payload  `json:"payload"`
	Runtime       *Runtime `json:"runtime_diagnostics,omitempty"`
}

// Parser names the producer.
type Parser struct {
	Name    string `json:"name"` // "sieve"
	Version string `json:"version"`
	Tier    string `json:"tier"` // capture tier: static | render
}

// Profile names the deterministic profile and its hash.
type Profile struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// Source describes the source bytes. Fingerprint is null when no body was
// received (a failed fetch): the document then cannot be bound to bytes.
type Source struct {
	Fingerprint *string `json:"fingerprint"`
	URL         string  `json:"url"`
	FinalURL    string  `json:"final_url"`
	MediaType   string  `json:"media_type"`
	Bytes       int64   `json:"bytes"`
	HTTPStatus  int     `json:"http_status"`
	// Screenshot is the capture-time picture of a rendered page (crops are
	// cut from it); outside the document fingerprint, like the URLs.
	Screenshot *graph.Screenshot `json:"screenshot,omitempty"`
}

// Config is the effective config subset that changes stable output;
// config_sha256 is its fingerprint.
type Config struct {
	ChunkTokenBudget int      `json:"chunk_token_budget"`
	ChunkRoles       []string `json:"chunk_roles"`
	TextProjection   string   `json:"text_projection"`
	TokenEstimate    string   `json:"token_estimate"`
}

// Runtime holds diagnostics outside canonical equality: they enter no hash.
type Runtime struct {
	Outcome    string   `json:"outcome"`
	TierReason string   `json:"tier_reason"`
	Notes      []string `json:"notes"`
}

// Payload is the stable payload projection: everything payload_sha256
// covers.
type Payload struct {
	CoordinateSystem CoordinateSystem `json:"coordinate_system"`
	Capabilities     Capabilities     `json:"capabilities"`
	Pages            []Page           `json:"pages"`
	Sections         []Section        `json:"sections"`
	Elements         []Element        `json:"elements"`
	Spans            []Span           `json:"spans"`
	Tables           []Table          `json:"tables"`
	Chunks           []PayloadChunk   `json:"chunks"`
	Regions          []Region         `json:"regions"`
	Latent           []Latent         `json:"latent"`
	Warnings         []Warning        `json:"warnings"`
	SecuritySignals  []Signal         `json:"security_signals"`
}

// CoordinateSystem declares how boxes are given, and whether there are any.
type CoordinateSystem struct {
	Profile        string `json:"profile"` // ethos_quantized_top_left_v1
	Origin         string `json:"origin"`  // top_left
	Unit           string `json:"unit"`    // css_px (web pages) | pt (PDFs)
	BoxesAvailable bool   `json:"boxes_available"`
}

// Capabilities say what this document can prove; Limits say what it cannot.
type Capabilities struct {
	Spans            bool    `json:"spans"`
	CharOffsets      bool    `json:"char_offsets"`
	Tables           bool    `json:"tables"`
	Boxes            bool    `json:"boxes"`
	Regions          bool    `json:"regions"`
	Crop             bool    `json:"crop"`
	LatentTier       bool    `json:"latent_tier"`
	Fingerprints     bool    `json:"fingerprints"`
	CoordinateOrigin string  `json:"coordinate_origin"`
	Limits           []Limit `json:"limits"`
}

// Limit is one declared capability limit.
type Limit struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Page is one page; a web page is a single page without a fixed size, a
// PDF page has its displayed size in points (rounded up) and /Rotate.
type Page struct {
	ID       string `json:"id"`
	Index    int    `json:"index"`
	URL      string `json:"url"`
	Width    *int   `json:"width"`
	Height   *int   `json:"height"`
	Rotation *int   `json:"rotation,omitempty"` // PDF: degrees clockwise
}

// Section maps a sieve section to the elements it holds.
type Section struct {
	SieveSectionID string   `json:"sieve_section_id"`
	Title          string   `json:"title"`
	Level          int      `json:"level"`
	Role           string   `json:"role"`
	ElementRefs    []string `json:"element_refs"`
}

// Element is one block of the graph.
type Element struct {
	ID             string   `json:"id"`
	Type           string   `json:"type"`
	PageRef        string   `json:"page_ref"`
	Text           string   `json:"text"`
	Role           string   `json:"role"` // content | chrome
	Level          int      `json:"level"`
	SieveBlockID   string   `json:"sieve_block_id"`
	SieveSectionID string   `json:"sieve_section_id"`
	SpanRefs       []string `json:"span_refs"`
	TableRef       *string  `json:"table_ref"`
	BBox           []int    `json:"bbox"` // [x, y, w, h], null without boxes
	// Source is the block's source when its text was not read from the
	// document's (pdf_ocr, canvas_ocr, canvas_scene, canvas_fallback).
	Source string `json:"source,omitempty"`
}

// Span is an element's text with its place in document.txt, in Unicode
// code points.
type Span struct {
	ID         string `json:"id"`
	ElementRef string `json:"element_ref"`
	PageRef    string `json:"page_ref"`
	Text       string `json:"text"`
	CharStart  int    `json:"char_start"`
	CharEnd    int    `json:"char_end"`
	BBox       []int  `json:"bbox"`
}

// Table is a data table with its cells on a grid (0-based rows and columns,
// spans expanded: a cell sits at its top-left grid position).
type Table struct {
	ID         string `json:"id"`
	ElementRef string `json:"element_ref"`
	PageRef    string `json:"page_ref"`
	Rows       int    `json:"rows"`
	Columns    int    `json:"columns"`
	Cells      []Cell `json:"cells"`
}

// Cell is one table cell.
type Cell struct {
	Row     int    `json:"row"`
	Column  int    `json:"column"`
	RowSpan int    `json:"row_span"`
	ColSpan int    `json:"col_span"`
	Header  bool   `json:"header"`
	Text    string `json:"text"`
	BBox    []int  `json:"bbox,omitempty"` // PDF: the cell's box on its table's page
}

// PayloadChunk is a chunk as the payload lists it (SPEC.md §4.1): the
// line of chunks.jsonl with the same id adds the text, the fingerprints,
// the section title, boxes and warnings.
type PayloadChunk struct {
	ID             string   `json:"id"`
	PageRefs       []string `json:"page_refs"`
	ElementRefs    []string `json:"element_refs"`
	SieveSectionID string   `json:"sieve_section_id"`
	TextSHA256     string   `json:"text_sha256"`
	TokenEstimate  int      `json:"token_estimate"`
}

// Region is a boxed area of a page (render tier and PDFs).
type Region struct {
	ID         string `json:"id"`
	PageRef    string `json:"page_ref"`
	ElementRef string `json:"element_ref"`
	BBox       []int  `json:"bbox"`
}

// Latent is quarantined hidden text: present in the markup, never shown.
// It is evidence of what the page hides, never visible evidence.
type Latent struct {
	SieveLatentID  string `json:"sieve_latent_id"`
	Trust          string `json:"trust"`
	Text           string `json:"text"`
	Reason         string `json:"reason"`
	Rule           string `json:"rule"`
	SieveSectionID string `json:"sieve_section_id"`
	FindingRef     string `json:"finding_ref"`
	// PDF: where the hidden text lies.
	PageRef string `json:"page_ref,omitempty"`
	BBox    []int  `json:"bbox,omitempty"`
}

// Warning is one document warning.
type Warning struct {
	ID      string `json:"id"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Signal is one security signal; the security report has the details.
type Signal struct {
	Code       string `json:"code"`
	Count      int    `json:"count"`
	FindingRef string `json:"finding_ref"` // the first finding of this code
}
