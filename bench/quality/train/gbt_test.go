package main

import (
	"encoding/json"
	"testing"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/graph"
)

// synthetic is a set whose label is "link density below 0.5", the rules'
// decision wrong on every second block: the model must learn to overrule.
func synthetic(name string, pages int) *evalSet {
	s := &evalSet{name: name}
	for p := 0; p < pages; p++ {
		pg := page{truth: bench.Page{ID: name}}
		for i := 0; i < 40; i++ {
			x := make([]float32, len(graph.FeatureNames))
			ld := float32((i*7+p*3)%20) / 20
			x[2] = ld // link_density
			x[1] = float32(i % 5)
			content := ld < 0.5
			pg.rows = append(pg.rows, graph.ModelRow{Text: "some words of the block", Type: graph.TypeParagraph,
				Rule: content != (i%2 == 0), Decided: true, Features: x})
			pg.labels = append(pg.labels, bool8(content))
		}
		s.pages = append(s.pages, pg)
	}
	return s
}

func TestTrainLearnsAndIsDeterministic(t *testing.T) {
	sets := []*evalSet{synthetic("a", 30), synthetic("b", 20)}
	m := train(sets, -1)
	wrong := 0
	for _, s := range sets {
		for _, p := range s.pages {
			for i, r := range p.rows {
				if m.Content(r) != (p.labels[i] == 1) {
					wrong++
				}
			}
		}
	}
	if wrong > 0 {
		t.Errorf("%d of 2000 blocks misjudged on a separable set", wrong)
	}
	a, _ := json.Marshal(m)
	b, _ := json.Marshal(train(sets, -1))
	if string(a) != string(b) {
		t.Error("two trainings on the same rows differ")
	}
}

func TestLabels(t *testing.T) {
	body := bench.Page{Body: "The council voted on Monday to rebuild the old bridge over the river."}
	rows := []graph.ModelRow{{Text: "The council voted on Monday to rebuild the old bridge."}, {Text: "Share this story with your friends on social media."}, {Text: ""}}
	if got := labels(body, rows); got[0] != 1 || got[1] != 0 || got[2] != -1 {
		t.Errorf("body labels %v, want [1 0 -1]", got)
	}
	snip := bench.Page{With: []string{"rebuild the old bridge"}, Without: []string{"Share this story"}}
	if got := labels(snip, rows); got[0] != 1 || got[1] != 0 || got[2] != -1 {
		t.Errorf("snippet labels %v, want [1 0 -1]", got)
	}
}
