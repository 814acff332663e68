package render

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

// FileText is the plain-text main content an artifact directory holds when
// sieve-render runs with --format text.
const FileText = "index.txt"

// Text is the page's main content as plain text: the content blocks in
// reading order, one block per line (a line break at each block boundary),
// table rows one per line with cells separated by " | ". Chrome, latent
// text, forms and media (an image's description is not text the page
// shows) never appear; nothing is added that the page did not say
// (no Markdown syntax, no front matter), so any extraction scorer can read
// it as is. It is derived from the same graph as index.md.
func Text(rec *graph.Record) []byte {
	var b strings.Builder
	for _, bl := range rec.Blocks {
		if bl.Role != "content" || bl.Type == graph.TypeForm || bl.Type == graph.TypeMedia {
			continue
		}
		s := textBlock(bl)
		if s == "" {
			continue
		}
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func textBlock(bl graph.Block) string {
	if bl.Type == graph.TypeTable && len(bl.Rows) > 0 {
		lines := make([]string, 0, len(bl.Rows))
		for _, row := range bl.Rows {
			cells := make([]string, 0, len(row))
			for _, c := range row {
				if t := cellText(c.Text); t != "" {
					cells = append(cells, t)
				}
			}
			if len(cells) > 0 {
				lines = append(lines, strings.Join(cells, " | "))
			}
		}
		return strings.Join(lines, "\n")
	}
	if bl.Type == graph.TypeCode {
		return strings.TrimRight(bl.Text, "\n")
	}
	return strings.TrimSpace(bl.Text)
}

func cellText(s string) string { return strings.Join(strings.Fields(s), " ") }

// FormatFlag is --format for sieve-render and sieve distill.
func FormatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Value: "artifact",
		Usage: "`artifact` (the four files) or text (also index.txt, the main content as plain text)"}
}

// TextFormat reports whether a --format value asks for text.
func TextFormat(v string) (bool, error) {
	switch v {
	case "", "artifact":
		return false, nil
	case "text":
		return true, nil
	}
	return false, cliutil.Usagef("--format must be artifact or text, not %q", v)
}
