package pdf

import "testing"

// TestLinesCommaBelowBaseline: a comma's tight glyph box hangs below the
// baseline and overlaps the "a" before it by less than half its own
// height; it stays on the line (boxes of code_and_formula's listing).
func TestLinesCommaBelowBaseline(t *testing.T) {
	ch := func(r rune, x0, y0, x1, y1 float64) Char {
		return Char{Rune: r, FontSize: 9, Box: Box{x0, y0, x1, y1}, Style: plain}
	}
	p := Page{Chars: []Char{
		ch('(', 203.56, 365.66, 205.94, 372.61),
		ch('a', 207.99, 367.94, 212.22, 371.91),
		ch(',', 214.92, 370.74, 216.43, 373.12),
		{Rune: ' ', Generated: true},
		ch('b', 224.69, 366.4, 229.01, 371.91),
		{Rune: '\r', Generated: true},
		ch('r', 157.41, 377.87, 161, 382.5), // the next line, an em below
	}}
	lines := p.Lines()
	if len(lines) != 2 || len(lines[0].Words) != 2 || lines[0].Words[0].Text != "(a," {
		t.Fatalf("lines %+v, want [(a, b] [r]", lines)
	}
	// without a line break between them, glyphs an em apart are two lines
	p.Chars = append(p.Chars[:5], p.Chars[6])
	if lines := p.Lines(); len(lines) != 2 {
		t.Errorf("lines %+v, want two", lines)
	}
}
