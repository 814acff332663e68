package render

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/graph"
)

// TestContentMarkdownGolden: `--format markdown` of every golden input,
// without and with the header.
func TestContentMarkdownGolden(t *testing.T) {
	for name, path := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			rec := loadRecord(t, path)
			compareGolden(t, filepath.Join("testdata", "golden-content", name+".md"), ContentMarkdown(rec, false))
			compareGolden(t, filepath.Join("testdata", "golden-content", name+".header.md"), ContentMarkdown(rec, true))
		})
	}
}

func TestContentMarkdownLinks(t *testing.T) {
	rec := &graph.Record{Title: "T", Outcome: graph.Outcome{Status: graph.StatusOK},
		Blocks: []graph.Block{
			{ID: "b_000", Type: graph.TypeParagraph, Role: "content", Text: "See the docs and the *spec*; also docs again.\nSecond line with code."},
			{ID: "b_001", Type: graph.TypeListItem, Role: "content", Level: 1, Text: "1. item link"},
			{ID: "b_002", Type: graph.TypeParagraph, Role: "content", Text: "A bad one and a missing one."},
		},
		Links: []graph.Link{
			{Text: "docs", Href: "https://example.com/docs", BlockID: "b_000", Role: "content"},
			{Text: "*spec*", Href: "https://example.com/a_(b)", BlockID: "b_000", Role: "content"},
			{Text: "code", Href: "http://example.com/code", BlockID: "b_000", Role: "content"},
			{Text: "item link", Href: "https://example.com/i", BlockID: "b_001", Role: "content"},
			{Text: "bad one", Href: "javascript:alert(1)", BlockID: "b_002", Role: "content"},
			{Text: "nowhere", Href: "https://example.com/n", BlockID: "b_002", Role: "content"},
			{Text: "missing one", Href: "https://example.com/m", BlockID: "b_002", Role: "chrome"},
		},
	}
	got := string(ContentMarkdown(rec, false))
	want := "# T\n\n" +
		"See the [docs](https://example.com/docs) and the [\\*spec\\*](https://example.com/a_%28b%29); also docs again.\n" +
		"Second line with [code](http://example.com/code).\n\n" +
		"- 1\\. [item link](https://example.com/i)\n\n" +
		"A bad one and a missing one.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "javascript") {
		t.Error("a javascript: link was written")
	}
}
