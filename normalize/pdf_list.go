package normalize

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// pdfListMin is the fewest items an untagged list has: one line that
// starts "1." or "-" is a sentence as often as a list.
const pdfListMin = 2

// enumerator matches list numbering: 1. 1) a. a) (i) (a) (1) iv.
var enumerator = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\d{1,3}[.)]|[a-zA-Z][.)]|[ivxlc]{1,6}[.)]|\((?:\d{1,3}|[a-zA-Z]|[ivxlc]{1,6})\))$`)
})

// bulletRunes start an unordered item on their own or glued to the text;
// the ASCII ones only on their own.
const bulletRunes = "•‣▪◦●■□➢►–—"

// listMarker tells whether a line starts a list item: "ul" or "ol", the
// marker word, and where the item's text starts.
func listMarker(l *pdfLine) (kind string, marker *pdfWord, textX float64) {
	var first, second *pdfWord
	for _, w := range l.words {
		if !w.visible() {
			continue
		}
		if first == nil {
			first = w
		} else {
			second = w
			break
		}
	}
	if first == nil {
		return "", nil, 0
	}
	r, n := utf8.DecodeRuneInString(first.text)
	switch {
	case first.text == "-" || first.text == "*" || n == len(first.text) && strings.ContainsRune(bulletRunes, r):
		kind = "ul"
	case strings.ContainsRune(bulletRunes, r) && r != '–' && r != '—':
		return "ul", first, first.box.X + first.box.W*float64(n)/float64(len(first.text))
	case enumerator().MatchString(first.text):
		kind = "ol"
	default:
		return "", nil, 0
	}
	if second == nil {
		return "", nil, 0 // a marker alone on its line is no item
	}
	return kind, first, second.box.X
}

// isGlued reports whether a marker word carries the item's first word.
func isGlued(m *pdfWord) bool {
	r, n := utf8.DecodeRuneInString(m.text)
	return n < len(m.text) && strings.ContainsRune(bulletRunes, r)
}

// pdfList is an untagged list: items of lines, the marker words left out.
type pdfList struct {
	ordered bool
	items   [][]*pdfLine
}

// splitLists finds lists in a run of lines: an item starts at a line with
// a marker; lines below it that start right of the marker (the hanging
// indent) with no paragraph gap continue it; the next item has the same
// kind of marker at the same x. It returns blocks in order: lists and
// runs of other lines.
func splitLists(lines []*pdfLine) []pdfBlock {
	return splitRuns(lines, func(i int) (pdfBlock, int) {
		list, next := listAt(lines, i)
		if list == nil {
			return pdfBlock{}, i
		}
		return pdfBlock{list: list}, next
	})
}

// listAt reads a list starting at line i, or returns nil.
func listAt(lines []*pdfLine, i int) (*pdfList, int) {
	kind, marker, _ := listMarker(lines[i])
	if kind == "" {
		return nil, i
	}
	markX, size := marker.box.X, max(lines[i].size, 1)
	list := &pdfList{ordered: kind == "ol"}
	j := i
	for j < len(lines) {
		k, m, tx := listMarker(lines[j])
		if k != kind || math.Abs(m.box.X-markX) > size {
			break
		}
		item := []*pdfLine{dropMarker(lines[j], m)}
		j++
		for j < len(lines) && continues(lines[j-1], lines[j], markX, tx, size) {
			item = append(item, lines[j])
			j++
		}
		list.items = append(list.items, item)
	}
	if len(list.items) < pdfListMin {
		return nil, i
	}
	return list, j
}

// continues reports whether line l continues the item whose last line is
// prev: no marker, the same size, no paragraph gap, and a start right of
// the marker within a size of the item's text.
func continues(prev, l *pdfLine, markX, textX, size float64) bool {
	if k, _, _ := listMarker(l); k != "" {
		return false
	}
	step := l.base - prev.base
	return l.size == prev.size && step > 0 && step-size <= pdfParaGap*size &&
		l.left() > markX+size/4 && math.Abs(l.left()-textX) <= size
}

// dropMarker is the line without its marker word.
func dropMarker(l *pdfLine, m *pdfWord) *pdfLine {
	words := make([]*pdfWord, 0, len(l.words))
	for _, w := range l.words {
		switch {
		case w != m:
			words = append(words, w)
		case isGlued(m):
			_, n := utf8.DecodeRuneInString(m.text)
			rest := *m
			rest.text = strings.TrimSpace(m.text[n:])
			words = append(words, &rest)
		}
	}
	return newLine(words)
}
