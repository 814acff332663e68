package mcp

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// maxToolsList is what tools/list may weigh (issue 26): an agent pays for
// it in every conversation, so the descriptions and schemas say what a
// tool does and takes without repeating the documentation.
const maxToolsList = 8 << 10

// TestToolsListForAgents: tools/list is under maxToolsList in all, and
// cites no document an agent cannot open (SPEC.md §…, ARTIFACT.md).
func TestToolsListForAgents(t *testing.T) {
	s := connect(t, Options{Capture: capture.DefaultOptions()})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res.Tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		one, _ := json.Marshal(tool)
		t.Logf("%-20s %5d bytes", tool.Name, len(one))
	}
	if len(b) > maxToolsList {
		t.Errorf("tools/list is %d bytes, want at most %d", len(b), maxToolsList)
	}
	if m := regexp.MustCompile(`[A-Z]+\.md|§`).FindString(string(b)); m != "" {
		t.Errorf("tools/list cites %q, a document the agent cannot open", m)
	}
}

// TestSearchAnyWordOrPhrase: search finds blocks with any of the words,
// those with more of them first; a quoted phrase is one term; nothing
// found says what to try.
func TestSearchAnyWordOrPhrase(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	d := s.distill(t, f.base+"/docs.html")
	var all, one searchOutput
	s.call(t, "search", map[string]any{"artifact": d.Artifact, "query": "single binary"}, &all)
	s.call(t, "search", map[string]any{"artifact": d.Artifact, "query": "binary"}, &one)
	if all.Total < one.Total || all.Total == 0 {
		t.Fatalf("any word: %d matches for two words, %d for one of them", all.Total, one.Total)
	}
	if !strings.Contains(strings.ToLower(all.Matches[0].Text), "single binary") {
		t.Errorf("the block with both words should come first: %q", all.Matches[0].Text)
	}
	var phrase searchOutput
	s.call(t, "search", map[string]any{"artifact": d.Artifact, "query": `"binary single"`}, &phrase)
	if phrase.Total != 0 {
		t.Errorf("a phrase matches as written only: %+v", phrase.Matches)
	}
	text, _ := s.call(t, "search", map[string]any{"artifact": d.Artifact, "query": "zzzqqq xxyyzz"}, nil)
	if !strings.Contains(text, "Nothing matched: try") {
		t.Errorf("no hint when nothing matched: %q", text)
	}
}

// TestDistillForAgents: the structured result leaves out the provenance
// (library versions) unless asked for; a refused address and an
// unreadable URL are said to the agent, naming no flag it could set and
// no raw record.
func TestDistillForAgents(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	plain := s.wholeResult(t, "distill", map[string]any{"url": f.base + "/docs.html"})
	if strings.Contains(plain, `"libraries"`) || strings.Contains(plain, `"provenance"`) {
		t.Errorf("provenance in the default result: %.300s", plain)
	}
	full := s.wholeResult(t, "distill", map[string]any{"url": f.base + "/docs.html", "provenance": true})
	if !strings.Contains(full, `"libraries"`) {
		t.Errorf("provenance: true gave no provenance")
	}
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	strict := connect(t, Options{Capture: o})
	text, _ := strict.call(t, "distill", map[string]any{"url": "http://127.0.0.1:1/"}, nil)
	if strings.Contains(text, "(--allow-private or --allow-addr allows it)") || !strings.Contains(text, "its operator starts it with --allow-private") {
		t.Errorf("the refused address is not said to the agent: %q", text)
	}
	text, isErr := s.call(t, "distill", map[string]any{"url": "ftp://example.com/"}, nil)
	if !isErr || strings.Contains(text, `{"record"`) || !strings.Contains(text, "could not read ftp://example.com/: unsupported URL scheme") {
		t.Errorf("ftp:// URL: %q", text)
	}
}
