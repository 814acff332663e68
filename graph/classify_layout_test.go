package graph

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/normalize"
)

// layoutRecord normalizes body and gives the elements with an id the
// boxes in boxes, as the render tier would (Source "dom").
func layoutRecord(t *testing.T, body string, boxes map[string]normalize.Box) *normalize.Record {
	t.Helper()
	n, err := normalize.Normalize(captureOf(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n.Nodes {
		nd := &n.Nodes[i]
		nd.Source = "dom"
		if b, ok := boxes[nd.Attrs["id"]]; ok {
			nd.Box = &b
		}
	}
	return n
}

func TestLayoutBesideColumn(t *testing.T) {
	p := func(id, w string) string {
		return `<p id="` + id + `">The ` + w + ` paragraph follows the river from the mill to the harbour, past the bridges and the quays, long enough to be prose.</p>`
	}
	body := `<!doctype html><html><body><div class="page"><div class="story">` + p("p1", "first") + p("p2", "second") + p("p3", "third") + p("p4", "fourth") +
		`</div><div class="col2"><p id="r1">SIDE Tickets are sold at the kiosk.</p><p id="r2">SIDE The market opens at nine.</p></div></div></body></html>`
	col := func(y int) normalize.Box { return normalize.Box{X: 0, Y: y, W: 640, H: 72} }
	boxes := map[string]normalize.Box{"p1": col(0), "p2": col(80), "p3": col(160), "p4": col(240),
		"r1": {X: 672, Y: 0, W: 300, H: 24}, "r2": {X: 672, Y: 32, W: 300, H: 24}}
	g := Build(layoutRecord(t, body, boxes))
	for _, b := range g.Blocks {
		switch {
		case strings.HasPrefix(b.Text, "SIDE") && (b.Role != "chrome" || !strings.Contains(b.Reason, "beside the main text column")):
			t.Errorf("%q beside the column is %s (%s)", b.Text, b.Role, b.Reason)
		case strings.HasPrefix(b.Text, "The ") && b.Role != "content":
			t.Errorf("%q in the column is %s (%s)", b.Text, b.Role, b.Reason)
		}
	}
	// Overlapping the column (a box under the article), or without boxes:
	// the container's decision stands.
	boxes["r1"], boxes["r2"] = normalize.Box{X: 0, Y: 320, W: 640, H: 24}, normalize.Box{X: 600, Y: 352, W: 300, H: 24}
	for _, g := range []*Record{Build(layoutRecord(t, body, boxes)), buildHTML(t, body)} {
		if r := roleOf(t, g, "SIDE Tickets"); r != "content" {
			t.Errorf("a line under the column is %s, want content", r)
		}
		if r := roleOf(t, g, "SIDE The market"); r != "content" {
			t.Errorf("a line overlapping the column is %s, want content", r)
		}
	}
}
