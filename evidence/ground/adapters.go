package ground

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/version"
)

// Grounding formats, the values of --grounding.
const (
	FormatAuto           = "auto"
	FormatEthos          = "ethos-document"
	FormatGraph          = "sieve-graph"
	FormatOpenDataLoader = "opendataloader-json"
)

// ErrFormat is returned when the bytes are not the named format.
var ErrFormat = errors.New("not a recognised grounding source")

// Load reads a grounding source of the given format from b. FormatAuto
// recognises document.ethos.json and graph records/content.json; foreign
// formats are only read when named.
func Load(format string, b []byte) (Source, error) {
	switch format {
	case FormatEthos:
		return FromEthos(b)
	case FormatGraph:
		return FromGraph(b)
	case FormatOpenDataLoader:
		return FromOpenDataLoader(b)
	case FormatAuto, "":
		first := firstLine(b)
		switch {
		case gjson.GetBytes(first, "artifact_type").Str == eef.TypeDocument:
			return FromEthos(b)
		case gjson.GetBytes(first, "blocks").IsArray():
			return FromGraph(b)
		}
		return nil, fmt.Errorf("%w: neither document.ethos.json nor a sieve graph record (name a --grounding format for foreign output)", ErrFormat)
	}
	return nil, fmt.Errorf("unknown grounding format %q", format)
}

// firstLine is the first JSONL line, or the whole document when it is one
// (indented) JSON value.
func firstLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if gjson.ValidBytes(b) {
		return b
	}
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// FromEthos adapts a native document.ethos.json. Its fingerprint is
// recomputed and must match what the document says.
// It is held to the input rule of Strict (its schema, c14n) first.
func FromEthos(b []byte) (Source, error) {
	if gjson.GetBytes(firstLine(b), "artifact_type").Str != eef.TypeDocument {
		return nil, fmt.Errorf("%w: artifact_type %q", ErrFormat, gjson.GetBytes(firstLine(b), "artifact_type").Str)
	}
	if err := Strict("ethos-document", b); err != nil {
		return nil, fmt.Errorf("document.ethos.json: %w", err)
	}
	return fromDocument(b)
}

// fromDocument adapts a document.ethos.json already held to its schema.
func fromDocument(b []byte) (Source, error) {
	var doc eef.Document
	if err := codec.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("document.ethos.json: %w", err)
	}
	if _, _, fp, err := eef.Fingerprint(&doc); err != nil || fp != doc.Fingerprint {
		return nil, fmt.Errorf("document.ethos.json: fingerprint %s does not match its content (%s)", doc.Fingerprint, fp)
	}
	s := &source{
		identity:   Identity{Parser: doc.Parser.Name, Version: doc.Parser.Version, Format: FormatEthos},
		caps:       ethosCaps(doc.Payload.Capabilities),
		documentFP: doc.Fingerprint,
	}
	if doc.Source.Fingerprint != nil {
		s.sourceFP = *doc.Source.Fingerprint
	}
	for _, p := range doc.Payload.Pages {
		s.pages = append(s.pages, Page{ID: p.ID, Index: p.Index, Width: deref(p.Width), Height: deref(p.Height)})
	}
	for _, e := range doc.Payload.Elements {
		s.elements = append(s.elements, Element{ID: e.ID, NativeID: e.SieveBlockID, PageRef: e.PageRef,
			Type: e.Type, Text: e.Text, SectionID: e.SieveSectionID, BBox: boxOf(e.BBox), Source: e.Source})
	}
	for _, t := range doc.Payload.Tables {
		tb := Table{ID: t.ID, ElementRef: t.ElementRef, PageRef: t.PageRef}
		for _, e := range doc.Payload.Elements {
			if e.ID == t.ElementRef {
				tb.NativeID = e.SieveBlockID
			}
		}
		for _, c := range t.Cells {
			tb.Cells = append(tb.Cells, Cell{Row: c.Row, Column: c.Column, Text: c.Text, BBox: boxOf(c.BBox)})
		}
		s.tables = append(s.tables, tb)
	}
	for _, sp := range doc.Payload.Spans {
		s.spans = append(s.spans, Span{ID: sp.ID, ElementRef: sp.ElementRef, PageRef: sp.PageRef, Text: sp.Text})
	}
	for _, r := range doc.Payload.Regions {
		if b := boxOf(r.BBox); b != nil {
			s.regions = append(s.regions, Region{ID: r.ID, PageRef: r.PageRef, ElementRef: r.ElementRef, BBox: *b})
		}
	}
	for _, sec := range doc.Payload.Sections {
		s.sections = append(s.sections, sec.SieveSectionID)
	}
	for _, l := range doc.Payload.Latent {
		s.latent = append(s.latent, l.Text)
	}
	s.findings = fromSignals(doc.Payload.SecuritySignals)
	return s, validate(s.pages, s.elements, s.tables)
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func boxOf(b []int) *Box {
	if len(b) != 4 {
		return nil
	}
	return &Box{b[0], b[1], b[2], b[3]}
}

func ethosCaps(c eef.Capabilities) Capabilities {
	limits := []Limit{}
	for _, l := range c.Limits {
		limits = append(limits, Limit{l.Code, l.Message})
	}
	return Capabilities{Spans: c.Spans, CharOffsets: c.CharOffsets, Tables: c.Tables, Fingerprints: c.Fingerprints,
		Boxes: c.Boxes, Crop: c.Crop, LatentTier: c.LatentTier, CoordinateOrigin: c.CoordinateOrigin, Limits: limits}
}

// FromGraph adapts a sieve graph record, a JSONL file of them (the first
// graph record is used) or an artifact's content.json. The element, table
// and page ids are those document.ethos.json gives the same graph.
func FromGraph(b []byte) (Source, error) {
	rec, err := graphRecord(b)
	if err != nil {
		return nil, err
	}
	bundle, err := eef.Build(rec, eef.DefaultConfig())
	if err != nil {
		return nil, err
	}
	doc, err := c14n.Marshal(bundle.Document)
	if err != nil {
		return nil, err
	}
	s, err := fromDocument(doc)
	if err != nil {
		return nil, err
	}
	src := s.(*source)
	src.identity = Identity{Parser: "sieve", Version: version.Sieve, Format: FormatGraph}
	src.findings = fromReport(bundle.Security.Findings)
	return src, nil
}

func graphRecord(b []byte) (*graph.Record, error) {
	b = bytes.TrimSpace(b)
	for len(b) > 0 {
		line := b
		if !gjson.ValidBytes(b) {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				i = len(b)
			}
			line, b = b[:i], bytes.TrimSpace(b[i:])
		} else {
			b = nil
		}
		if !gjson.GetBytes(line, "blocks").IsArray() {
			continue
		}
		var rec graph.Record
		if err := codec.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("graph record: %w", err)
		}
		return &rec, nil
	}
	return nil, fmt.Errorf("%w: no graph record or content.json", ErrFormat)
}
