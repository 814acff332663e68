package graph

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

// budgetPage has n paragraphs, each followed by a hidden passage (n
// latent entries, 2n blocks' worth of nodes).
func budgetPage(n int) string {
	return "<html><body><main>" + strings.Repeat("<p>seen</p><div hidden>unseen</div>", n) + "</main></body></html>"
}

// budgetCapture is a capture of budgetPage(n) whose records validate.
func budgetCapture(n int) *capture.Record {
	c := captureOf(budgetPage(n))
	c.Trace = capture.Trace{SieveVersion: "test", Tier: "static", Libraries: []version.Library{}}
	return c
}

func budgetGap(g *Record) *Gap {
	for i := range g.Gaps {
		if g.Gaps[i].Kind == "budget" {
			return &g.Gaps[i]
		}
	}
	return nil
}

func marshal(t *testing.T, g *Record) []byte {
	t.Helper()
	return mustMarshal(t, g)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := codec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkAt: a page exactly at a budget reads as it does with no budget.
func checkAt(t *testing.T, what string, g, free *Record) {
	t.Helper()
	if !bytes.Equal(marshal(t, g), marshal(t, free)) {
		t.Errorf("%s: at the budget the graph differs from the unlimited one", what)
	}
	if g.Outcome.Status != StatusOK || budgetGap(g) != nil {
		t.Errorf("%s: at the budget: outcome %s, gaps %+v", what, g.Outcome.Status, g.Gaps)
	}
}

// checkOver: a page over a budget is partial with a budget gap whose
// reason names the flag, and the evidence says it too.
func checkOver(t *testing.T, what string, g *Record, flag string) {
	t.Helper()
	gap := budgetGap(g)
	if gap == nil || !strings.Contains(gap.Reason, flag) {
		t.Fatalf("%s: over the budget: no budget gap naming %s in %+v", what, flag, g.Gaps)
	}
	if g.Outcome.Status != StatusPartial || len(g.Outcome.Evidence) == 0 || g.Outcome.Evidence[0] != gap.Reason {
		t.Errorf("%s: over the budget: outcome %s %q, want partial with %q", what, g.Outcome.Status, g.Outcome.Evidence, gap.Reason)
	}
}

func TestBudgetNodes(t *testing.T) {
	c := budgetCapture(50)
	free, err := normalize.Normalize(c)
	if err != nil {
		t.Fatal(err)
	}
	nodes := len(free.Nodes)
	at, _ := normalize.NormalizeWith(c, normalize.Limits{Nodes: nodes})
	if at.Stats.CutNodes != 0 || len(at.Nodes) != nodes {
		t.Fatalf("at the node budget: %d nodes, %d cut", len(at.Nodes), at.Stats.CutNodes)
	}
	checkAt(t, "nodes", Build(at), Build(free))
	for _, max := range []int{nodes - 1, nodes / 2} {
		over, _ := normalize.NormalizeWith(c, normalize.Limits{Nodes: max})
		if len(over.Nodes) != max || over.Stats.CutNodes != nodes-max {
			t.Fatalf("node budget %d of %d: %d nodes, %d cut", max, nodes, len(over.Nodes), over.Stats.CutNodes)
		}
		for _, line := range [][]byte{mustMarshal(t, over), marshal(t, Build(over))} {
			if err := schemas.ValidateRecord(line); err != nil {
				t.Fatalf("node budget %d: %v", max, err)
			}
		}
		g := Build(over)
		checkOver(t, "nodes", g, "--max-nodes")
		if max == nodes/2 && len(g.Blocks) >= len(Build(free).Blocks) {
			t.Errorf("half the nodes kept %d blocks of %d", len(g.Blocks), len(Build(free).Blocks))
		}
	}
}

func TestBudgetBlocks(t *testing.T) {
	rec, err := normalize.Normalize(budgetCapture(50))
	if err != nil {
		t.Fatal(err)
	}
	free := Build(rec)
	blocks := len(free.Blocks)
	checkAt(t, "blocks", BuildWith(rec, Limits{Blocks: blocks}), free)
	for _, max := range []int{blocks - 1, 10, 1} {
		g := BuildWith(rec, Limits{Blocks: max})
		checkOver(t, "blocks", g, "--max-blocks")
		if len(g.Blocks) != max {
			t.Fatalf("block budget %d: %d blocks", max, len(g.Blocks))
		}
		for i := range g.Blocks {
			if g.Blocks[i].Text != free.Blocks[i].Text || g.Blocks[i].ID != free.Blocks[i].ID {
				t.Fatalf("block budget %d: block %d is %q, was %q", max, i, g.Blocks[i].Text, free.Blocks[i].Text)
			}
		}
		if want := blocks - max; !strings.Contains(budgetGap(g).Reason, ": "+strconv.Itoa(want)+" blocks after") {
			t.Errorf("block budget %d: gap %q does not count %d blocks cut", max, budgetGap(g).Reason, want)
		}
		if err := schemas.ValidateRecord(marshal(t, g)); err != nil {
			t.Fatalf("block budget %d: %v", max, err)
		}
		if len(g.Latent) > max+1 {
			t.Errorf("block budget %d: %d latent entries kept from past the cut", max, len(g.Latent))
		}
	}
}

func TestBudgetLatent(t *testing.T) {
	rec, err := normalize.Normalize(budgetCapture(50))
	if err != nil {
		t.Fatal(err)
	}
	free := Build(rec)
	latent := len(free.Latent)
	if latent != 50 {
		t.Fatalf("%d latent entries, want 50", latent)
	}
	checkAt(t, "latent", BuildWith(rec, Limits{Latent: latent}), free)
	g := BuildWith(rec, Limits{Latent: 20})
	checkOver(t, "latent", g, "--max-latent")
	if len(g.Latent) != 20 || len(g.Blocks) != len(free.Blocks) {
		t.Fatalf("latent budget 20: %d latent entries, %d blocks (of %d)", len(g.Latent), len(g.Blocks), len(free.Blocks))
	}
	if !strings.Contains(budgetGap(g).Reason, "30 more hidden passages") {
		t.Errorf("gap %q does not count the 30 passages cut", budgetGap(g).Reason)
	}
}

// A budget cut on a page already read as another status is a note, not
// the outcome.
func TestBudgetBesideOtherOutcome(t *testing.T) {
	c := budgetCapture(50)
	c.Status = 404
	rec, err := normalize.Normalize(c)
	if err != nil {
		t.Fatal(err)
	}
	g := BuildWith(rec, Limits{Blocks: 3})
	if g.Outcome.Status != StatusBlocked || budgetGap(g) == nil {
		t.Fatalf("outcome %s, gaps %+v", g.Outcome.Status, g.Gaps)
	}
	if !strings.Contains(strings.Join(g.Audit.Notes, "\n"), "also observed (partial): the page has more blocks") {
		t.Errorf("no note of the cut in %q", g.Audit.Notes)
	}
}
