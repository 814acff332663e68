package render

import (
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sieve-dev/sieve/graph"
)

// Inline structure in Markdown: a block's or cell's text is written with
// its spans (graph.Inline: inline code, links) as Markdown of sieve's own,
// and everything between them escaped as escapeMarkdown does. A code span
// is fenced with a backtick run longer than any inside it (CommonMark
// 6.1); a link becomes [text](destination) when linkDest gives it one,
// otherwise its text stays plain.

// inlineMD writes text, one line with no line breaks, at place at with its
// spans (sorted by start, as the graph keeps them).
func inlineMD(text string, spans []graph.Inline, at mdPlace, dest func(string) (string, bool)) string {
	// A link with no destination is its text: dropped here, so that the
	// text around it is escaped in one piece.
	spans = slices.DeleteFunc(slices.Clone(spans), func(sp graph.Inline) bool {
		_, ok := dest(sp.Href)
		return sp.Kind == graph.InlineLink && !ok
	})
	var b strings.Builder
	place, pos := at, 0
	for i := 0; i < len(spans); i++ {
		sp := spans[i]
		if sp.Start < pos || sp.End > len(text) || sp.Start >= sp.End {
			continue // overlaps what is written, or does not fit the text
		}
		if sp.Start > pos {
			b.WriteString(escapeMarkdown(text[pos:sp.Start], place))
			place = inPlace(place, at)
		}
		switch sp.Kind {
		case graph.InlineCode:
			b.WriteString(codeSpan(text[sp.Start:sp.End], at == mdCell))
		case graph.InlineLink:
			var inner []graph.Inline
			for i+1 < len(spans) && spans[i+1].Start < sp.End {
				if i++; spans[i].Kind == graph.InlineCode && spans[i].End <= sp.End {
					s := spans[i]
					s.Start, s.End = s.Start-sp.Start, s.End-sp.Start
					inner = append(inner, s)
				}
			}
			d, _ := dest(sp.Href)
			b.WriteString("[" + inlineMD(text[sp.Start:sp.End], inner, inPlace(place, at), dest) + "](" + d + ")")
		default:
			b.WriteString(escapeMarkdown(text[sp.Start:sp.End], place))
		}
		pos, place = sp.End, inPlace(place, at)
	}
	b.WriteString(escapeMarkdown(text[pos:], place))
	return b.String()
}

// inPlace is the place for text after the start of a line: a table cell
// stays a cell ("|" is escaped everywhere in it), a heading stays a
// heading, the rest is inline.
func inPlace(place, at mdPlace) mdPlace {
	if at == mdCell || at == mdHeading {
		return at
	}
	if place == mdLineStart {
		return mdInline
	}
	return place
}

// codeSpan writes s as a CommonMark code span: a backtick run that matches
// no run inside s, and a space inside each end when s starts or ends with
// a backtick or has a space at both ends (which the reader strips once).
// In a GFM table cell a "|" needs its backslash even in a code span.
func codeSpan(s string, cell bool) string {
	run := 0
	counts := map[int]bool{}
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] == '`' {
			run++
			continue
		}
		if run > 0 {
			counts[run] = true
		}
		run = 0
	}
	n := 1
	for counts[n] {
		n++
	}
	fence := strings.Repeat("`", n)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || len(s) > 1 && s[0] == ' ' && s[len(s)-1] == ' ' {
		s = " " + s + " "
	}
	if cell {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return fence + s + fence
}

// mdLines is multi-line text with its spans, line by line, each escaped as
// the start of a line, blank lines dropped (escapeLines with spans). A span
// that runs across a line break is written as plain text.
func mdLines(text string, spans []graph.Inline, dest func(string) (string, bool)) []string {
	var out []string
	start := 0
	for start <= len(text) {
		end := len(text)
		if i := strings.IndexAny(text[start:], "\r\n"); i >= 0 {
			end = start + i
		}
		s, e := trimBounds(text, start, end)
		if s < e {
			out = append(out, inlineMD(text[s:e], within(spans, s, e), mdLineStart, dest))
		}
		if end == len(text) {
			break
		}
		start = end + 1
	}
	return out
}

// trimBounds narrows [s, e) of text past spaces and tabs at both ends.
func trimBounds(text string, s, e int) (int, int) {
	for s < e && (text[s] == ' ' || text[s] == '\t') {
		s++
	}
	for e > s && (text[e-1] == ' ' || text[e-1] == '\t') {
		e--
	}
	return s, e
}

// within are the spans inside [s, e), rebased to s.
func within(spans []graph.Inline, s, e int) []graph.Inline {
	var out []graph.Inline
	for _, sp := range spans {
		if sp.Start >= s && sp.End <= e {
			sp.Start, sp.End = sp.Start-s, sp.End-s
			out = append(out, sp)
		}
	}
	return out
}

// oneLineSpans is oneLine(text) with the spans moved along: every run of
// white space becomes one space, the ends are trimmed.
func oneLineSpans(text string, spans []graph.Inline) (string, []graph.Inline) {
	if len(spans) == 0 {
		return oneLine(text), nil
	}
	var b strings.Builder
	pos := make([]int, len(text)+1) // byte of text → byte of the result
	space := false
	for i, r := range text {
		w := utf8.RuneLen(r)
		if r == utf8.RuneError {
			w = 1
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			for k := range w {
				pos[i+k] = b.Len()
			}
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		for k := range w {
			pos[i+k] = b.Len() + k
		}
		b.WriteString(text[i : i+w])
	}
	pos[len(text)] = b.Len()
	out := make([]graph.Inline, 0, len(spans))
	for _, sp := range spans {
		if sp.Start < 0 || sp.End > len(text) || sp.Start >= sp.End {
			continue
		}
		s, e := pos[sp.Start], pos[sp.End]
		if e > s && b.String()[e-1] == ' ' {
			e-- // a span that ended in white space
		}
		if s < e {
			sp.Start, sp.End = s, e
			out = append(out, sp)
		}
	}
	return b.String(), out
}

// linkDest gives a link's Markdown destination: an http(s) URL as it is; a
// file: URL beside a page read from a file as a path relative to the page,
// as the page wrote it; nothing for any other scheme, nor for a place on
// the page itself ("#section"), which the Markdown has no anchor for.
func linkDest(page string) func(string) (string, bool) {
	self, _, _ := strings.Cut(page, "#")
	return func(href string) (string, bool) {
		if h, _, ok := strings.Cut(href, "#"); ok && (h == self || h == "") {
			return "", false
		}
		if webURL(href) {
			return destination(href), true
		}
		if rel := fileRelative(page, href); rel != "" {
			return destination(rel), true
		}
		return "", false
	}
}

// fileRelative is href relative to the page when both are file: URLs;
// "" otherwise.
func fileRelative(page, href string) string {
	p, err1 := url.Parse(page)
	h, err2 := url.Parse(href)
	if err1 != nil || err2 != nil || !strings.EqualFold(p.Scheme, "file") || !strings.EqualFold(h.Scheme, "file") || h.Path == "" {
		return ""
	}
	dir := path.Dir(p.Path)
	rel := relPath(dir, h.Path)
	if firstSegment(dir) != "" && firstSegment(dir) != firstSegment(h.Path) {
		// Nothing in common with the page's own folders: a root-relative
		// href ("/section/other") of a saved page, written back as the page
		// wrote it rather than climbing to the file system's root.
		rel = path.Clean(h.Path)
	}
	if strings.HasSuffix(h.Path, "/") && !strings.HasSuffix(rel, "/") {
		rel += "/"
	}
	u := url.URL{Path: rel, RawQuery: h.RawQuery, Fragment: h.Fragment}
	return u.String()
}

// firstSegment is the first folder of an absolute slash-separated path.
func firstSegment(p string) string {
	first, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return first
}

// relPath is target relative to the directory dir, both absolute
// slash-separated paths.
func relPath(dir, target string) string {
	d := strings.Split(strings.Trim(dir, "/"), "/")
	t := strings.Split(strings.Trim(path.Clean(target), "/"), "/")
	if d[0] == "" {
		d = nil
	}
	if t[0] == "" {
		t = nil
	}
	k := 0
	for k < len(d) && k < len(t) && d[k] == t[k] {
		k++
	}
	parts := make([]string, 0, len(d)-k+len(t)-k)
	for range d[k:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[k:]...)
	if len(parts) == 0 {
		return "./"
	}
	return strings.Join(parts, "/")
}
