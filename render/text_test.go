package render

import (
	"testing"

	"github.com/sieve-dev/sieve/graph"
)

func TestTextContentBlocksOnly(t *testing.T) {
	rec := &graph.Record{Blocks: []graph.Block{
		{Type: graph.TypeParagraph, Role: "chrome", Text: "Home About"},
		{Type: graph.TypeHeading, Level: 1, Role: "content", Text: "Title"},
		{Type: graph.TypeParagraph, Role: "content", Text: "  First line\nsecond line "},
		{Type: graph.TypeTable, Role: "content", Text: "a | b", Rows: [][]graph.Cell{
			{{Text: "a", Header: true}, {Text: "b\n c", Header: true}}, {{Text: "1"}, {Text: ""}},
		}},
		{Type: graph.TypeCode, Role: "content", Text: "  x := 1\n  y := 2\n"},
		{Type: graph.TypeForm, Role: "content", Text: "Form: q (text)"},
	}}
	got := string(Text(rec))
	want := "Title\nFirst line\nsecond line\na | b c\n1\n  x := 1\n  y := 2\n"
	if got != want {
		t.Fatalf("Text:\n%q\nwant\n%q", got, want)
	}
}

func TestTextFormat(t *testing.T) {
	for v, want := range map[string]bool{"": false, "artifact": false, "text": true} {
		if got, err := TextFormat(v); err != nil || got != want {
			t.Errorf("TextFormat(%q) = %v, %v", v, got, err)
		}
	}
	if _, err := TextFormat("md"); err == nil {
		t.Error("TextFormat(md) accepted")
	}
}
