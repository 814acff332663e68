package render

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

// ContentMarkdown is the page's main content as Markdown, for `sieve
// distill --format markdown`: the title as a level-1 heading (a first
// content heading that the title holds is written as the title, once),
// then the
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
// Page text is escaped with escapeMarkdown, as in index.md: the only
// Markdown in the output is sieve's own. A link is written inline only
// when its href is http(s) and its text is found in its block's text, in
// order; any other link stays plain text.
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
	title, skip := rec.Title, -1
	if len(v.blocks) > 0 && v.blocks[0].Type == graph.TypeHeading {
		// A first heading the title holds ("Headline | Site") is the
		// title: written once, as the page shows it.
		if h := oneLine(v.blocks[0].Text); h != "" && strings.Contains(oneLine(title), h) {
			title, skip = h, 0
		}
	}
	m.para("# " + headingText(titleOr(title)))
	if header && v.summary != "" {
		m.para(escapeLines(v.summary))
	}
	links := blockLinks(rec.Links)
	var list *mdList
	for i, b := range v.blocks {
		if i == skip {
			continue // the title, already written
		}
		if b.Type == graph.TypeListItem {
			if list == nil {
				list = &mdList{}
			}
			m.WriteString(list.marker(b) + linkedText(oneLine(b.Text), mdLineStart, links[b.ID]) + "\n")
			continue
		}
		m.endList(&list)
		var s string
		switch b.Type {
		case graph.TypeForm:
			continue
		case graph.TypeParagraph:
			s = linkedLines(b.Text, links[b.ID])
		default:
			s = mdBlock(v, b)
		}
		if s != "" {
			m.para(s)
		}
	}
	m.endList(&list)
	return []byte(strings.TrimRight(m.String(), "\n") + "\n")
}

// blockLinks are the content links with an http(s) href by the block they
// sit in, in document order.
func blockLinks(all []graph.Link) map[string][]graph.Link {
	out := map[string][]graph.Link{}
	for _, l := range all {
		if l.Role == "content" && l.BlockID != "" && webURL(l.Href) && oneLine(l.Text) != "" {
			out[l.BlockID] = append(out[l.BlockID], l)
		}
	}
	return out
}

// linkedLines is a paragraph's text, line by line as escapeLines writes
// it, with its links inline.
func linkedLines(text string, links []graph.Link) string {
	links = inOrder(text, links)
	var lines []string
	for _, l := range splitLines(text) {
		l = strings.TrimRight(l, " \t")
		var s string
		s, links = linkedLine(l, mdLineStart, links)
		if s != "" {
			lines = append(lines, s)
		}
	}
	return strings.Join(lines, "\n")
}

// linkedText is one line of page text at place at with links inline.
func linkedText(s string, at mdPlace, links []graph.Link) string {
	out, _ := linkedLine(s, at, inOrder(s, links))
	return out
}

// inOrder keeps the links whose texts are found in text one after
// another, each on one line; the others stay plain text.
func inOrder(text string, links []graph.Link) []graph.Link {
	var kept []graph.Link
	for _, l := range links {
		t := oneLine(l.Text)
		if i := strings.Index(text, t); i >= 0 {
			kept = append(kept, l)
			text = text[i+len(t):]
		}
	}
	return kept
}

// linkedLine writes s with the links whose text it holds, in order, as
// Markdown links; the text between them is escaped as escapeMarkdown
// does. A link not found in s is left for a later line. It returns the
// links left.
func linkedLine(s string, at mdPlace, links []graph.Link) (string, []graph.Link) {
	if at == mdLineStart {
		s = strings.TrimLeft(s, " \t")
	}
	var b strings.Builder
	place := at
	for len(links) > 0 {
		t := oneLine(links[0].Text)
		i := strings.Index(s, t)
		if i < 0 {
			break // on a later line (inOrder kept only links found in order)
		}
		b.WriteString(escapeMarkdown(s[:i], place))
		b.WriteString("[" + inlineText(t) + "](" + destination(links[0].Href) + ")")
		s, links, place = s[i+len(t):], links[1:], mdInline
	}
	b.WriteString(escapeMarkdown(s, place))
	return b.String(), links
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
