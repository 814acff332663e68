package bench

import (
	"regexp"
	"strings"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// SieveMarkdown is `sieve distill --format markdown` over one captured
// page, as MarkdownScored scores it.
func SieveMarkdown(rec *capture.Record) (string, error) {
	n, err := normalize.Normalize(rec)
	if err != nil {
		return "", err
	}
	return MarkdownScored(graph.Build(n)), nil
}

// MarkdownScored is what the Markdown F1 is computed on (TestQualityMarkdown,
// make bench-quality): the content Markdown without its "# title" line
// (the text mode leaves the title out too, and neither ground truth holds
// it), with its syntax stripped.
func MarkdownScored(g *graph.Record) string {
	full := string(render.ContentMarkdown(g, false))
	_, body, _ := strings.Cut(full, "\n\n") // after the "# title" line
	return StripMarkdown(body)
}

var (
	mdImage    = regexp.MustCompile(`!\[([^\]]*)\]\([^)]*\)`)
	mdLink     = regexp.MustCompile(`\[((?:[^\]\\]|\\.)*)\]\([^)]*\)`)
	mdLineMark = regexp.MustCompile(`(?m)^(\s*(#{1,6} |[-*+] |\d{1,9}[.)] |> ?)+)`)
	mdRule     = regexp.MustCompile(`(?m)^\|( --- \|)+$`)
	mdFence    = regexp.MustCompile("(?m)^(`{3,}|~{3,}).*$")
	mdEscape   = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~])`)
)

// StripMarkdown removes the Markdown syntax ContentMarkdown writes, leaving
// the words: markers, link and image syntax (keeping their text), table
// rules and pipes, fences and backslash escapes.
func StripMarkdown(s string) string {
	s = mdImage.ReplaceAllString(s, "$1")
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdRule.ReplaceAllString(s, "")
	s = mdFence.ReplaceAllString(s, "")
	s = mdLineMark.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, " | ", " ")
	s = strings.ReplaceAll(s, "| ", "")
	s = strings.ReplaceAll(s, " |", "")
	return mdEscape.ReplaceAllString(s, "$1")
}
