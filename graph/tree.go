package graph

import (
	"strings"
	"unicode"

	"github.com/sieve-dev/sieve/normalize"
)

// tree is the node list with child lists and per-node facts the builder
// needs more than once.
type tree struct {
	nodes    []normalize.Node
	children [][]int
	hider    []int      // index of the element whose own rule hides the node, -1 when visible
	tokens   [][]string // class/id tokens per element
	roots    []int
}

func newTree(nodes []normalize.Node) *tree {
	t := &tree{
		nodes:    nodes,
		children: make([][]int, len(nodes)),
		hider:    make([]int, len(nodes)),
		tokens:   make([][]string, len(nodes)),
	}
	for i := range nodes {
		n := &nodes[i]
		p := n.Parent
		if p >= 0 && p < i {
			t.children[p] = append(t.children[p], i)
			t.hider[i] = t.hider[p]
		} else {
			t.roots = append(t.roots, i)
			t.hider[i] = -1
		}
		if n.Hidden != "" {
			t.hider[i] = i
		}
		if n.Tag != "#text" {
			t.tokens[i] = classTokens(n.Attrs["class"] + " " + n.Attrs["id"])
		}
	}
	return t
}

func (t *tree) hidden(i int) bool { return t.hider[i] >= 0 }

func (t *tree) attr(i int, k string) string { return t.nodes[i].Attrs[k] }

// textOf returns the visible text under i, inline-joined, with block
// boundaries as spaces. Hidden descendants are skipped.
func (t *tree) textOf(i int) string {
	var b strings.Builder
	t.appendText(&b, i)
	return cleanInline(b.String())
}

func (t *tree) appendText(b *strings.Builder, i int) {
	n := &t.nodes[i]
	if t.hidden(i) {
		return
	}
	if n.Tag == "#text" {
		b.WriteString(n.Text)
		return
	}
	block := !inlineTags[n.Tag]
	if block || n.Tag == "br" {
		b.WriteByte(' ')
	}
	for _, c := range t.children[i] {
		t.appendText(b, c)
	}
	if block {
		b.WriteByte(' ')
	}
}

// rawText returns all text under i, hidden or not (for latent entries).
func (t *tree) rawText(i int) string {
	var b strings.Builder
	var walk func(int)
	walk = func(j int) {
		n := &t.nodes[j]
		if n.Tag == "#text" {
			if n.Pre {
				b.WriteString(n.Text)
			} else {
				b.WriteString(n.Text)
			}
			return
		}
		block := !inlineTags[n.Tag]
		if block {
			b.WriteByte('\n')
		}
		for _, c := range t.children[j] {
			walk(c)
		}
		if block {
			b.WriteByte('\n')
		}
	}
	walk(i)
	return cleanInline(b.String())
}

// classTokens splits class and id values into lower-case words, also at
// camelCase boundaries: "siteFooter nav_main" → site footer nav main.
func classTokens(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// cleanInline collapses the spaces an inline run accumulates: runs of
// spaces become one, spaces around line breaks go, more than one blank line
// becomes one, and the ends are trimmed.
func cleanInline(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace, newlines := false, 0
	for _, r := range s {
		switch r {
		case ' ':
			pendingSpace = true
		case '\n':
			newlines++
			pendingSpace = false
		default:
			if b.Len() > 0 {
				switch {
				case newlines >= 2:
					b.WriteString("\n\n")
				case newlines == 1:
					b.WriteByte('\n')
				case pendingSpace:
					b.WriteByte(' ')
				}
			}
			b.WriteRune(r)
			pendingSpace, newlines = false, 0
		}
	}
	return b.String()
}

// inlineTags are elements that continue the current line of text. Every
// other element is a block boundary, which is the safer default for unknown
// and custom elements.
var inlineTags = map[string]bool{
	"#text": true, "a": true, "abbr": true, "b": true, "bdi": true, "bdo": true,
	"big": true, "cite": true, "code": true, "data": true, "del": true, "dfn": true,
	"em": true, "font": true, "i": true, "ins": true, "kbd": true, "label": true,
	"mark": true, "meter": true, "nobr": true, "output": true, "progress": true,
	"q": true, "rp": true, "rt": true, "ruby": true, "s": true, "samp": true,
	"small": true, "span": true, "strike": true, "strong": true, "sub": true,
	"sup": true, "time": true, "tt": true, "u": true, "var": true, "wbr": true,
	"acronym": true, "img": true, "br": true, "picture": true, "source": true,
	"input": true, "button": true, "select": true, "textarea": true, "option": true,
	"svg": true, "math": true, "map": true, "area": true,
}
