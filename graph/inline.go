package graph

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// rawInline is an inline span while its text run is open: Start and End
// are byte offsets into the run's buffer.
type rawInline struct {
	Inline
	run int // the run it was opened in (builder.runs)
}

// walkCode walks an inline <code> and marks its text as a code span.
func (b *builder) walkCode(i int) {
	start, run := b.buf.Len(), b.runs
	b.children(i)
	b.addInline(InlineCode, start, run, "")
}

// addInline records the span from start to the end of the open run, when
// the run is still the one it started in and the span holds text.
func (b *builder) addInline(kind string, start, run int, href string) {
	if run != b.runs || b.buf.Len() <= start {
		return
	}
	b.inline = append(b.inline, rawInline{Inline{Kind: kind, Start: start, End: b.buf.Len(), Href: href}, run})
}

// placeInline moves the spans of a flushed run onto its blocks, first,
// first+1, …, one per part of the cleaned text (cleanInline(raw)).
func (b *builder) placeInline(raw string, parts []string, first int, spans []rawInline) {
	if len(spans) == 0 || !utf8.ValidString(raw) {
		return
	}
	pos := cleanPositions(raw)
	starts := make([]int, len(parts))
	for k := 1; k < len(parts); k++ {
		starts[k] = starts[k-1] + len(parts[k-1]) + len("\n\n")
	}
	for _, sp := range spans {
		s, e := mapStart(pos, sp.Start), mapEnd(pos, sp.End)
		if s < 0 || e <= s {
			continue
		}
		k := 0
		for k+1 < len(starts) && starts[k+1] <= s {
			k++
		}
		if e > starts[k]+len(parts[k]) || first+k >= len(b.blocks) {
			continue // across a paragraph break, or past the block budget
		}
		in := sp.Inline
		in.Start, in.End = s-starts[k], e-starts[k]
		blk := b.blocks[first+k].Block
		blk.Inline = append(blk.Inline, in)
	}
	for k := range parts {
		if first+k < len(b.blocks) {
			sortInline(b.blocks[first+k].Inline)
		}
	}
}

// sortInline orders spans by start, an enclosing span before what it holds.
func sortInline(in []Inline) {
	slices.SortStableFunc(in, func(x, y Inline) int {
		if x.Start != y.Start {
			return x.Start - y.Start
		}
		return y.End - x.End
	})
}

// cleanPositions maps each byte of raw to its offset in cleanInline(raw),
// -1 for the spaces and line breaks cleanInline collapses (raw is valid
// UTF-8, as cleanInline then works byte by byte).
func cleanPositions(raw string) []int {
	pos := make([]int, len(raw))
	n := 0
	for i := 0; i < len(raw); {
		j, newlines := i, 0
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\n') {
			if raw[j] == '\n' {
				newlines++
			}
			pos[j] = -1
			j++
		}
		if j == i {
			pos[i] = n
			n, i = n+1, i+1
			continue
		}
		switch {
		case i == 0 || j == len(raw):
		case newlines >= 2:
			n += 2
		default:
			n++
		}
		i = j
	}
	return pos
}

// mapStart is the cleaned offset of the first kept byte at or after raw
// offset off, -1 when there is none.
func mapStart(pos []int, off int) int {
	for i := off; i < len(pos); i++ {
		if pos[i] >= 0 {
			return pos[i]
		}
	}
	return -1
}

// mapEnd is the cleaned offset just after the last kept byte before raw
// offset off, -1 when there is none.
func mapEnd(pos []int, off int) int {
	for i := min(off, len(pos)) - 1; i >= 0; i-- {
		if pos[i] >= 0 {
			return pos[i] + 1
		}
	}
	return -1
}

// cellText is a table cell's text: its words, or when it has none, the
// descriptions of the images it shows (a platform matrix's "yes").
func (b *builder) cellText(c int) string {
	if s := b.t.textOf(c); s != "" {
		return s
	}
	var alts []string
	b.eachVisible(c, func(j int) {
		if b.t.nodes[j].Tag == "img" {
			if alt := strings.TrimSpace(b.t.nodes[j].Attrs["alt"]); alt != "" {
				alts = append(alts, alt)
			}
		}
	})
	return cleanInline(strings.Join(alts, " "))
}

// cellInline finds the cell's code spans and links in its text, in order.
func (b *builder) cellInline(c int, text string) []Inline {
	var out []Inline
	at := 0
	b.eachVisible(c, func(j int) {
		n := &b.t.nodes[j]
		kind, href := "", ""
		switch {
		case n.Tag == "code":
			kind = InlineCode
		case n.Tag == "a" && linkHref(n.Attrs["href"]):
			kind, href = InlineLink, n.Attrs["href"]
		default:
			return
		}
		s := firstNonEmpty(b.t.textOf(j), b.imgAlt(j))
		if s == "" {
			return
		}
		i := strings.Index(text[at:], s)
		if i < 0 {
			return
		}
		out = append(out, Inline{Kind: kind, Start: at + i, End: at + i + len(s), Href: href})
		if kind == InlineLink {
			at += i // a code span may follow inside the link
		} else {
			at += i + len(s)
		}
	})
	sortInline(out)
	return out
}

// eachVisible calls f on element c and every element under it that is not
// hidden, in document order.
func (b *builder) eachVisible(c int, f func(int)) {
	if b.t.hidden(c) {
		return
	}
	f(c)
	for _, k := range b.t.children[c] {
		if b.t.nodes[k].Tag != "#text" {
			b.eachVisible(k, f)
		}
	}
}

// linkHref reports whether an href makes a link: not empty, not javascript:.
func linkHref(href string) bool {
	return href != "" && !strings.HasPrefix(strings.ToLower(href), "javascript:")
}
