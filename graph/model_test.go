package graph

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/normalize"
)

// The shipped model must be trained on today's features: a feature added,
// dropped or moved without `make train` would feed the trees the wrong
// columns.
func TestShippedModelMatchesFeatures(t *testing.T) {
	var m BlockModel
	if err := json.Unmarshal(modelJSON, &m); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(m.Features, ","), strings.Join(FeatureNames, ","); got != want {
		t.Fatalf("model.json features\n%s\nwant\n%s", got, want)
	}
	if numFeatures != len(FeatureNames) {
		t.Fatalf("%d feature indices, %d names", numFeatures, len(FeatureNames))
	}
	// The shipped file holds no trees (docs/QUALITY.md: the trained model
	// did not beat the rules held out); the rules alone decide.
	if len(m.Trees) == 0 && defaultModel() != nil {
		t.Fatal("a model without trees must leave the rules alone")
	}
}

func TestModelScoreWalksTheTree(t *testing.T) {
	// One tree of depth 2: x0 <= 0.5 ? (x1 <= 1 ? 1 : 2) : (x1 <= 3 ? 3 : 4).
	m := &BlockModel{Depth: 2, Base: 0.5, Trees: []ModelTree{{Feature: []int{0, 1, 1}, Threshold: []float32{0.5, 1, 3}, Leaf: []float32{1, 2, 3, 4}}}}
	for _, c := range []struct {
		x    []float32
		want float64
	}{{[]float32{0, 1}, 1.5}, {[]float32{0, 2}, 2.5}, {[]float32{1, 3}, 3.5}, {[]float32{1, 4}, 4.5}} {
		if got := m.Score(c.x); got != c.want {
			t.Errorf("Score(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	// Content overrules the rules only beyond the margin, and only on the
	// blocks the model judges.
	m.Margin = 2
	for _, c := range []struct {
		row  ModelRow
		want bool
	}{
		{ModelRow{Rule: false, Decided: true, Features: []float32{1, 4}}, true},  // 4.5 > 2
		{ModelRow{Rule: false, Decided: true, Features: []float32{0, 1}}, false}, // 1.5: unsure, the rules stand
		{ModelRow{Rule: false, Decided: false, Features: []float32{1, 4}}, false},
	} {
		if got := m.Content(c.row); got != c.want {
			t.Errorf("Content(%+v) = %v, want %v", c.row, got, c.want)
		}
	}
	m.Base = -10 // every score below -2: chrome wherever the model judges
	if m.Content(ModelRow{Rule: true, Decided: true, Features: []float32{0, 1}}) {
		t.Error("a sure chrome score does not overrule the rules' content")
	}
}

func TestModelRowsMatchBuild(t *testing.T) {
	n := normalizedHTML(t, carouselPage())
	rows := ModelRows(n)
	g := Build(n)
	if len(rows) != len(g.Blocks) {
		t.Fatalf("%d model rows, %d blocks", len(rows), len(g.Blocks))
	}
	for i, r := range rows {
		if r.Text != g.Blocks[i].Text || len(r.Features) != len(FeatureNames) {
			t.Fatalf("row %d: %q with %d features, block %q", i, r.Text, len(r.Features), g.Blocks[i].Text)
		}
	}
}

func TestSimilarSiblingsCountsTagAndClass(t *testing.T) {
	b, _, _ := classified(normalizedHTML(t, carouselPage()), Limits{})
	for i := range b.t.nodes {
		if b.t.nodes[i].Tag == "li" {
			if n := b.similarSiblings(i); n != 15 {
				t.Fatalf("a carousel item has %d similar siblings, want 15", n)
			}
			return
		}
	}
	t.Fatal("no carousel item")
}

func normalizedHTML(t *testing.T, body string) *normalize.Record {
	t.Helper()
	n, err := normalize.Normalize(captureOf(body))
	if err != nil {
		t.Fatalf("normalize: %v", err)
	}
	return n
}
