package pdf

import (
	"slices"
	"strings"
	"testing"
)

// glyphs lays out text as 10 pt glyphs 6 pt wide from x on one baseline
// (a space char advances without a glyph; real says whether it is a
// space of the page's text or one PDFium generated).
func glyphs(text string, x float64, real bool) []Char {
	var out []Char
	for _, r := range text {
		if r == ' ' {
			out = append(out, Char{Rune: ' ', Generated: !real, Style: plain})
			x += 3
			continue
		}
		out = append(out, Char{Rune: r, FontSize: 10, Box: Box{x, 100, x + 5, 108}, Style: plain})
		x += 6
	}
	return out
}

func lineText(l Line) string {
	var ws []string
	for _, w := range l.Words {
		ws = append(ws, w.Text)
	}
	return strings.Join(ws, " ")
}

// TestLinesPiecesOutOfOrder: a line drawn in two text objects listed out
// of order (the second half first) reads in baseline order, with a word
// space at the cut; a word drawn twice in place keeps PDFium's order (the
// reader drops the copy) instead of interleaving its letters; right-to-left
// letters, which step back by design, are left as PDFium lists them.
func TestLinesPiecesOutOfOrder(t *testing.T) {
	first := glyphs("far from", 10, true)
	second := glyphs("The movie", 70, true) // starts past "far from" (8 glyphs and a space)
	p := Page{Chars: append(second, first...)}
	// "The movie" is drawn right of "far from": baseline order puts it second
	if got := lineText(p.Lines()[0]); got != "far from The movie" {
		t.Errorf("pieces: %q, want %q", got, "far from The movie")
	}
	twice := append(glyphs("Bold", 10, true), glyphs("Bold", 10.3, true)...)
	if got := lineText(Page{Chars: twice}.Lines()[0]); got != "Bold Bold" && got != "BoldBold" {
		t.Errorf("overprint: %q, want the two copies whole", got)
	}
	rtl := []Char{
		{Rune: 'ب', FontSize: 10, Box: Box{30, 100, 35, 108}, Style: plain},
		{Rune: 'ا', FontSize: 10, Box: Box{20, 100, 25, 108}, Style: plain},
		{Rune: 'ب', FontSize: 10, Box: Box{10, 100, 15, 108}, Style: plain},
	}
	if got := lineText(Page{Chars: rtl}.Lines()[0]); got != "باب" {
		t.Errorf("right to left: %q, want PDFium's order", got)
	}
}

// TestLinesSpaced: a word after a space character of the page's text is
// Spaced, however tight the gap; after a generated space, a style change
// or at a line's start it is not.
func TestLinesSpaced(t *testing.T) {
	chars := glyphs("of", 10, true)
	chars = append(chars, Char{Rune: ' ', Style: plain})
	chars = append(chars, glyphs("the", 22.5, true)...) // 0.15 em after "of"
	chars = append(chars, Char{Rune: ' ', Generated: true})
	chars = append(chars, glyphs("word", 45, true)...)
	words := Page{Chars: chars}.Lines()[0].Words
	if len(words) != 3 {
		t.Fatalf("words %+v", words)
	}
	for i, want := range []bool{false, true, false} {
		if words[i].Spaced != want {
			t.Errorf("%q Spaced %v, want %v", words[i].Text, words[i].Spaced, want)
		}
	}
}

// TestLinesMirrored: a line of mirror writing (each glyph drawn left of
// the one before, listed in text order) reads in text order, and a space
// character of the text at a cut between pieces listed out of order
// stays a word space however narrow; TextMirrored says so of the page.
func TestLinesMirrored(t *testing.T) {
	var chars []Char
	x := 200.0
	for _, r := range "way of life" {
		if r == ' ' {
			chars = append(chars, Char{Rune: ' ', Style: plain})
			x += 0.5 // a narrow space: under wordGap between the glyph boxes
			continue
		}
		chars = append(chars, Char{Rune: r, FontSize: 10, Box: Box{x - 5, 100, x, 108}, Style: plain})
		x -= 6
	}
	// PDFium lists the second half first: "of life" then "way "
	p := Page{Chars: append(slices.Clone(chars[3:]), chars[:4]...)}
	if got := lineText(p.Lines()[0]); got != "way of life" {
		t.Errorf("mirrored: %q, want %q", got, "way of life")
	}
	if !p.TextMirrored() {
		t.Error("page not TextMirrored")
	}
	if (Page{Chars: glyphs("way of life", 10, true)}).TextMirrored() {
		t.Error("upright line TextMirrored")
	}
}
