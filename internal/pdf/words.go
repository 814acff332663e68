package pdf

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Line is a run of words on one text line, in text order.
type Line struct {
	Box   Box
	Words []Word
}

// Word is a run of characters between spaces, line breaks and gaps, or
// the part of such a run with one Style: a style change (font, weight,
// colour, render mode, marked-content id) splits a word into parts that
// touch.
type Word struct {
	Text     string
	FontSize float64 // the largest of its characters
	Box      Box
	Style    Style
	// Spaced: a space character of the page's text (not one PDFium
	// generated) comes right before it on its line. Tight glyph boxes
	// can put a real space under a fifth of an em ("of the" in Times
	// Bold, a French "traiter :"); a reader that spaces words by their
	// gap needs to know the text had one.
	Spaced bool
}

// Lines groups a page's characters into lines of words. PDFium's own
// spaces and line breaks (also the ones it generates from the glyphs'
// advance widths) split them; so do a gap of more than half the font size
// along the line and a step to another line (no overlap across it), since
// some producers (Chromium) draw one text object per glyph. The gap is
// between tight glyph boxes, so side bearings alone put up to ~0.45 em
// between two glyphs of one word ("11" in Helvetica: 0.3 em); real word
// gaps get PDFium's generated space, so only wider gaps (table cells,
// columns) need the rule. The line-end hyphen PDFium reports as
// U+0002 or U+FFFE becomes "-".
//
// A line whose glyphs PDFium lists out of their order along the baseline
// (upside-down text on a /Rotate 180 page, text matrices that run
// backwards) is read in baseline order (logicalOrder); lines run down or
// up the displayed page when their glyphs' baselines do.
func (p Page) Lines() []Line {
	g := grouper{}
	start := 0
	for i := 0; i <= len(p.Chars); i++ {
		if i < len(p.Chars) && !hardBreak(p.Chars[i].Rune) {
			continue
		}
		seg, dir := logicalOrder(p.Chars[start:i], p.Rotation)
		g.vertical = dir == 90 || dir == 270
		for _, c := range seg {
			g.add(c)
		}
		g.endLine()
		start = i + 1
	}
	return g.lines
}

// TextDir is the direction most of the page's drawn glyphs' baselines run
// on the displayed page (Char.Dir): 180 for text set upside down, 90 or
// 270 for text running down or up; 0 when it has no drawn glyphs.
func (p Page) TextDir() int {
	var votes [4]int
	for _, c := range p.Chars {
		if c.Box != (Box{}) {
			votes[c.Dir/90%4]++
		}
	}
	return 90 * slices.Index(votes[:], slices.Max(votes[:]))
}

func hardBreak(r rune) bool { return r == '\r' || r == '\n' }

// logicalOrder is a line's characters in the order their baselines run,
// and that direction: the most common Dir of its drawn glyphs (the page's
// rotation when it has none). When a glyph steps back against it by more
// than half its size (the drawn characters all on one line: each overlaps
// the one before across the baseline), the line was drawn in pieces out
// of order (text objects in another order than they read, a text matrix
// that runs backwards): inBaselineOrder puts the pieces in baseline order,
// unless the line has right-to-left letters.
func logicalOrder(chars []Char, rotation int) ([]Char, int) {
	dir := lineDir(chars, rotation)
	back := false
	var prev *Char
	for i := range chars {
		c := &chars[i]
		if c.Box == (Box{}) {
			continue
		}
		if prev != nil && !crossOverlap(prev.Box, c.Box, dir) {
			return chars, dir // it spans more than one line: leave it to the grouper
		}
		if prev != nil && along(c.Box, dir)-along(prev.Box, dir) < -c.FontSize/2 {
			back = true
		}
		prev = c
	}
	if !back || slices.ContainsFunc(chars, func(c Char) bool { return rightToLeft(c.Rune) }) {
		return chars, dir // right-to-left letters step back by design: their line is read by bidi later
	}
	if mirrored(chars, dir) {
		// Mirror writing: the glyphs advance against their own baseline,
		// so the text reads the other way along it.
		return inBaselineOrder(chars, (dir+180)%360), dir
	}
	return inBaselineOrder(chars, dir), dir
}

// mirrored reports whether a line's glyphs advance against the direction
// dir their baselines run, one glyph's width at a time: a text matrix
// that flips the glyphs (mirror writing, a page printed mirrored). Steps
// within a word on one line (the glyphs overlap across the baseline:
// not a step to another column of vertical text) are counted: a step
// back of at most one em, against one forward; words drawn out of order
// step back by more, and only between pieces. Right-to-left letters are
// excluded by the caller.
func mirrored(chars []Char, dir int) bool {
	back, fwd := 0, 0
	var prev *Char
	for i := range chars {
		c := &chars[i]
		if c.Box == (Box{}) || unicode.IsSpace(c.Rune) {
			prev = nil
			continue
		}
		if prev != nil && crossOverlap(prev.Box, c.Box, dir) {
			step := along(c.Box, dir) - along(prev.Box, dir)
			switch {
			case step < 0 && step >= -c.FontSize:
				back++
			case step > 0:
				fwd++
			}
		}
		prev = c
	}
	return back >= mirrorSteps && back > 2*fwd
}

// mirrorSteps is how many backward steps within words make a line
// mirrored: fewer is a glyph or two drawn out of place.
const mirrorSteps = 3

// TextMirrored reports whether most of the page's drawn glyphs are in
// mirrored lines (see mirrored): read in its text's frame, such a page
// runs right to left, so the layout reads it mirrored back.
func (p Page) TextMirrored() bool {
	in, all := 0, 0
	start := 0
	for i := 0; i <= len(p.Chars); i++ {
		if i < len(p.Chars) && !hardBreak(p.Chars[i].Rune) {
			continue
		}
		seg := p.Chars[start:i]
		start = i + 1
		n := 0
		for _, c := range seg {
			if c.Box != (Box{}) {
				n++
			}
		}
		all += n
		if n > 0 && !slices.ContainsFunc(seg, func(c Char) bool { return rightToLeft(c.Rune) }) && mirrored(seg, lineDir(seg, p.Rotation)) {
			in += n
		}
	}
	return all > 0 && 2*in > all
}

// lineDir is the most common Dir of a line's drawn glyphs; rotation when
// it has none.
func lineDir(chars []Char, rotation int) int {
	var votes [4]int
	for _, c := range chars {
		if c.Box != (Box{}) {
			votes[c.Dir/90%4]++
		}
	}
	if best := slices.Max(votes[:]); best > 0 {
		return 90 * slices.Index(votes[:], best)
	}
	return rotation
}

// rightToLeft reports whether r is a letter of a script written right to
// left, which PDFium lists in logical order, running against the baseline.
func rightToLeft(r rune) bool {
	return unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana, unicode.Nko)
}

// piece is a run of a line's characters that PDFium lists in baseline
// order, with the extent of its drawn glyphs along the baseline.
type piece struct {
	chars      []Char
	start, end float64
	size       float64
	drawn      bool // start and end are set
	lead, tail bool // a space character of the text was trimmed from its start, its end
}

// inBaselineOrder cuts a line where a glyph steps back by more than half
// its size and orders the pieces by where they start along dir. Pieces
// that overlap along the baseline by more than wordGap of the size are
// the same place drawn twice (a word overprinted for bold, a shadow):
// then the line is left in PDFium's order, for the reader's overprint
// rule to drop the copy rather than interleave it. Spaces at the cuts
// give way to ones put where the gap between the pieces is wordGap of
// the size or more, or where the text had a space character at the start
// of the later piece or the end of the earlier (a space set narrower
// than wordGap, between tight glyph boxes).
func inBaselineOrder(chars []Char, dir int) []Char {
	pieces := cutPieces(chars, dir)
	slices.SortStableFunc(pieces, func(a, b piece) int { return cmp.Compare(a.start, b.start) })
	for i := 1; i < len(pieces); i++ {
		if pieces[i-1].end-pieces[i].start > wordGap*max(pieces[i].size, pieces[i-1].size) {
			return chars
		}
	}
	out := make([]Char, 0, len(chars)+len(pieces))
	for i, p := range pieces {
		if i > 0 && (p.start-pieces[i-1].end >= wordGap*p.size || p.lead || pieces[i-1].tail) {
			out = append(out, Char{Rune: ' ', Generated: true})
		}
		out = append(out, p.chars...)
	}
	return out
}

// cutPieces splits a line at its backward steps; each piece is trimmed
// of the spaces at its ends.
func cutPieces(chars []Char, dir int) []piece {
	var out []piece
	cur := piece{}
	var prev *Char
	flush := func() {
		cur.lead, cur.tail = realSpace(cur.chars, 0), realSpace(cur.chars, len(cur.chars)-1)
		cur.chars = trimSpaces(cur.chars)
		if len(cur.chars) > 0 {
			out = append(out, cur)
		}
		cur = piece{}
	}
	for i := range chars {
		c := &chars[i]
		if c.Box != (Box{}) {
			if prev != nil && along(c.Box, dir)-along(prev.Box, dir) < -c.FontSize/2 {
				flush()
			}
			a, e := along(c.Box, dir), alongEnd(c.Box, dir)
			if !cur.drawn {
				cur.start, cur.end, cur.drawn = a, e, true
			}
			cur.start, cur.end = min(cur.start, a), max(cur.end, e)
			cur.size = max(cur.size, c.FontSize)
			prev = c
		}
		cur.chars = append(cur.chars, *c)
	}
	flush()
	return out
}

// realSpace reports whether cs[i] is a space character of the page's
// text (not one PDFium generated).
func realSpace(cs []Char, i int) bool {
	return i >= 0 && i < len(cs) && unicode.IsSpace(cs[i].Rune) && !cs[i].Generated
}

func trimSpaces(cs []Char) []Char {
	for len(cs) > 0 && unicode.IsSpace(cs[0].Rune) {
		cs = cs[1:]
	}
	for len(cs) > 0 && unicode.IsSpace(cs[len(cs)-1].Rune) {
		cs = cs[:len(cs)-1]
	}
	return cs
}

// crossOverlap reports whether two boxes overlap across direction dir.
func crossOverlap(a, b Box, dir int) bool {
	if dir == 90 || dir == 270 {
		return math.Min(a.X1, b.X1) > math.Max(a.X0, b.X0)
	}
	return math.Min(a.Y1, b.Y1) > math.Max(a.Y0, b.Y0)
}

// wordGap is the gap, in font sizes, between glyphs sorted into baseline
// order that reads as a word space: a space is a quarter em or more in
// most fonts, side bearings alone rarely reach a fifth.
const wordGap = 0.2

// along is where a box starts along direction dir; alongEnd where it ends.
func along(b Box, dir int) float64 {
	switch dir {
	case 90:
		return b.Y0
	case 180:
		return -b.X1
	case 270:
		return -b.Y1
	}
	return b.X0
}

func alongEnd(b Box, dir int) float64 {
	switch dir {
	case 90:
		return b.Y1
	case 180:
		return -b.X0
	case 270:
		return -b.Y0
	}
	return b.X1
}

type grouper struct {
	vertical bool // lines run top to bottom on the displayed page
	lines    []Line
	line     Line
	word     strings.Builder
	spaced   bool // a space character of the text came since the last word
	wspaced  bool // the current word's Spaced
	wbox     Box
	wsize    float64
	wstyle   Style
	last     Box // the previous character's box in this word
}

func (g *grouper) add(c Char) {
	switch r := c.Rune; {
	case unicode.IsSpace(r):
		g.endWord()
		g.spaced = g.spaced || !c.Generated
		return
	case r == 0x02 || r == 0xfffe:
		c.Rune = '-'
	case unicode.IsControl(r) || r == 0 || r == unicode.ReplacementChar && c.Box == (Box{}):
		return
	}
	if g.word.Len() > 0 && c.Box != (Box{}) {
		if !g.sameLine(c.Box, c.FontSize) {
			g.endLine()
		} else if g.gap(c.Box) > c.FontSize/2 {
			g.endWord()
		}
	}
	if g.word.Len() > 0 && c.Style != g.wstyle {
		g.endWord()
	}
	if g.word.Len() == 0 {
		g.wstyle, g.wspaced, g.spaced = c.Style, g.spaced && len(g.line.Words) > 0, false
	}
	g.word.WriteRune(c.Rune)
	g.wbox = g.wbox.Union(c.Box)
	g.wsize = math.Max(g.wsize, c.FontSize)
	if c.Box != (Box{}) {
		g.last = c.Box
	}
}

// sameLine reports whether b, a glyph of the given font size, overlaps
// the previous character across the line direction by at least half the
// smaller extent, or has its middle within half an em of the previous
// one's: a comma's tight box hangs below the baseline and barely overlaps
// an "a" ("add(a, b)"), yet the next line is a whole em or more away.
func (g *grouper) sameLine(b Box, size float64) bool {
	lo0, hi0, lo1, hi1 := g.last.Y0, g.last.Y1, b.Y0, b.Y1
	if g.vertical {
		lo0, hi0, lo1, hi1 = g.last.X0, g.last.X1, b.X0, b.X1
	}
	overlap := math.Min(hi0, hi1) - math.Max(lo0, lo1)
	if overlap >= math.Min(hi0-lo0, hi1-lo1)/2 {
		return true
	}
	return overlap > 0 && math.Abs((lo0+hi0)-(lo1+hi1))/2 < size/2
}

// gap is the distance from the previous character to b along the line.
func (g *grouper) gap(b Box) float64 {
	if g.vertical {
		return math.Max(b.Y0-g.last.Y1, g.last.Y0-b.Y1)
	}
	return math.Max(b.X0-g.last.X1, g.last.X0-b.X1)
}

func (g *grouper) endWord() {
	if g.word.Len() > 0 {
		g.line.Words = append(g.line.Words, Word{Text: g.word.String(), FontSize: g.wsize, Box: g.wbox, Style: g.wstyle, Spaced: g.wspaced})
		g.line.Box = g.line.Box.Union(g.wbox)
	}
	g.word.Reset()
	g.wbox, g.wsize, g.last = Box{}, 0, Box{}
}

func (g *grouper) endLine() {
	g.endWord()
	if len(g.line.Words) > 0 {
		g.lines = append(g.lines, g.line)
	}
	g.line, g.spaced = Line{}, false
}
