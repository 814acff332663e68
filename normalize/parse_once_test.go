package normalize_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
)

// TestNormalizeTakesTheTierParse: in one process (sieve distill) normalize
// takes the parse tree capture's tier decision built instead of parsing
// the body again, and writes the same record as from the capture line.
func TestNormalizeTakesTheTierParse(t *testing.T) {
	para := strings.Repeat("The cooperative weighed every basket twice before noon. ", 12)
	pages := map[string]string{
		"plain.html":  "<!doctype html><title>Plain</title><h1>Harvest</h1><p>" + para + "</p><ul><li>one<li>two</ul><table><tr><td>a<td>b</table>",
		"script.html": "<!doctype html><title>Scripted</title><script>var x = 1;</script><main><h2>Notes</h2><p>" + para + "</p><p hidden>not shown</p></main>",
	}
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	for name, body := range pages {
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		rec := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
		if rec.Error != nil || rec.Render != nil {
			t.Fatalf("%s: want a kept static read: error %+v, render %v, tier %q", name, rec.Error, rec.Render != nil, rec.TierReason)
		}
		line, err := codec.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var piped capture.Record
		if err := codec.Unmarshal(line, &piped); err != nil {
			t.Fatal(err)
		}
		probe := rec
		if probe.ParsedBody() == nil {
			t.Fatalf("%s: the tier decision kept no parse tree (%s)", name, rec.TierReason)
		}
		if piped.ParsedBody() != nil {
			t.Fatalf("%s: a decoded capture line carries a parse tree", name)
		}
		inProc, err := normalize.Normalize(&rec)
		if err != nil {
			t.Fatal(err)
		}
		fromLine, err := normalize.Normalize(&piped)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := codec.Marshal(inProc)
		b, _ := codec.Marshal(fromLine)
		if !bytes.Equal(a, b) || len(inProc.Nodes) < 8 {
			t.Errorf("%s: in-process and piped normalize differ (%d and %d nodes)", name, len(inProc.Nodes), len(fromLine.Nodes))
		}
		if rec.ParsedBody() != nil {
			t.Errorf("%s: the tree was not given up after normalize took it", name)
		}
	}
}

// TestParsedBodyFollowsTheBody: a body changed after the tier decision
// (the render tier replaces it) is parsed again, never read from a stale tree.
func TestParsedBodyFollowsTheBody(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.html")
	body := "<!doctype html><title>T</title><p>" + strings.Repeat("words here ", 40) + "</p>"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	rec := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
	rec.Body = "<!doctype html><title>Other</title><p>changed</p>"
	if rec.ParsedBody() != nil {
		t.Fatal("a tree of the old body was handed out for a new body")
	}
}
