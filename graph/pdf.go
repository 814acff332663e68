package graph

import (
	"fmt"
	"slices"
	"strings"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/normalize"
)

// PDF blocks carry the page their text is on and their box on that page:
// page-local points, top-left, as normalize gives them (rounded outwards
// to integers). They are not quantised to the render tier's 8 px grid: a
// point is already coarser than a glyph's rounding, and a box must land on
// its words.

// pdfInfo is the capture's PDF facts; a PDF capture could not read
// (encrypted, broken) gets an empty record, so that later stages still
// know the source is a PDF.
func pdfInfo(rec *normalize.Record) *capture.PDFInfo {
	if rec.Capture.PDF == nil && isPDF(rec) {
		return &capture.PDFInfo{Pages: []capture.PDFPageInfo{}}
	}
	return rec.Capture.PDF
}

// pdfPlace gives every PDF block the page and box of the element its text
// came from (pdfNodePlace).
func pdfPlace(blocks []Block, nodes []normalize.Node) {
	byPath := make(map[string]int, len(nodes)/2)
	for i := range nodes {
		if p := nodes[i].Path; p != "" {
			if _, dup := byPath[p]; !dup {
				byPath[p] = i
			}
		}
	}
	for i := range blocks {
		if n, ok := byPath[blocks[i].Path]; ok {
			blocks[i].Page, blocks[i].Box = pdfNodePlace(nodes, n)
		}
	}
}

// pdfNodePlace is node i's page and page-local box. A node without a page
// of its own takes its nearest ancestor's (the page section) and no box;
// a node under a page section (id "p0001"…) that carries no page numbers
// at all — normalize's first PDF reading, which stacked the pages in one
// column — gets that section's page and its box moved to the section's
// origin.
func pdfNodePlace(nodes []normalize.Node, i int) (int, *Box) {
	if p := nodes[i].Page; p > 0 {
		return p, pdfBox(nodes[i].Box)
	}
	for j, steps := nodes[i].Parent, 0; j >= 0 && j < len(nodes) && steps < len(nodes); j, steps = nodes[j].Parent, steps+1 {
		if p := nodes[j].Page; p > 0 {
			return p, nil
		}
		if page := sectionPage(&nodes[j]); page > 0 {
			b := pdfBox(nodes[i].Box)
			if b != nil && nodes[j].Box != nil {
				b.X -= nodes[j].Box.X
				b.Y -= nodes[j].Box.Y
			}
			return page, b
		}
	}
	return 0, nil
}

// sectionPage is the page number of a page section (id "p0001"…), else 0.
func sectionPage(n *normalize.Node) int {
	id := n.Attrs["id"]
	if n.Tag != "section" || len(id) != 5 || id[0] != 'p' {
		return 0
	}
	v := atoiDefault(id[1:], 0)
	return max(v, 0)
}

// pdfBox copies a node box; nil for none or an empty one.
func pdfBox(b *normalize.Box) *Box {
	if b == nil || b.W <= 0 || b.H <= 0 {
		return nil
	}
	return &Box{X: b.X, Y: b.Y, W: b.W, H: b.H}
}

// pdfCellBox is a table cell's box: the cell element's box when it lies on
// the table's page.
func pdfCellBox(t *tree, table, cell int) *Box {
	if !normalize.IsPDFSource(t.nodes[cell].Source) {
		return nil
	}
	page, box := pdfNodePlace(t.nodes, cell)
	if tp, _ := pdfNodePlace(t.nodes, table); page == 0 || page != tp {
		return nil
	}
	return box
}

// pdfLatentPlace gives a latent entry from a PDF the page and box of the
// hidden element.
func pdfLatentPlace(t *tree, i int, l *Latent) {
	if normalize.IsPDFSource(t.nodes[i].Source) {
		l.Page, l.Box = pdfNodePlace(t.nodes, i)
	}
}

// mergeLatentPlace widens a merged latent entry's box to cover the next
// element's; entries on two pages keep the first page and lose the box.
func mergeLatentPlace(t *tree, i int, l *Latent) {
	var next Latent
	pdfLatentPlace(t, i, &next)
	switch {
	case next.Page == 0 && l.Page == 0:
	case next.Page != l.Page || next.Box == nil || l.Box == nil:
		l.Box = nil
	default:
		l.Box = unionBox(*l.Box, *next.Box)
	}
}

func unionBox(a, b Box) *Box {
	x0, y0 := min(a.X, b.X), min(a.Y, b.Y)
	x1, y1 := max(a.X+a.W, b.X+b.W), max(a.Y+a.H, b.Y+b.H)
	return &Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// pdfNotes are the audit notes of a PDF read: what gave the reading order
// and why the browser figures are null.
func pdfNotes(rec *normalize.Record) []string {
	order := "PDF: untagged document: reading order, columns, headings, lists and tables come from layout analysis of each page's text (no structure tree)"
	if d := rec.Capture.PDF; d != nil && d.Tagged {
		order = "PDF: tagged document: reading order and structure follow its structure tree where the tags cover the text, layout analysis of the page elsewhere"
	}
	return []string{
		order,
		"PDF: order_confidence is unknown (null): it compares the reading order with boxes top to bottom, which multi-column pages and page breaks contradict by design",
		"PDF: every page was read, there is no scroll sweep; reached_bottom is null",
		"PDF: block, cell and hidden-text boxes are page-local points (top-left origin, after /Rotate and the CropBox) on the block's page, rounded outwards",
	}
}

// pdfPageSignals: pages PDFium could not read. Some failed while others
// read is partial; every page failed is empty_after_render, with the
// pages' errors as evidence either way.
func pdfPageSignals(s *signals, add func(string, string, ...string)) {
	d := s.rec.Capture.PDF
	if d == nil || s.rec.Capture.Error != nil {
		return
	}
	var failed []string
	for _, p := range d.Pages {
		if p.Error != "" {
			failed = append(failed, fmt.Sprintf("page %d: %s", p.Index+1, strings.TrimSpace(p.Error)))
		}
	}
	if len(failed) == 0 {
		return
	}
	total := len(d.Pages)
	if len(failed) < total {
		ev := append([]string{fmt.Sprintf("%d of the PDF's %d pages could not be read; the others were", len(failed), total)}, failed...)
		add(StatusPartial, StatusPartial, ev...)
		return
	}
	ev := append([]string{fmt.Sprintf("none of the PDF's %d pages could be read", total)}, failed...)
	add(StatusEmptyAfterRender, StatusEmptyAfterRender, ev...)
}

// pdfPageCount is the number of pages of a PDF: capture's count, else the
// page sections normalize made.
func pdfPageCount(rec *normalize.Record) int {
	if d := rec.Capture.PDF; d != nil {
		return max(d.PageCount, len(d.Pages))
	}
	n := 0
	for i := range rec.Nodes {
		if rec.Nodes[i].Tag == "section" && rec.Nodes[i].Source == normalize.SourcePDF {
			n++
		}
	}
	return n
}

// pdfAllPagesFailed reports whether a PDF had pages and none could be read.
func pdfAllPagesFailed(rec *normalize.Record) bool {
	d := rec.Capture.PDF
	if d == nil || len(d.Pages) == 0 {
		return false
	}
	for _, p := range d.Pages {
		if p.Error == "" {
			return false
		}
	}
	return true
}

// pdfLinks are the PDF's uri link annotations as links, for those whose
// target no link element already gives (normalize may wrap the words under
// a link). A link's text is the text of the block under it when the link
// covers at least half of that block, else its target: the graph has no
// words to cut a block's text at the link's edges. Links come in page
// order, after the links the walk found.
func pdfLinks(g *Record) []Link {
	if g.PDF == nil {
		return nil
	}
	have := map[string]bool{}
	for _, l := range g.Links {
		have[l.Href] = true
	}
	pb := newPageBlocks(g.Blocks)
	var out []Link
	for _, p := range g.PDF.Pages {
		for _, pl := range p.Links {
			if pl.Action != "uri" || pl.URI == "" || have[pl.URI] {
				continue
			}
			have[pl.URI] = true
			out = append(out, pdfLink(g, pb, p.Index+1, pl))
		}
	}
	return out
}

// pageBlocks indexes blocks by page, so that placing each of a long
// document's links does not read every block.
type pageBlocks struct {
	pages []int         // the pages of the blocks that have one, sorted
	on    map[int][]int // page → its blocks' indexes, in block order
}

func newPageBlocks(blocks []Block) pageBlocks {
	pb := pageBlocks{on: map[int][]int{}}
	for i, b := range blocks {
		if b.Page > 0 {
			pb.pages = append(pb.pages, b.Page)
			pb.on[b.Page] = append(pb.on[b.Page], i)
		}
	}
	slices.Sort(pb.pages)
	return pb
}

// before is the number of blocks on pages before page.
func (pb pageBlocks) before(page int) int {
	n, _ := slices.BinarySearch(pb.pages, page)
	return n
}

func pdfLink(g *Record, pb pageBlocks, page int, pl capture.PDFLink) Link {
	l := Link{Text: pl.URI, Href: pl.URI, External: external(g.FinalURL, pl.URI), Role: "content"}
	box := Box{X: int(pl.Box.X), Y: int(pl.Box.Y), W: int(pl.Box.W + 0.5), H: int(pl.Box.H + 0.5)}
	l.SectionID = sectionAt(g.Blocks, pb.before(page))
	for _, i := range pb.on[page] {
		b := g.Blocks[i]
		if b.Box == nil {
			continue
		}
		if a := overlap(box, *b.Box); a > 0 {
			l.BlockID, l.SectionID, l.Role = b.ID, b.SectionID, b.Role
			if 2*a >= b.Box.W*b.Box.H {
				l.Text = b.Text
			}
			break
		}
	}
	return l
}

// overlap is the area a and b share.
func overlap(a, b Box) int {
	w := min(a.X+a.W, b.X+b.W) - max(a.X, b.X)
	h := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// GapUnmappedText is the gap kind of a PDF page that draws text whose
// glyphs could not be mapped to Unicode (capture's pages[].unmapped).
const GapUnmappedText = "unmapped_text"

// pdfUnmapped makes a gap of each page that shows text its text layer does
// not give (a font without a Unicode mapping PDFium reads), unless OCR
// read the page: that text is not in the content, and nothing else says so.
func pdfUnmapped(g *Record, rec *normalize.Record) {
	d := rec.Capture.PDF
	if d == nil {
		return
	}
	for _, p := range d.Pages {
		if p.Unmapped == 0 || p.OCR != nil && p.OCR.Gap == "" {
			continue
		}
		g.Gaps = append(g.Gaps, Gap{Label: fmt.Sprintf("page %d (text without Unicode)", p.Index+1), Kind: GapUnmappedText,
			Reason: fmt.Sprintf("%d runs of text on the page use a font whose glyphs could not be mapped to Unicode (no ToUnicode map, a character collection the PDF engine does not read): that text is not in the content", p.Unmapped)})
	}
}
