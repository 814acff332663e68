package graph

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// Default per-page budgets of the graph. A page over one is read up to it
// and reads as partial, with a gap that says what was cut: memory stays
// bounded whatever the markup, where it once grew until the machine ran
// out (issue 17). The 1M-paragraph page of `make bench-growth` fits.
const (
	DefaultMaxBlocks = 1_500_000
	DefaultMaxLatent = 200_000
)

// Limits are the graph's per-page budgets; a zero field is its default.
type Limits struct {
	Blocks int // most blocks; those after are not kept
	Latent int // most latent entries; further hidden passages are not kept
}

func (l Limits) blocks() int {
	if l.Blocks > 0 {
		return l.Blocks
	}
	return DefaultMaxBlocks
}

func (l Limits) latent() int {
	if l.Latent > 0 {
		return l.Latent
	}
	return DefaultMaxLatent
}

// LimitFlags are the flags of the graph's budgets (sieve-graph, sieve
// distill).
func LimitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "max-blocks", Value: DefaultMaxBlocks, Usage: "block budget of a page: blocks after this many are not kept, and the page reads as partial with a gap"},
		&cli.IntFlag{Name: "max-latent", Value: DefaultMaxLatent, Usage: "latent-entry budget of a page: hidden passages after this many are not kept, and the page reads as partial with a gap"},
	}
}

// LimitsFrom reads LimitFlags.
func LimitsFrom(c *cli.Context) (Limits, error) {
	l := Limits{Blocks: c.Int("max-blocks"), Latent: c.Int("max-latent")}
	if l.Blocks < 1 {
		return Limits{}, cliutil.Usagef("--max-blocks must be at least 1, not %d", l.Blocks)
	}
	if l.Latent < 1 {
		return Limits{}, cliutil.Usagef("--max-latent must be at least 1, not %d", l.Latent)
	}
	return l, nil
}

// budget is what the builder counts against Limits.
type budget struct {
	maxBlocks, maxLatent int
	cutBlocks, cutLatent int
}

// cutRefs drops the links, actions, media and latent entries placed after
// the block budget's cut: their blocks are not in the graph.
func (b *builder) cutRefs() {
	if b.cutBlocks == 0 {
		return
	}
	max := b.maxBlocks
	b.links = keepBefore(b.links, func(l posLink) bool { return l.pos <= max && l.block < max })
	b.actions = keepBefore(b.actions, func(a posAction) bool { return a.pos <= max && a.block < max })
	b.media = keepBefore(b.media, func(m posMedia) bool { return m.pos <= max && m.block < max })
	b.latent = keepBefore(b.latent, func(l posLatent) bool { return l.pos <= max })
}

func keepBefore[T any](s []T, keep func(T) bool) []T {
	out := s[:0]
	for _, x := range s {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// budgetGaps are the gaps of the budgets a page went over, and the
// outcome evidence they give.
func budgetGaps(nodes, cutNodes int, b *builder) []Gap {
	var gaps []Gap
	if cutNodes > 0 {
		gaps = append(gaps, Gap{Label: "end of document", Kind: "budget", Reason: fmt.Sprintf(
			"the page has more nodes than its budget of %d (--max-nodes): the last %d nodes of the document were not read", nodes, cutNodes)})
	}
	if b.cutBlocks > 0 {
		gaps = append(gaps, Gap{Label: "end of document", Kind: "budget", Reason: fmt.Sprintf(
			"the page has more blocks than its budget of %d (--max-blocks): %d blocks after %s were not kept", b.maxBlocks, b.cutBlocks, blockID("b_", b.maxBlocks-1))})
	}
	if b.cutLatent > 0 {
		gaps = append(gaps, Gap{Label: "hidden text", Kind: "budget", Reason: fmt.Sprintf(
			"the page has more latent entries than its budget of %d (--max-latent): %d more hidden passages were not kept", b.maxLatent, b.cutLatent)})
	}
	return gaps
}

// budgetOutcome makes a page over a budget partial, as decideOutcome
// would: partial wins over ok, and is a note beside any status that
// outranks it.
func budgetOutcome(out *Outcome, gaps []Gap) []string {
	if len(gaps) == 0 {
		return nil
	}
	var ev []string
	for _, g := range gaps {
		ev = append(ev, g.Reason)
	}
	switch out.Status {
	case StatusOK:
		var notes []string
		if len(out.Evidence) > 0 {
			notes = append(notes, "also observed: "+strings.Join(out.Evidence, "; "))
		}
		out.Status, out.Evidence = StatusPartial, ev
		return notes
	case StatusPartial:
		out.Evidence = append(out.Evidence, ev...)
		return nil
	}
	return []string{"also observed (" + StatusPartial + "): " + strings.Join(ev, "; ")}
}
