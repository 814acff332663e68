package normalize

import (
	"strings"
	"unicode"
)

// pdfLeaderRows is how many consecutive leader lines make a table of
// contents read as a table.
const pdfLeaderRows = 3

// leaderTables finds tables of contents in a run of lines: at least
// pdfLeaderRows consecutive lines of an entry, a dot leader and a page
// number ("Notices . . . . . vii"), read as a two-column table (the entry
// with its leader, the page), as the page shows it: joined into one
// paragraph the entries and page numbers run together. It returns the run
// as blocks: tables and runs of other lines.
func leaderTables(lines []*pdfLine) []pdfBlock {
	return splitRuns(lines, func(i int) (pdfBlock, int) {
		j := i
		for j < len(lines) && leaderLine(lines[j]) {
			j++
		}
		if j-i < pdfLeaderRows {
			return pdfBlock{}, i
		}
		t := &pdfTable{}
		for _, l := range lines[i:j] {
			n := len(l.words) - 1
			entry := &pdfCell{rowspan: 1, colspan: 1, words: l.words[:n]}
			page := &pdfCell{box: l.words[n].box, rowspan: 1, colspan: 1, words: l.words[n:]}
			for _, w := range entry.words {
				entry.box = union(entry.box, w.box)
			}
			t.rows = append(t.rows, []*pdfCell{entry, page})
			t.words = append(t.words, l.words...)
			t.box = union(t.box, l.box)
		}
		return pdfBlock{table: t}, j
	})
}

// leaderLine reports whether a line is an entry, a dot leader (three or
// more dots, spaced or not, at its end) and a page number (digits or a
// lower-case roman numeral), all its words showing.
func leaderLine(l *pdfLine) bool {
	n := len(l.words)
	if n < 3 {
		return false
	}
	for _, w := range l.words {
		if !w.visible() {
			return false
		}
	}
	page := l.words[n-1].text
	if !(strings.Trim(page, "0123456789") == "" || roman(page)) {
		return false
	}
	dots := 0
	for k := n - 2; k >= 0 && dots < 3; k-- {
		t := l.words[k].text
		trail := len(t) - len(strings.TrimRight(t, "."))
		dots += trail
		if trail < len(t) {
			break // the entry's last word, ending in part of the leader
		}
	}
	for _, w := range l.words[:n-1] {
		if strings.ContainsFunc(w.text, unicode.IsLetter) {
			return dots >= 3
		}
	}
	return false
}
