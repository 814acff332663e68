package graph

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/sieve-dev/sieve/normalize"
)

// tree is the node list with child lists and per-node facts the builder
// needs more than once.
type tree struct {
	nodes    []normalize.Node
	children [][]int
	hider    []int      // index of the element whose own rule hides the node, -1 when visible
	tokens   [][]string // class/id tokens per element
	inline   []bool     // inlineTags[tag] per node
	roots    []int

	dropped *dropCounts // droppedText's result, once computed
	scratch []byte      // textOf's and rawText's buffer
}

// newTree indexes nodes. The child lists and token lists share one backing
// array each (capacity-limited, so an append to one cannot overwrite
// another): a page has tens of thousands of nodes, and one small
// allocation per node is what this avoids.
func newTree(nodes []normalize.Node) *tree {
	t := &tree{
		nodes:    nodes,
		children: make([][]int, len(nodes)),
		hider:    make([]int, len(nodes)),
		tokens:   make([][]string, len(nodes)),
		inline:   make([]bool, len(nodes)),
	}
	t.linkChildren()
	words := make([]string, 0, len(nodes)/2)
	for i := range nodes {
		n := &nodes[i]
		if p := n.Parent; p >= 0 && p < i {
			t.hider[i] = t.hider[p]
		} else {
			t.hider[i] = -1
		}
		if n.Hidden != "" {
			t.hider[i] = i
		}
		t.inline[i] = inlineTags[n.Tag]
		if n.Tag != "#text" {
			start := len(words)
			words = appendClassTokens(appendClassTokens(words, n.Attrs["class"]), n.Attrs["id"])
			if len(words) > start {
				t.tokens[i] = words[start:len(words):len(words)]
			}
		}
	}
	return t
}

// linkChildren fills children and roots in two passes: count, then place.
func (t *tree) linkChildren() {
	count := make([]int, len(t.nodes))
	total := 0
	for i := range t.nodes {
		if p := t.nodes[i].Parent; p >= 0 && p < i {
			count[p]++
			total++
		} else {
			t.roots = append(t.roots, i)
		}
	}
	all := make([]int, 0, total)
	for i, c := range count {
		if c > 0 {
			t.children[i] = all[len(all) : len(all) : len(all)+c]
			all = all[:len(all)+c]
		}
	}
	for i := range t.nodes {
		if p := t.nodes[i].Parent; p >= 0 && p < i {
			t.children[p] = append(t.children[p], i)
		}
	}
}

func (t *tree) hidden(i int) bool { return t.hider[i] >= 0 }

func (t *tree) attr(i int, k string) string { return t.nodes[i].Attrs[k] }

// textOf returns the visible text under i, inline-joined, with block
// boundaries as spaces. Hidden descendants are skipped.
func (t *tree) textOf(i int) string {
	t.scratch = t.appendText(t.scratch[:0], i)
	return cleanInlineBytes(t.scratch)
}

func (t *tree) appendText(b []byte, i int) []byte {
	n := &t.nodes[i]
	if t.hidden(i) {
		return b
	}
	if n.Tag == "#text" {
		return append(b, n.Text...)
	}
	block := !t.inline[i]
	if block || n.Tag == "br" {
		b = append(b, ' ')
	}
	for _, c := range t.children[i] {
		b = t.appendText(b, c)
	}
	if block {
		b = append(b, ' ')
	}
	return b
}

// rawText returns all text under i, hidden or not (for latent entries).
func (t *tree) rawText(i int) string {
	t.scratch = t.appendRaw(t.scratch[:0], i)
	return cleanInlineBytes(t.scratch)
}

func (t *tree) appendRaw(b []byte, i int) []byte {
	n := &t.nodes[i]
	if n.Tag == "#text" {
		return append(b, n.Text...)
	}
	block := !t.inline[i]
	if block {
		b = append(b, '\n')
	}
	for _, c := range t.children[i] {
		b = t.appendRaw(b, c)
	}
	if block {
		b = append(b, '\n')
	}
	return b
}

// cleanInlineBytes is cleanInline of a scratch buffer, returning a string
// that does not share the buffer's memory. cleanInline returns either its
// input unchanged or a new string.
func cleanInlineBytes(b []byte) string {
	s := cleanInline(unsafe.String(unsafe.SliceData(b), len(b)))
	if len(s) > 0 && unsafe.StringData(s) == unsafe.SliceData(b) {
		return strings.Clone(s)
	}
	return s
}

// classTokens splits class and id values into lower-case words, also at
// camelCase boundaries: "siteFooter nav_main" → site footer nav main; a
// short upper-case prefix adds the word after it: "SSpopup" → sspopup popup.
func classTokens(s string) []string { return appendClassTokens(nil, s) }

// appendClassTokens appends the words of s (classTokens) to out. Words of
// ASCII text that are lower-case already are substrings of s.
func appendClassTokens(out []string, s string) []string {
	if !isASCII(s) {
		return appendClassTokensRunes(out, s)
	}
	start, tail := -1, -1 // of the current word; of its words after a short upper-case prefix
	var prev byte
	word := func(end int) {
		out = append(out, lowerWord(s[start:end]))
		if tail > start && tail < end {
			out = append(out, s[tail:end])
		}
		start, tail = -1, -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isLowerASCII(c) || '0' <= c && c <= '9':
			if start < 0 {
				start = i
			} else if isLowerASCII(c) && 'A' <= prev && prev <= 'Z' && upperPrefix(s[start:i]) {
				tail = i
			}
		case 'A' <= c && c <= 'Z':
			if start >= 0 && isLowerASCII(prev) {
				word(i)
			}
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				word(i)
			}
		}
		prev = c
	}
	if start >= 0 {
		word(len(s))
	}
	return out
}

// upperPrefix reports whether w is a site's short upper-case namespace
// prefix ("SS" of "SSpopup", "NB" of "NBcontainer"): the lower-case word
// after it is a word of its own too.
func upperPrefix(w string) bool {
	if len(w) < 2 || len(w) > 3 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'A' || w[i] > 'Z' {
			return false
		}
	}
	return true
}

func isLowerASCII(c byte) bool { return 'a' <= c && c <= 'z' }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lowerWord lower-cases an ASCII word, returning it as is when it has no
// upper-case letter.
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		if 'A' <= w[i] && w[i] <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

// appendClassTokensRunes is appendClassTokens for any text.
func appendClassTokensRunes(out []string, s string) []string {
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
// becomes one, and the ends are trimmed. Put another way, each run of
// spaces and line breaks becomes "\n\n" when it holds two or more line
// breaks, "\n" when it holds one, " " otherwise, and runs at the ends go.
func cleanInline(s string) string {
	if s == "" {
		return s
	}
	if !utf8.ValidString(s) { // invalid bytes become U+FFFD
		return cleanInlineRunes(s)
	}
	var b []byte // nil while the output is s[:i]
	i := 0
	for i < len(s) {
		j := i
		newlines := 0
		for j < len(s) && (s[j] == ' ' || s[j] == '\n') {
			if s[j] == '\n' {
				newlines++
			}
			j++
		}
		if j == i { // a run of other bytes
			for j < len(s) && s[j] != ' ' && s[j] != '\n' {
				j++
			}
			if b != nil {
				b = append(b, s[i:j]...)
			}
			i = j
			continue
		}
		sep := " "
		switch {
		case i == 0 || j == len(s):
			sep = ""
		case newlines >= 2:
			sep = "\n\n"
		case newlines == 1:
			sep = "\n"
		}
		if b == nil && s[i:j] != sep {
			b = make([]byte, 0, len(s))
			b = append(b, s[:i]...)
		}
		if b != nil {
			b = append(b, sep...)
		}
		i = j
	}
	if b == nil {
		return s
	}
	return string(b)
}

// cleanInlineRunes is cleanInline rune by rune.
func cleanInlineRunes(s string) string {
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
