// Command quality runs sieve's text mode and its Markdown (sieve-markdown:
// `sieve distill --format markdown` without the title line, its syntax
// stripped as TestQualityMarkdown strips it), and optionally the Go peers,
// over the shared main-content evaluation sets and writes one <id>.txt per
// page and system for ../shared/bench/score.py. It lives in its own module so
// that the peers never enter sieve's dependencies. scripts/bench-quality.sh
// runs it and scores the output; see `make bench-quality`.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// allSets are the five main-content evaluation sets of ../shared/bench: the
// two the rules were first tuned on and three they were never tuned on.
var allSets = []string{bench.SetScrapinghub, bench.SetTrafilatura, "cleaneval-dev", "cleanportaleval", "readability-tests"}

// extractor turns one captured page into its main-content text. A
// markdown extractor returns the page's Markdown: it is written as <id>.md
// (for shared/bench/structure.py) and, syntax stripped, as <id>.txt.
type extractor struct {
	name     string
	run      func(p bench.Page, rec *capture.Record) (string, error)
	markdown bool
}

func main() {
	out := flag.String("out", ".bench/quality", "write DIR/<set>/<system>/<id>.txt")
	sets := flag.String("sets", strings.Join(allSets, ","), "comma-separated evaluation sets")
	peers := flag.Bool("peers", false, "also run the Go peers (go-readability v2, go-trafilatura)")
	only := flag.String("systems", "", "comma-separated systems to run (default: all)")
	flag.StringVar(&captureCache, "captures", "", "keep capture records in DIR/<set>/<id>.json and reuse them (rendered pages vary from run to run)")
	flag.Parse()
	systems := []extractor{
		{"sieve", func(_ bench.Page, rec *capture.Record) (string, error) { return bench.SieveText(rec) }, false},
		{"sieve-markdown", func(_ bench.Page, rec *capture.Record) (string, error) { return sieveMarkdown(rec) }, true},
	}
	if *peers {
		systems = append(systems, peerExtractors()...)
	}
	systems = pick(systems, *only)
	for _, set := range strings.Split(*sets, ",") {
		if err := runSet(set, *out, systems); err != nil {
			fmt.Fprintln(os.Stderr, "quality:", err)
			os.Exit(1)
		}
	}
}

// pick keeps the systems named in the comma-separated list only, all of
// them when it is empty (a quick text-only run while tuning the rules).
func pick(systems []extractor, only string) []extractor {
	if only == "" {
		return systems
	}
	var out []extractor
	for _, s := range systems {
		for _, name := range strings.Split(only, ",") {
			if s.name == name {
				out = append(out, s)
			}
		}
	}
	return out
}

// runSet captures every page once (untimed: it is I/O), then times each
// system over the whole set in one process and writes its texts.
func runSet(set, out string, systems []extractor) error {
	pages, err := bench.LoadTruth(set)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "sieve-quality-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cp := capture.New(capture.DefaultOptions())
	defer cp.Close()
	recs := make([]*capture.Record, len(pages))
	for i, p := range pages {
		if recs[i], err = capturePage(cp, set, tmp, p); err != nil {
			return err
		}
	}
	for _, sys := range systems {
		texts := make([]string, len(pages))
		failed := 0
		start := time.Now()
		for i, p := range pages {
			t, err := sys.run(p, recs[i])
			if err != nil {
				failed++
			}
			texts[i] = t
		}
		secs := time.Since(start).Seconds()
		dir := filepath.Join(out, set, sys.name)
		if err := writeTexts(dir, pages, texts, sys.markdown); err != nil {
			return err
		}
		fmt.Printf("%s\t%s\t%d pages\t%.2f s\t%.0f pages/s\t%d failed\n", set, sys.name, len(pages), secs, float64(len(pages))/secs, failed)
	}
	return nil
}

// captureCache is the -captures directory, "" for none.
var captureCache string

// capturePage captures p, or reads its record from the capture cache.
func capturePage(cp *capture.Capturer, set, tmp string, p bench.Page) (*capture.Record, error) {
	if captureCache == "" {
		return bench.CapturePage(cp, set, tmp, p)
	}
	path := filepath.Join(captureCache, set, p.ID+".json")
	if data, err := os.ReadFile(path); err == nil {
		var rec capture.Record
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &rec, nil
	}
	rec, err := bench.CapturePage(cp, set, tmp, p)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return rec, os.WriteFile(path, data, 0o644)
}

// sieveMarkdown is `sieve distill --format markdown`'s content Markdown of
// one captured page, title line included.
func sieveMarkdown(rec *capture.Record) (string, error) {
	n, err := normalize.Normalize(rec)
	if err != nil {
		return "", err
	}
	return string(render.ContentMarkdown(graph.Build(n), false)), nil
}

func writeTexts(dir string, pages []bench.Page, texts []string, markdown bool) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, p := range pages {
		t := texts[i]
		if markdown {
			if err := os.WriteFile(filepath.Join(dir, p.ID+".md"), []byte(t), 0o644); err != nil {
				return err
			}
			_, body, _ := strings.Cut(t, "\n\n") // after the "# title" line, as bench.MarkdownScored
			t = bench.StripMarkdown(body)
		}
		if err := os.WriteFile(filepath.Join(dir, p.ID+".txt"), []byte(t), 0o644); err != nil {
			return err
		}
	}
	return nil
}
