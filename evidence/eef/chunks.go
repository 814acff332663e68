package eef

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// chunkGroup is one chunk before the document is stamped: the indices of
// its elements in the payload (not copies of them: a long page has a
// million). Its text is joined again where it is needed (groupText).
type chunkGroup struct {
	els []int32
}

// groupText is the chunk's text: its elements' texts, a blank line apart.
func groupText(els []Element, g chunkGroup) string {
	n := 2 * (len(g.els) - 1)
	for _, i := range g.els {
		n += len(els[i].Text)
	}
	var b strings.Builder
	b.Grow(n)
	for k, i := range g.els {
		if k > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(els[i].Text)
	}
	return b.String()
}

// chunkGroups groups the elements of the configured roles into chunks:
// consecutive elements of one section and one page, up to the token
// budget. A chunk never spans two sections, nor two PDF pages (so each of
// its bboxes is on its one page_ref); an element over the budget is a
// chunk of its own and says so in a warning. Latent text is never an element, so it
// never reaches a chunk.
func chunkGroups(els []Element, cfg Config) []chunkGroup {
	var out []chunkGroup
	var cur []int32
	flush := func() {
		if len(cur) > 0 {
			out = append(out, chunkGroup{els: cur})
			cur = nil
		}
	}
	tokens := 0
	for i := range els {
		e := &els[i]
		if e.Text == "" || !slices.Contains(cfg.ChunkRoles, e.Role) {
			continue
		}
		t := estTokens(e.Text)
		if len(cur) > 0 {
			first := &els[cur[0]]
			if first.SieveSectionID != e.SieveSectionID || first.PageRef != e.PageRef || tokens+t > cfg.ChunkTokenBudget {
				flush()
				tokens = 0
			}
		}
		cur = append(cur, int32(i))
		tokens += t
	}
	flush()
	return out
}

// payloadChunks lists the chunks in the payload (SPEC.md §4.1): each
// chunk's id, what it is cut from and its text's hash, so that every line
// of chunks.jsonl is bound to the document fingerprint it names (the
// lines themselves carry that fingerprint, so they cannot be inside it).
func payloadChunks(els []Element, groups []chunkGroup) []PayloadChunk {
	out := make([]PayloadChunk, len(groups))
	for i, g := range groups {
		text := groupText(els, g)
		out[i] = PayloadChunk{ID: id("c%06d", i+1), PageRefs: chunkPages(els, g), ElementRefs: elementIDs(els, g),
			SieveSectionID: els[g.els[0]].SieveSectionID, TextSHA256: c14n.Fingerprint([]byte(text)), TokenEstimate: estTokens(text)}
	}
	return out
}

func elementIDs(els []Element, g chunkGroup) []string {
	out := make([]string, len(g.els))
	for k, i := range g.els {
		out[k] = els[i].ID
	}
	return out
}

// buildChunks writes the chunk lines of the stamped doc: one per entry of
// payload.chunks, with the text and the fingerprints.
func (b *Bundle) buildChunks() []Chunk {
	out := make([]Chunk, len(b.groups))
	for i, g := range b.groups {
		out[i] = b.chunk(i, g)
	}
	return out
}

// chunk is chunk i (elements g) of the stamped document, with the
// document's security warning when it has one.
func (b *Bundle) chunk(i int, g chunkGroup) Chunk {
	c := chunk(b.Document, b.cfg, b.Document.Payload.Chunks[i], g)
	if w := securityWarning(b.Security); w != "" {
		c.Warnings = append(c.Warnings, Warning{ID: id("w%04d", len(c.Warnings)+1), Code: WarningSecurityFindings, Message: w})
	}
	return c
}

// maxNamedFindings bounds the findings a chunk warning names: a PDF can
// carry one per annotation, and every chunk repeats the warning.
const maxNamedFindings = 5

// WarningSecurityFindings is the chunk warning of a document whose
// security report holds a finding of severity warning or above.
const WarningSecurityFindings = "security_findings"

// securityWarning says which findings of the document's security report
// may affect trust in its evidence (severity warning or high), "" when
// none do (SPEC.md §4.8: surface them near chunks). Findings name hidden
// text, actions and media, never a chunk's elements, so every chunk of
// the document carries it.
func securityWarning(r *SecurityReport) string {
	if r == nil {
		return ""
	}
	var named []string
	n, highest := 0, "warning"
	for _, f := range r.Findings {
		if f.Severity != "warning" && f.Severity != "high" {
			continue
		}
		if f.Severity == "high" {
			highest = "high"
		}
		if len(named) < maxNamedFindings {
			named = append(named, f.ID+" "+f.Code)
		}
		n++
	}
	if n == 0 {
		return ""
	}
	list := strings.Join(named, ", ")
	if n > len(named) {
		list += fmt.Sprintf(" and %d more", n-len(named))
	}
	return fmt.Sprintf("the document carries %d security findings of severity warning or above (highest: %s): %s; see security_report.json", n, highest, list)
}

func chunk(doc *Document, cfg Config, pc PayloadChunk, g chunkGroup) Chunk {
	els := doc.Payload.Elements
	boxes := [][]int{}
	for _, i := range g.els {
		if els[i].BBox != nil {
			boxes = append(boxes, els[i].BBox)
		}
	}
	c := Chunk{
		ArtifactType: TypeChunk, SchemaVersion: SchemaVersion, ChunkID: pc.ID,
		SourceFingerprint: doc.Source.Fingerprint, DocumentFingerprint: doc.Fingerprint,
		TextSHA256: pc.TextSHA256, Text: groupText(els, g), TokenEstimate: pc.TokenEstimate,
		PageRefs: pc.PageRefs, ElementRefs: pc.ElementRefs, SieveSectionID: pc.SieveSectionID,
		SectionTitle: sectionTitle(doc, pc.SieveSectionID), BBoxes: boxes, Warnings: []Warning{},
	}
	if c.TokenEstimate > cfg.ChunkTokenBudget {
		c.Warnings = append(c.Warnings, Warning{ID: "w0001", Code: "chunk_over_budget",
			Message: "one element is longer than the chunk token budget and was kept whole"})
	}
	if w := machineReadWarning(els, g); w != "" {
		c.Warnings = append(c.Warnings, Warning{ID: id("w%04d", len(c.Warnings)+1), Code: WarningMachineRead, Message: w})
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

// WarningMachineRead is the chunk warning of a chunk with text that was
// not read from the document's text: OCR of a scanned page or a canvas, a
// canvas's scene graph (ARTIFACT.md: weigh it accordingly).
const WarningMachineRead = "machine_read_text"

// MachineRead reports a block source whose text was not read from the
// document's own text (dom, static, a PDF's text layer).
func MachineRead(source string) bool {
	switch source {
	case "", "dom", "static", "pdf":
		return false
	}
	return true
}

// machineReadWarning names the chunk's elements whose text a machine read
// (at most maxNamedFindings), "" when there are none.
func machineReadWarning(els []Element, g chunkGroup) string {
	var named []string
	n := 0
	for _, i := range g.els {
		if e := &els[i]; e.Source != "" {
			if len(named) < maxNamedFindings {
				named = append(named, e.ID+" ("+e.Source+")")
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	list := strings.Join(named, ", ")
	if n > len(named) {
		list += fmt.Sprintf(" and %d more", n-len(named))
	}
	return fmt.Sprintf("%d of the chunk's elements were not read from the document's text but by OCR of its pixels or from a canvas's scene graph: %s; OCR can misread letters and figures, check them against a crop", n, list)
}
