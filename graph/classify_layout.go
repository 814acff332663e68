package graph

import "github.com/sieve-dev/sieve/normalize"

// Layout: when the render tier gives elements their boxes, where a block
// sits says what the markup may not. The article's text column is the
// horizontal extent of the prose in the best-scoring element (the core,
// before widening); a block the widened container took in that lies
// wholly beside that column — a rail of links or a promo box laid out
// next to the article inside the same wrapper — is chrome. Blocks in the
// core itself are never moved (margin notes, pull quotes), nor are
// images, and without boxes (static tier, PDFs) nothing changes.

// minColumnBlocks is the least prose blocks with boxes that define the
// text column.
const minColumnBlocks = 2

// besideColumn marks the content blocks outside the core whose box lies
// wholly left or right of the core's text column as chrome.
func (b *builder) besideColumn(c *container) {
	left, right, ok := b.textColumn(c)
	if !ok {
		return
	}
	for i := range b.blocks {
		d := &b.blocks[i]
		if d.Role != "content" || d.Type == TypeMedia || d.node < 0 || c.inside(b.t, d.node, c.core) {
			continue
		}
		box := b.layoutBox(d.node)
		if box == nil || box.X < right && box.X+box.W > left {
			continue
		}
		d.Role, d.Chrome, d.Reason = "chrome", "sidebar", "beside the main text column (render-tier layout)"
	}
}

// textColumn is the horizontal extent [left, right) of the prose blocks
// in the container's core that have boxes.
func (b *builder) textColumn(c *container) (left, right int, ok bool) {
	n := 0
	for i := range b.blocks {
		d := &b.blocks[i]
		if d.node < 0 || !isProse(d) || !c.inside(b.t, d.node, c.core) {
			continue
		}
		box := b.layoutBox(d.node)
		if box == nil {
			continue
		}
		if n == 0 || box.X < left {
			left = box.X
		}
		if n == 0 || box.X+box.W > right {
			right = box.X + box.W
		}
		n++
	}
	return left, right, n >= minColumnBlocks && right > left
}

// layoutBox is the rendered box of element i: a box with an area from the
// browser, not a PDF page's.
func (b *builder) layoutBox(i int) *normalize.Box {
	n := &b.t.nodes[i]
	if n.Box == nil || n.Page > 0 || n.Source != "dom" || n.Box.W <= 0 || n.Box.H <= 0 {
		return nil
	}
	return n.Box
}
