package main

import (
	"strings"
	"unicode"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/graph"
)

// labels says, per block, whether the ground truth holds it: for a gold
// article body, a block is content when most of its word 4-grams are in
// the body (a block of fewer than four words: when its words appear there
// in order); for trafilatura-eval's snippets, when it shares a "with"
// snippet and no "without" one (blocks near no snippet stay unknown).
func labels(p bench.Page, rows []graph.ModelRow) []int8 {
	out := make([]int8, len(rows))
	if len(p.With) > 0 || len(p.Without) > 0 {
		for i, r := range rows {
			out[i] = snippetLabel(p, r.Text)
		}
		return out
	}
	gold := words(p.Body)
	grams := make(map[string]bool, len(gold))
	for i := 0; i+4 <= len(gold); i++ {
		grams[strings.Join(gold[i:i+4], " ")] = true
	}
	joined := " " + strings.Join(gold, " ") + " "
	for i, r := range rows {
		out[i] = bodyLabel(words(r.Text), grams, joined)
	}
	return out
}

func bodyLabel(ws []string, grams map[string]bool, joined string) int8 {
	switch {
	case len(ws) == 0:
		return -1
	case len(ws) < 4:
		return bool8(strings.Contains(joined, " "+strings.Join(ws, " ")+" "))
	}
	in := 0
	for i := 0; i+4 <= len(ws); i++ {
		if grams[strings.Join(ws[i:i+4], " ")] {
			in++
		}
	}
	return bool8(2*in > len(ws)-3)
}

// snippetLabel: a snippet lies in the block, or a block of a sentence or
// more lies in a snippet.
func snippetLabel(p bench.Page, text string) int8 {
	t := norm(text)
	if len(t) == 0 {
		return -1
	}
	with, without := overlaps(t, p.With), overlaps(t, p.Without)
	switch {
	case with && !without:
		return 1
	case without && !with:
		return 0
	}
	return -1
}

func overlaps(t string, snippets []string) bool {
	for _, s := range snippets {
		s = norm(s)
		if s != "" && (strings.Contains(t, s) || len(t) >= 30 && strings.Contains(s, t)) {
			return true
		}
	}
	return false
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }

// words splits as score.py does: runs of letters, digits and '_', lower-
// cased here (a label should not hinge on case).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_')
	})
}

func bool8(v bool) int8 {
	if v {
		return 1
	}
	return 0
}
