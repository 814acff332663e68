// Command train learns sieve's block model (graph/model.json) from the
// five main-content evaluation sets of ../shared/bench, deterministically:
// the same pages give the same file, byte for byte. Every block the rules
// label gets a label from the set's ground truth (labels.go), features
// from graph.ModelRows, and a weight so that every set, and every page in
// a set, weighs the same. It first validates leave-one-set-out (train on
// four sets, score the fifth with the shingle and snippet metrics of
// score.py) and prints that table beside the rules alone, then trains on
// all five and writes the model. `make train` runs it; docs/QUALITY.md
// says how to read the table.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
)

// margins are the margins the validation table shows; the model ships
// with defaultMargin.
var margins = []float64{0, 1, 2, 3}

const defaultMargin = 3

var allSets = []string{bench.SetScrapinghub, bench.SetTrafilatura, "cleaneval-dev", "cleanportaleval", "readability-tests"}

func main() {
	out := flag.String("out", "../../graph/model.json", "write the model here")
	captures := flag.String("captures", "", "keep capture records in DIR/<set>/<id>.json and reuse them")
	loso := flag.Bool("loso", true, "validate leave-one-set-out before training on all sets")
	on := flag.String("train", "", "comma-separated sets: train on these only, print the scores on the others beside the rules, write nothing")
	flag.Parse()
	var sets []*evalSet
	for _, name := range allSets {
		s, err := loadSet(name, *captures)
		if err != nil {
			fmt.Fprintln(os.Stderr, "train:", err)
			os.Exit(1)
		}
		sets = append(sets, s)
	}
	if *on != "" {
		heldOut(sets, strings.Split(*on, ","))
		return
	}
	if *loso {
		leaveOneSetOut(sets)
	}
	m := train(sets, -1)
	m.Margin = defaultMargin
	data, err := json.Marshal(m)
	if err == nil {
		err = os.WriteFile(*out, append(data, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d trees of depth %d, %d rows, %d bytes\n", *out, len(m.Trees), m.Depth, m.Params.Rows, len(data)+1)
}

// evalSet is one evaluation set: its pages, each with its blocks as the
// model sees them and their labels.
type evalSet struct {
	name  string
	pages []page
}

type page struct {
	truth  bench.Page
	rows   []graph.ModelRow
	labels []int8 // 1 content, 0 chrome, -1 unknown
}

func loadSet(name, cache string) (*evalSet, error) {
	truths, err := bench.LoadTruth(name)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "sieve-train-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cp := capture.New(capture.DefaultOptions())
	defer cp.Close()
	s := &evalSet{name: name}
	for _, p := range truths {
		rec, err := capturePage(cp, name, tmp, cache, p)
		if err != nil {
			return nil, err
		}
		n, err := normalize.Normalize(rec)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", name, p.ID, err)
		}
		rows := graph.ModelRows(n)
		s.pages = append(s.pages, page{truth: p, rows: rows, labels: labels(p, rows)})
	}
	return s, nil
}

// capturePage captures p, or reads its record from the capture cache (the
// format bench/quality's -captures writes).
func capturePage(cp *capture.Capturer, set, tmp, cache string, p bench.Page) (*capture.Record, error) {
	path := filepath.Join(cache, set, p.ID+".json")
	if cache != "" {
		if data, err := os.ReadFile(path); err == nil {
			var rec capture.Record
			return &rec, json.Unmarshal(data, &rec)
		}
	}
	rec, err := bench.CapturePage(cp, set, tmp, p)
	if err != nil || cache == "" {
		return rec, err
	}
	data, err := json.Marshal(rec)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o755)
	}
	if err == nil {
		err = os.WriteFile(path, data, 0o644)
	}
	return rec, err
}

// leaveOneSetOut trains on every set but one and scores that one, for
// each set, beside the rules alone on the same block texts.
func leaveOneSetOut(sets []*evalSet) {
	fmt.Print("| held-out set | rules F1 (P/R) | block labels (ceiling) |")
	for _, mg := range margins {
		fmt.Printf(" model, margin %.1f |", mg)
	}
	fmt.Println("\n|---|---|---|" + strings.Repeat("---|", len(margins)))
	for i, s := range sets {
		m := train(sets, i)
		rules := score(s, func(r graph.ModelRow) bool { return r.Rule })
		fmt.Printf("| %s | %s | %s |", s.name, fmtScore(rules), fmtScore(ceiling(s)))
		for _, mg := range margins {
			m.Margin = mg
			fmt.Printf(" %s |", fmtScore(score(s, m.Content)))
		}
		fmt.Println()
	}
	fmt.Println()
}

// heldOut trains on the sets named in on and scores every other set, beside
// the rules alone: the held-out check of issue 24 (the sets the rules were
// tuned on teach, the sets no rule saw judge).
func heldOut(sets []*evalSet, on []string) {
	teaches := map[string]bool{}
	for _, s := range on {
		teaches[s] = true
	}
	var teach []*evalSet
	for _, s := range sets {
		if teaches[s.name] {
			teach = append(teach, s)
		}
	}
	m := train(teach, -1)
	fmt.Printf("trained on %s\n\n", strings.Join(on, ", "))
	fmt.Print("| held-out set | rules F1 (P/R) |")
	for _, mg := range margins {
		fmt.Printf(" model, margin %.1f |", mg)
	}
	fmt.Println("\n|---|---|" + strings.Repeat("---|", len(margins)))
	for _, s := range sets {
		if teaches[s.name] {
			continue
		}
		fmt.Printf("| %s | %s |", s.name, fmtScore(score(s, func(r graph.ModelRow) bool { return r.Rule })))
		for _, mg := range margins {
			m.Margin = mg
			fmt.Printf(" %s |", fmtScore(score(s, m.Content)))
		}
		fmt.Println()
	}
}

func fmtScore(s bench.Score) string {
	return fmt.Sprintf("%.3f (%.3f/%.3f)", s.F1, s.Precision, s.Recall)
}

// score is the set's score.py metric on the text of the blocks keep
// keeps, one block a line.
func score(s *evalSet, keep func(graph.ModelRow) bool) bench.Score {
	return scoreRows(s, func(r *graph.ModelRow) bool { return keep(*r) })
}

func scoreRows(s *evalSet, keep func(*graph.ModelRow) bool) bench.Score {
	var body []bench.ShingleCounts
	var snip []bench.SnippetCounts
	for _, p := range s.pages {
		var b strings.Builder
		for k := range p.rows {
			if r := &p.rows[k]; keep(r) {
				b.WriteString(r.Text)
				b.WriteByte('\n')
			}
		}
		if len(p.truth.With) > 0 || len(p.truth.Without) > 0 {
			snip = append(snip, bench.Snippets(p.truth, b.String()))
		} else {
			body = append(body, bench.Shingles(p.truth.Body, b.String()))
		}
	}
	if len(snip) > 0 {
		return bench.SnippetScore(snip)
	}
	return bench.BodyScore(body)
}

// ceiling is the set's score when every block the model judges takes its
// own label: the most a block model on these blocks could reach.
func ceiling(s *evalSet) bench.Score {
	labelled := make(map[*graph.ModelRow]bool)
	for _, p := range s.pages {
		for k := range p.rows {
			if p.rows[k].Decided && p.labels[k] >= 0 {
				labelled[&p.rows[k]] = p.labels[k] == 1
			} else {
				labelled[&p.rows[k]] = p.rows[k].Rule
			}
		}
	}
	return scoreRows(s, func(r *graph.ModelRow) bool { return labelled[r] })
}
