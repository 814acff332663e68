// Package ground is the grounding-source model EEF's checkers share (SPEC.md
// §6.1): the Source interface with its pages, elements, spans, tables,
// regions and sections; the three adapters that fill it (the native
// document.ethos.json, the sieve graph, opendataloader-pdf JSON); the text
// index and match rules; and the locator resolver. verify (citation claims)
// and anchor (evidence refs) are its two users, so they find text and
// resolve locators by one set of rules and cannot disagree.
//
// Each adapter declares what its source can prove (Capabilities) and what
// it cannot (Limits); nothing here upgrades a missing capability into a
// stronger verdict, and a locator that names nothing fails closed.
package ground

import (
	"fmt"
)

// Source is a parser-neutral evidence provider (EEF's GroundingSource). Its
// lists are in stable order; ids are ours (p%04d, e%06d, s%06d, t%04d,
// r%04d), never a foreign run's.
type Source interface {
	Identity() Identity
	Capabilities() Capabilities
	// SourceFingerprint and DocumentFingerprint are "" when unknown.
	SourceFingerprint() string
	DocumentFingerprint() string
	Pages() []Page
	Elements() []Element
	Tables() []Table
	// Spans and Regions are empty when the source has none.
	Spans() []Span
	Regions() []Region
	// Sections are the source's section ids in document order (sieve
	// section ids); empty when the source has no sections.
	Sections() []string
	// Latent is quarantined hidden text: never visible evidence.
	Latent() []string
	// Findings are the document's security findings, empty when none
	// are known (SPEC.md §4.8).
	Findings() []Finding
}

// Span is a run of an element's text (a native span id, s%06d).
type Span struct {
	ID         string
	ElementRef string
	PageRef    string
	Text       string
}

// Region is a boxed area of a page (r%04d), usually one element's box.
type Region struct {
	ID         string
	PageRef    string
	ElementRef string
	BBox       Box
}

// Identity names the parser that produced the source, and its format.
type Identity struct {
	Parser  string `json:"parser"`
	Version string `json:"version"`
	Format  string `json:"format"` // ethos-document | sieve-graph | opendataloader-json
}

// Capabilities is a source's declaration of what it can prove.
type Capabilities struct {
	Spans            bool    `json:"spans"`
	CharOffsets      bool    `json:"char_offsets"`
	Tables           bool    `json:"tables"`
	Fingerprints     bool    `json:"fingerprints"`
	Boxes            bool    `json:"boxes"`
	Crop             bool    `json:"crop"`
	LatentTier       bool    `json:"latent_tier"`
	CoordinateOrigin string  `json:"coordinate_origin"` // top_left | bottom_left | none
	Limits           []Limit `json:"limits"`
}

// Limit is one declared capability limit.
type Limit struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Page is one page. Width and Height are 0 when the source does not know
// them (then no box can be checked against the page).
type Page struct {
	ID            string
	Index         int
	Width, Height int
}

// Element is one text-bearing element of a source.
type Element struct {
	ID        string // e%06d
	NativeID  string // the source's own id: a sieve block id, "odl:kids[3]"
	PageRef   string
	Type      string
	Text      string
	SectionID string // sieve section id, when the source has sections
	BBox      *Box   // in the source's coordinate origin; nil without boxes
	Source    string // pdf_ocr, canvas_ocr, …: text not read from the document's text; "" when it was
}

// Box is [x, y, w, h] in the source's coordinate origin.
type Box struct{ X, Y, W, H int }

// Table is a table's cells on a grid.
type Table struct {
	ID         string
	NativeID   string
	ElementRef string
	PageRef    string
	Cells      []Cell
}

// Cell is one table cell at its grid position (0-based), with its box on
// the table's page when the source has one (PDFs).
type Cell struct {
	Row, Column int
	Text        string
	BBox        *Box
}

// contains reports whether b lies inside the page (when its size is known).
func (p Page) contains(b Box) bool {
	if p.Width == 0 || p.Height == 0 {
		return true
	}
	return b.X+b.W <= p.Width && b.Y+b.H <= p.Height
}

// CheckBox fails closed on negative or empty boxes and on boxes outside a
// page of known size.
func CheckBox(p Page, b Box) error {
	if b.X < 0 || b.Y < 0 || b.W <= 0 || b.H <= 0 {
		return fmt.Errorf("box [%d %d %d %d] is negative or empty", b.X, b.Y, b.W, b.H)
	}
	if !p.contains(b) {
		return fmt.Errorf("box [%d %d %d %d] lies outside page %s (%dx%d)", b.X, b.Y, b.W, b.H, p.ID, p.Width, p.Height)
	}
	return nil
}

// validate checks a source's own structure: every element and table on a
// known page, every box inside its page. Adapters call it, so a malformed
// source is rejected whole rather than half used.
func validate(pages []Page, els []Element, tables []Table) error {
	byID := map[string]Page{}
	for _, p := range pages {
		byID[p.ID] = p
	}
	for _, e := range els {
		p, ok := byID[e.PageRef]
		if !ok {
			return fmt.Errorf("element %s (%s) is on page %q, which the source does not have", e.ID, e.NativeID, e.PageRef)
		}
		if e.BBox != nil {
			if err := CheckBox(p, *e.BBox); err != nil {
				return fmt.Errorf("element %s (%s): %w", e.ID, e.NativeID, err)
			}
		}
	}
	for _, t := range tables {
		p, ok := byID[t.PageRef]
		if !ok {
			return fmt.Errorf("table %s is on page %q, which the source does not have", t.ID, t.PageRef)
		}
		for _, c := range t.Cells {
			if c.Row < 0 || c.Column < 0 {
				return fmt.Errorf("table %s has a cell at a negative position", t.ID)
			}
			if c.BBox != nil {
				if err := CheckBox(p, *c.BBox); err != nil {
					return fmt.Errorf("table %s cell (%d, %d): %w", t.ID, c.Row, c.Column, err)
				}
			}
		}
	}
	return nil
}

// source is the one Source implementation the adapters fill.
type source struct {
	identity   Identity
	caps       Capabilities
	sourceFP   string
	documentFP string
	pages      []Page
	elements   []Element
	tables     []Table
	spans      []Span
	regions    []Region
	sections   []string
	latent     []string
	findings   []Finding
}

func (s *source) Identity() Identity          { return s.identity }
func (s *source) Capabilities() Capabilities  { return s.caps }
func (s *source) SourceFingerprint() string   { return s.sourceFP }
func (s *source) DocumentFingerprint() string { return s.documentFP }
func (s *source) Pages() []Page               { return s.pages }
func (s *source) Elements() []Element         { return s.elements }
func (s *source) Tables() []Table             { return s.tables }
func (s *source) Spans() []Span               { return s.spans }
func (s *source) Regions() []Region           { return s.regions }
func (s *source) Sections() []string          { return s.sections }
func (s *source) Latent() []string            { return s.latent }
func (s *source) Findings() []Finding         { return s.findings }

// NewSource is a Source held in memory, for tests, benchmarks and sources
// built by hand; it declares no fingerprints, spans, regions, sections or
// findings.
func NewSource(id Identity, caps Capabilities, pages []Page, elements []Element, tables []Table, latent []string) Source {
	return &source{identity: id, caps: caps, pages: pages, elements: elements, tables: tables, latent: latent, findings: []Finding{}}
}
