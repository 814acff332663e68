package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// The two main-content evaluation sets (../shared/bench/README.md).
const (
	SetScrapinghub = "scrapinghub"
	SetTrafilatura = "trafilatura-eval"
)

// Page is one evaluation page and its ground truth: Body for scrapinghub,
// With/Without snippets for trafilatura-eval.
type Page struct {
	ID      string   `json:"-"`
	URL     string   `json:"url"`
	File    string   `json:"file"`
	Body    string   `json:"articleBody"`
	With    []string `json:"with"`
	Without []string `json:"without"`
}

// LoadTruth reads a set's ground_truth.json; the pages come back sorted by
// id.
func LoadTruth(set string) ([]Page, error) {
	data, err := os.ReadFile(filepath.Join(Dir(), set, "ground_truth.json"))
	if err != nil {
		return nil, err
	}
	var m map[string]Page
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s ground truth: %w", set, err)
	}
	pages := make([]Page, 0, len(m))
	for id, p := range m {
		p.ID = id
		if p.File == "" {
			p.File = id + ".html"
		}
		pages = append(pages, p)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].ID < pages[j].ID })
	return pages, nil
}

// CapturePage gunzips the page into tmp and captures it as a local file, so
// charset detection runs exactly as in production.
func CapturePage(cp *capture.Capturer, set, tmp string, p Page) (*capture.Record, error) {
	path := filepath.Join(tmp, p.ID+".html")
	if err := Gunzip(filepath.Join(Dir(), set, "html", p.File+".gz"), path); err != nil {
		return nil, err
	}
	t, err := capture.ParseTarget([]byte(path))
	if err != nil {
		return nil, err
	}
	rec := cp.Capture(context.Background(), t)
	if rec.Error != nil {
		return nil, fmt.Errorf("capturing %s: %s", p.ID, rec.Error.Message)
	}
	return &rec, nil
}

// RawPage returns the page's served bytes, undecoded.
func RawPage(set string, p Page) ([]byte, error) {
	return ReadGzip(filepath.Join(Dir(), set, "html", p.File+".gz"))
}

// SieveText is sieve's text mode over one captured page: normalize, build
// the graph, render the content blocks as text.
func SieveText(rec *capture.Record) (string, error) {
	n, err := normalize.Normalize(rec)
	if err != nil {
		return "", err
	}
	return string(render.Text(graph.Build(n))), nil
}

// Score is a corpus score: precision, recall and F1.
type Score struct {
	Precision, Recall, F1 float64
}

// ShingleCounts are one page's 4-gram shingle overlap, normalised so that
// tp+fp+fn = 1 (every page weighs the same), as score.py counts them.
type ShingleCounts struct{ TP, FP, FN float64 }

// Shingles scores a prediction against the true body with word 4-gram
// multisets, the scrapinghub benchmark's metric (score.py's body mode).
func Shingles(truth, pred string) ShingleCounts {
	ts, ps := shingles(words(truth), 4), shingles(words(pred), 4)
	var tp, fp, fn int
	for k, n := range ps {
		m := ts[k]
		tp += min(n, m)
		fp += max(n-m, 0)
	}
	for k, m := range ts {
		fn += max(m-ps[k], 0)
	}
	total := float64(tp + fp + fn)
	if total == 0 {
		return ShingleCounts{}
	}
	return ShingleCounts{float64(tp) / total, float64(fp) / total, float64(fn) / total}
}

// BodyScore averages precision and recall over pages (macro) and takes F1
// of the averages, as score.py does.
func BodyScore(rows []ShingleCounts) Score {
	var ps, rs []float64
	for _, c := range rows {
		if c.TP+c.FP > 0 {
			ps = append(ps, ratio(c.TP, c.FP, c))
		}
		if c.TP+c.FN > 0 {
			rs = append(rs, ratio(c.TP, c.FN, c))
		}
	}
	p, r := mean(ps), mean(rs)
	s := Score{Precision: p, Recall: r}
	if p+r > 0 {
		s.F1 = 2 * p * r / (p + r)
	}
	return s
}

func ratio(tp, miss float64, c ShingleCounts) float64 {
	if c.FP == 0 && c.FN == 0 {
		return 1
	}
	return tp / (tp + miss)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// SnippetCounts are one page's snippet hits: with-snippets found (TP) and
// missed (FN), without-snippets found (FP).
type SnippetCounts struct{ TP, FP, FN int }

// Snippets checks the trafilatura-eval snippets against a prediction
// (white space normalised substring match, score.py's snippet mode).
func Snippets(p Page, pred string) SnippetCounts {
	out := normWS(pred)
	var c SnippetCounts
	for _, s := range p.With {
		if strings.Contains(out, normWS(s)) {
			c.TP++
		} else {
			c.FN++
		}
	}
	for _, s := range p.Without {
		if strings.Contains(out, normWS(s)) {
			c.FP++
		}
	}
	return c
}

// SnippetScore sums the counts over the corpus (micro average).
func SnippetScore(rows []SnippetCounts) Score {
	var tp, fp, fn int
	for _, c := range rows {
		tp, fp, fn = tp+c.TP, fp+c.FP, fn+c.FN
	}
	var s Score
	if tp+fp > 0 {
		s.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		s.Recall = float64(tp) / float64(tp+fn)
	}
	if tp > 0 {
		s.F1 = 2 * float64(tp) / float64(2*tp+fp+fn)
	}
	return s
}

var invisible = strings.NewReplacer("\u00ad", "", "\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "")

func normWS(s string) string {
	return strings.Join(strings.Fields(invisible.Replace(s)), " ")
}

func words(s string) []string {
	return strings.FieldsFunc(invisible.Replace(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_')
	})
}

func shingles(ws []string, n int) map[string]int {
	m := map[string]int{}
	if len(ws) == 0 {
		return m
	}
	if len(ws) < n {
		m[strings.Join(ws, "\x00")]++
		return m
	}
	for i := 0; i+n <= len(ws); i++ {
		m[strings.Join(ws[i:i+n], "\x00")]++
	}
	return m
}
