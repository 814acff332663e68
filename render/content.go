package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

// ContentMarkdown is the page's main content as Markdown, for `sieve
// distill --format markdown`: the title as a level-1 heading (a first
// content heading that the title holds is written as the title, once; a
// PDF's title line is left out when it would repeat its first heading or
// has no text, pdfUntitled), then the
// content blocks in reading order — headings, paragraphs with their links
// inline, lists, tables, code, quotes and image descriptions. It leaves out
// what index.md adds around the content (front matter, notice, section
// markers, actions, the link and navigation lists, structured data, gaps,
// the audit), and chrome, forms and latent text as index.md does.
//
// With header, the front matter, the untrusted-content notice and the
// outcome banner (when the outcome is not ok) come first, as in index.md,
// and the page's summary follows the title; without it the summary, often
// a description the page does not show, is left out.
//
// The blocks are written by the renderer index.md and the MCP tools use
// (blocksMD), forms left out: page text escaped with escapeMarkdown, inline
// code and links (the graph's inline spans) as Markdown of sieve's own.
func ContentMarkdown(rec *graph.Record, header bool) []byte {
	v := newView(rec)
	m := &mdWriter{}
	if header {
		m.frontMatter(rec)
		m.para(mdNotice(rec))
		if rec.Outcome.Status != graph.StatusOK {
			m.banner(rec.Outcome, rec.PDF != nil)
		}
	}
	v.blocks = withHeadline(rec, v.blocks)
	title, skip := rec.Title, -1
	if len(v.blocks) > 0 && v.blocks[0].Type == graph.TypeHeading {
		// A first heading the title holds ("Headline | Site") is the
		// title: written once, as the page shows it.
		if h := oneLine(v.blocks[0].Text); h != "" && strings.Contains(oneLine(title), h) {
			title, skip = h, 0
		}
	}
	if skip == 0 || !pdfUntitled(rec, title, v.blocks) {
		m.para("# " + headingText(titleOr(title)))
	}
	if header && v.summary != "" {
		m.para(escapeLines(v.summary))
	}
	m.WriteString(v.blocksMD(v.blocks, mdOpts{skip: skip + 1}))
	return []byte(strings.TrimRight(m.String(), "\n") + "\n")
}

// pdfUntitled reports whether a PDF has no title line of its own: a PDF's
// title is its first heading (graph pageTitle), written where it stands,
// and one without a heading has none; a "(no title)" placeholder or the
// first heading again would read as headings the document does not have.
func pdfUntitled(rec *graph.Record, title string, blocks []graph.Block) bool {
	if rec.PDF == nil {
		return false
	}
	if strings.TrimSpace(title) == "" {
		return true
	}
	i := slices.IndexFunc(blocks, func(b graph.Block) bool { return b.Type == graph.TypeHeading })
	return i >= 0 && oneLine(blocks[i].Text) == oneLine(title)
}

// withHeadline is the content blocks led by the page's own headline when
// the graph holds it as chrome: the <h1> (or the heading of the top level
// there is) that heads the section the content starts in and comes right
// before it, not a link and not in the page's header or navigation. A
// static read marks <header><h1>…</h1><p class="byline">…</header> as
// chrome (a box of chrome); the headline is still the article's.
func withHeadline(rec *graph.Record, content []graph.Block) []graph.Block {
	if len(content) == 0 || content[0].Type == graph.TypeHeading {
		return content
	}
	first := slices.IndexFunc(rec.Blocks, func(b graph.Block) bool { return b.ID == content[0].ID })
	for i := first - 1; i >= 0; i-- {
		b := rec.Blocks[i]
		if b.SectionID != content[0].SectionID {
			return content
		}
		if b.Type != graph.TypeHeading {
			continue
		}
		if b.Level != 1 || b.Chrome == "header" || b.Chrome == "navigation" || linked(rec, b) {
			return content
		}
		return append([]graph.Block{b}, content...)
	}
	return content
}

// linked reports whether block b's text is a link.
func linked(rec *graph.Record, b graph.Block) bool {
	for _, l := range rec.Links {
		if l.BlockID == b.ID {
			return true
		}
	}
	return false
}

// ContentJSON is content.json on one line (the content graph: every
// field of the graph record but "record"), for `sieve distill --format
// json`: one line per target.
func ContentJSON(rec *graph.Record) ([]byte, error) {
	b, err := codec.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	return contentObject(topFields(b)), nil
}
