package reference

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// TestReferenceOutputs guards performance work: it runs normalize and graph
// over the benchmark pages and compares each page's normalized and graph
// JSON and its text mode output byte for byte with a reference written
// earlier. It runs only when
// $SIEVE_REF_DIR names the reference directory; SIEVE_REF_WRITE=1 writes
// the reference instead of comparing.
//
//	SIEVE_REF_DIR=/tmp/ref SIEVE_REF_WRITE=1 go test -run Reference ./bench/reference
//	SIEVE_REF_DIR=/tmp/ref go test -run Reference ./bench/reference
func TestReferenceOutputs(t *testing.T) {
	dir := os.Getenv("SIEVE_REF_DIR")
	if dir == "" {
		t.Skip("set SIEVE_REF_DIR to compare with (or, with SIEVE_REF_WRITE=1, write) reference outputs")
	}
	write := os.Getenv("SIEVE_REF_WRITE") == "1"
	if os.Getenv("SIEVE_BENCH_DIR") == "" { // bench.Dir is relative to a top-level package
		t.Setenv("SIEVE_BENCH_DIR", filepath.Join("..", "..", "..", "shared", "bench"))
	}
	for _, set := range []struct {
		name  string
		limit int
	}{{"scrapinghub", 0}, {"trafilatura-eval", 200}} {
		t.Run(set.name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(bench.Dir(), set.name)); err != nil {
				t.Skipf("benchmark pages not found in %s", bench.Dir())
			}
			// A fixed page directory keeps the captured URLs stable.
			pages := filepath.Join(dir, "pages", set.name)
			out := filepath.Join(dir, "out", set.name)
			for _, d := range []string{pages, out} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			recs, err := bench.LoadCaptures(set.name, pages, set.limit)
			if err != nil {
				t.Fatal(err)
			}
			diffs := 0
			for i, r := range recs {
				stable(r)
				for kind, got := range outputs(t, r) {
					path := filepath.Join(out, fmt.Sprintf("%04d.%s.json", i, kind))
					if write {
						if err := os.WriteFile(path, got, 0o644); err != nil {
							t.Fatal(err)
						}
						continue
					}
					want, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						diffs++
						at := firstDiff(got, want)
						t.Errorf("%s %s: output differs from %s at byte %d:\n got %q\nwant %q", r.URL, kind, path, at, around(got, at), around(want, at))
					}
				}
			}
			t.Logf("%d pages, %d differences", len(recs), diffs)
		})
	}
}

// stable clears what differs between runs of the capture: its timing.
func stable(r *capture.Record) {
	r.Timing = capture.Timing{StartedAt: "2026-01-01T00:00:00Z", Attempts: 1}
}

// outputs is the normalized and graph JSON of one page (an error's text
// when normalize refuses it).
func outputs(t *testing.T, r *capture.Record) map[string][]byte {
	n, err := normalize.Normalize(r)
	if err != nil {
		return map[string][]byte{"error": []byte(err.Error())}
	}
	nj, err := codec.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	g := graph.Build(n)
	gj, err := codec.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return map[string][]byte{"normalized": nj, "graph": gj, "text": render.Text(g)}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(b []byte, at int) []byte { return b[max(0, at-60):min(len(b), at+60)] }
