package pdf

import (
	"math"
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
func (p Page) Lines() []Line {
	g := grouper{vertical: p.Rotation == 90 || p.Rotation == 270}
	for _, c := range p.Chars {
		g.add(c)
	}
	g.endLine()
	return g.lines
}

type grouper struct {
	vertical bool // lines run top to bottom on the displayed page
	lines    []Line
	line     Line
	word     strings.Builder
	wbox     Box
	wsize    float64
	wstyle   Style
	last     Box // the previous character's box in this word
}

func (g *grouper) add(c Char) {
	switch r := c.Rune; {
	case r == '\r' || r == '\n':
		g.endLine()
		return
	case unicode.IsSpace(r):
		g.endWord()
		return
	case r == 0x02 || r == 0xfffe:
		c.Rune = '-'
	case unicode.IsControl(r) || r == 0 || r == unicode.ReplacementChar && c.Box == (Box{}):
		return
	}
	if g.word.Len() > 0 && c.Box != (Box{}) {
		if !g.sameLine(c.Box) {
			g.endLine()
		} else if g.gap(c.Box) > c.FontSize/2 {
			g.endWord()
		}
	}
	if g.word.Len() > 0 && c.Style != g.wstyle {
		g.endWord()
	}
	if g.word.Len() == 0 {
		g.wstyle = c.Style
	}
	g.word.WriteRune(c.Rune)
	g.wbox = g.wbox.Union(c.Box)
	g.wsize = math.Max(g.wsize, c.FontSize)
	if c.Box != (Box{}) {
		g.last = c.Box
	}
}

// sameLine reports whether b overlaps the previous character across the
// line direction by at least half the smaller extent.
func (g *grouper) sameLine(b Box) bool {
	lo0, hi0, lo1, hi1 := g.last.Y0, g.last.Y1, b.Y0, b.Y1
	if g.vertical {
		lo0, hi0, lo1, hi1 = g.last.X0, g.last.X1, b.X0, b.X1
	}
	overlap := math.Min(hi0, hi1) - math.Max(lo0, lo1)
	return overlap >= math.Min(hi0-lo0, hi1-lo1)/2
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
		g.line.Words = append(g.line.Words, Word{Text: g.word.String(), FontSize: g.wsize, Box: g.wbox, Style: g.wstyle})
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
	g.line = Line{}
}
