package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// The content/chrome regression floor: F1 of sieve's text mode on a fixed
// sample of each evaluation set (every 4th scrapinghub page, every 10th
// trafilatura-eval page, by id), scored as ../shared/bench/score.py does.
// The floors sit just under the level reached when the classifier was
// written; raise them when the classifier improves, never lower them to
// make a change pass.
const (
	floorScrapinghub = 0.957
	floorTrafilatura = 0.937
)

func TestQualityScrapinghub(t *testing.T) {
	pages, rs := sampleReads(t, SetScrapinghub)
	var rows []ShingleCounts
	for i, p := range pages {
		rows = append(rows, Shingles(p.Body, rs[i].text))
	}
	check(t, SetScrapinghub, len(pages), BodyScore(rows), floorScrapinghub)
}

func TestQualityTrafilatura(t *testing.T) {
	pages, rs := sampleReads(t, SetTrafilatura)
	var rows []SnippetCounts
	for i, p := range pages {
		rows = append(rows, Snippets(p, rs[i].text))
	}
	check(t, SetTrafilatura, len(pages), SnippetScore(rows), floorTrafilatura)
}

func check(t *testing.T, set string, n int, s Score, floor float64) {
	t.Helper()
	t.Logf("%s sample (%d pages): F1 %.3f (precision %.3f, recall %.3f), floor %.3f", set, n, s.F1, s.Precision, s.Recall, floor)
	if s.F1 < floor {
		t.Errorf("%s: F1 %.3f fell below the floor %.3f", set, s.F1, floor)
	}
}

// setPages returns the set's pages and its sample (every sampleStep-th
// page). Without the pages the test skips, loudly, except in CI (CI=true),
// where the pages are laid beside the clone and their absence is a failure.
func setPages(t *testing.T, set string) (all, sample []Page) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(Dir(), set, "ground_truth.json")); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("evaluation set %s not found under %s: CI must have ../shared/bench beside the clone", set, Dir())
		}
		t.Skipf("SKIPPING the %s quality regression test: %s not found (set SIEVE_BENCH_DIR)", set, filepath.Join(Dir(), set))
	}
	all, err := LoadTruth(set)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(all); i += sampleStep[set] {
		sample = append(sample, all[i])
	}
	return all, sample
}

var capturer = capture.New(capture.DefaultOptions())
