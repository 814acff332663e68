package eef

import (
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// chunkGroup is one chunk before the document is stamped: its elements
// and its text.
type chunkGroup struct {
	els  []Element
	text string
}

// chunkGroups groups the elements of the configured roles into chunks:
// consecutive elements of one section and one page, up to the token
// budget. A chunk never spans two sections, nor two PDF pages (so each of
// its bboxes is on its one page_ref); an element over the budget is a
// chunk of its own and says so in a warning. Latent text is never an element, so it
// never reaches a chunk.
func chunkGroups(els []Element, cfg Config) []chunkGroup {
	var out []chunkGroup
	var cur []Element
	flush := func() {
		if len(cur) > 0 {
			texts := make([]string, len(cur))
			for i, e := range cur {
				texts[i] = e.Text
			}
			out = append(out, chunkGroup{els: cur, text: strings.Join(texts, "\n\n")})
			cur = nil
		}
	}
	tokens := 0
	for _, e := range els {
		if e.Text == "" || !slices.Contains(cfg.ChunkRoles, e.Role) {
			continue
		}
		t := estTokens(e.Text)
		if len(cur) > 0 && (cur[0].SieveSectionID != e.SieveSectionID || cur[0].PageRef != e.PageRef || tokens+t > cfg.ChunkTokenBudget) {
			flush()
			tokens = 0
		}
		cur = append(cur, e)
		tokens += t
	}
	flush()
	return out
}

// payloadChunks lists the chunks in the payload (SPEC.md §4.1): each
// chunk's id, what it is cut from and its text's hash, so that every line
// of chunks.jsonl is bound to the document fingerprint it names (the
// lines themselves carry that fingerprint, so they cannot be inside it).
func payloadChunks(groups []chunkGroup) []PayloadChunk {
	out := make([]PayloadChunk, len(groups))
	for i, g := range groups {
		out[i] = PayloadChunk{ID: id("c%06d", i+1), PageRefs: chunkPages(g.els), ElementRefs: elementIDs(g.els),
			SieveSectionID: g.els[0].SieveSectionID, TextSHA256: c14n.Fingerprint([]byte(g.text)), TokenEstimate: estTokens(g.text)}
	}
	return out
}

func elementIDs(els []Element) []string {
	out := make([]string, len(els))
	for i, e := range els {
		out[i] = e.ID
	}
	return out
}

// buildChunks writes the chunk lines of the stamped doc: one per entry of
// payload.chunks, with the text and the fingerprints.
func buildChunks(doc *Document, cfg Config, groups []chunkGroup) []Chunk {
	out := make([]Chunk, len(groups))
	for i, g := range groups {
		out[i] = chunk(doc, cfg, doc.Payload.Chunks[i], g)
	}
	return out
}

func chunk(doc *Document, cfg Config, pc PayloadChunk, g chunkGroup) Chunk {
	boxes := [][]int{}
	for _, e := range g.els {
		if e.BBox != nil {
			boxes = append(boxes, e.BBox)
		}
	}
	c := Chunk{
		ArtifactType: TypeChunk, SchemaVersion: SchemaVersion, ChunkID: pc.ID,
		SourceFingerprint: doc.Source.Fingerprint, DocumentFingerprint: doc.Fingerprint,
		TextSHA256: pc.TextSHA256, Text: g.text, TokenEstimate: pc.TokenEstimate,
		PageRefs: pc.PageRefs, ElementRefs: pc.ElementRefs, SieveSectionID: pc.SieveSectionID,
		SectionTitle: sectionTitle(doc, pc.SieveSectionID), BBoxes: boxes, Warnings: []Warning{},
	}
	if c.TokenEstimate > cfg.ChunkTokenBudget {
		c.Warnings = append(c.Warnings, Warning{ID: "w0001", Code: "chunk_over_budget",
			Message: "one element is longer than the chunk token budget and was kept whole"})
	}
	if !doc.Payload.CoordinateSystem.BoxesAvailable {
		c.Warnings = append(c.Warnings, Warning{ID: id("w%04d", len(c.Warnings)+1), Code: "no_boxes",
			Message: "the document has no boxes; chunk bboxes are empty"})
	}
	return c
}

func sectionTitle(doc *Document, sid string) string {
	for _, s := range doc.Payload.Sections {
		if s.SieveSectionID == sid {
			return s.Title
		}
	}
	return ""
}
