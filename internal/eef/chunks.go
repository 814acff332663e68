package eef

import (
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// buildChunks groups the elements of the configured roles into chunks:
// consecutive elements of one section and one page, up to the token
// budget. A chunk never spans two sections, nor two PDF pages (so each of
// its bboxes is on its one page_ref); an element over the budget is a
// chunk of its own and says so in a warning. Latent text is never an element, so it
// never reaches a chunk.
func buildChunks(doc *Document, cfg Config) []Chunk {
	var out []Chunk
	var cur []Element
	flush := func() {
		if len(cur) > 0 {
			out = append(out, chunk(doc, cfg, len(out)+1, cur))
			cur = nil
		}
	}
	tokens := 0
	for _, e := range doc.Payload.Elements {
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

func chunk(doc *Document, cfg Config, n int, els []Element) Chunk {
	texts := make([]string, len(els))
	refs := make([]string, len(els))
	boxes := [][]int{}
	for i, e := range els {
		texts[i], refs[i] = e.Text, e.ID
		if e.BBox != nil {
			boxes = append(boxes, e.BBox)
		}
	}
	text := strings.Join(texts, "\n\n")
	c := Chunk{
		ArtifactType: TypeChunk, SchemaVersion: SchemaVersion, ChunkID: id("c%06d", n),
		SourceFingerprint: doc.Source.Fingerprint, DocumentFingerprint: doc.Fingerprint,
		TextSHA256: c14n.Fingerprint([]byte(text)), Text: text, TokenEstimate: estTokens(text),
		PageRefs: chunkPages(els), ElementRefs: refs, SieveSectionID: els[0].SieveSectionID,
		SectionTitle: sectionTitle(doc, els[0].SieveSectionID), BBoxes: boxes, Warnings: []Warning{},
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
