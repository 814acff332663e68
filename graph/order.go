package graph

import (
	"fmt"

	"github.com/sieve-dev/sieve/normalize"
)

// orderConfidence compares DOM order with visual order over the content
// blocks that have boxes: the share of consecutive pairs whose second block
// does not start visually before the first (above it, or level with it and
// to its left). nil when fewer than two blocks have boxes.
func orderConfidence(blocks []Block) *float64 {
	var prev *Box
	pairs, agree := 0, 0
	for i := range blocks {
		b := blocks[i].Box
		if b == nil || blocks[i].Role != "content" {
			continue
		}
		if prev != nil {
			pairs++
			if b.Y >= prev.Y-boxQuantum {
				agree++
			}
		}
		prev = b
	}
	if pairs == 0 {
		return nil
	}
	v := round(float64(agree)/float64(pairs), 2)
	return &v
}

// applyRender fills the figures only a browser read knows: block boxes,
// order_confidence, reached_bottom and checkpoints.
func applyRender(g *Record, rec *normalize.Record) {
	if isPDF(rec) {
		// PDF blocks got their pages and boxes in Build (pdfPlace); there
		// is no browser read to judge order or sweep (pdfNotes says why).
		return
	}
	r := rec.Capture.Render
	if rec.Capture.Tier != "render" || r == nil {
		return
	}
	blockBoxes(g.Blocks, rec.Nodes)
	g.Audit.OrderConfidence = orderConfidence(g.Blocks)
	if g.Audit.OrderConfidence == nil {
		g.Audit.Notes = append(g.Audit.Notes, "render tier: fewer than two content blocks have boxes, so order_confidence is unknown (null)")
	}
	bottom := r.ReachedBottom
	g.Audit.ReachedBottom = &bottom
	g.Stats.Checkpoints = r.Checkpoints
	if !bottom {
		g.Audit.Notes = append(g.Audit.Notes, fmt.Sprintf("render tier: the scroll sweep stopped at its cap after %d steps without reaching the bottom (page height %d px); content further down may be missing", r.Checkpoints, r.PageHeight))
	}
	for _, f := range r.FrameGaps {
		g.Gaps = append(g.Gaps, Gap{Label: f.Src, Kind: "frame", Reason: f.Reason})
	}
	for _, c := range r.Canvases {
		if c.Gap != "" {
			label := fmt.Sprintf("canvas at (%d, %d), %d×%d px", c.Box.X, c.Box.Y, c.Box.W, c.Box.H)
			g.Gaps = append(g.Gaps, Gap{Label: label, Kind: "canvas", Reason: c.Gap})
		}
	}
}
