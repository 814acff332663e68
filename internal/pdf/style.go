package pdf

import (
	"math"
	"strings"
	"unicode"
)

// Style is how a character is drawn and which marked content holds it.
// Characters of one word with different styles become separate spans.
type Style struct {
	Font   string // base font name without the subset prefix ("ABCDEF+")
	Weight int    // 1–1000 when PDFium knows it; 0 when not
	Italic bool
	Color  uint32 // fill colour 0xrrggbb
	Alpha  uint8  // fill alpha; 255 is opaque
	Render int    // text render mode 0–7; 3 and 7 draw nothing visible
	MCID   int    // marked-content id; -1 when none
}

// plain is the style of a character PDFium gives no facts for.
var plain = Style{Alpha: 255, MCID: -1}

// Font descriptor flag for italic fonts (PDF 32000-1 §9.8.2).
const flagItalic = 1 << 6

// styler reads characters' styles. The facts that cost several wasm calls
// (font name and flags, fill colour, text object's render mode and
// marked-content id) are read at the first character of each word and
// again whenever the cheap per-character facts change (font size and
// weight; for fonts whose weight PDFium does not know, the font name and
// flags too; in a tagged document the text object's marked-content id and
// render mode as well) or a character does not continue the previous one
// on its line; the other characters inherit the style. go-pdfium hands out
// a new reference for the same text object on every call, so there is no
// object identity to cache on: this is the cache. A change inside a word
// that keeps those facts (a colour change mid-word) is attributed to the
// whole word part.
type styler struct {
	src    textSource
	marked bool  // the document is tagged: marked-content ids are read per character
	prev   *Char // the previous drawn character of this word; nil at a word start
	pkey   styleKey
	scale  float64 // how much the character matrix scales glyph heights, read with the style
	dir    int     // the run's baseline direction on the displayed page, read with the style
	m      matrix  // page space to display points
}

// styleKey is what is read for every character to notice a style change.
type styleKey struct {
	size   float64
	weight int
	font   fontInfo // only when weight is unknown
	obj    objFacts // only in tagged documents
}

type fontInfo struct {
	name  string
	flags int
}

// objFacts are a text object's render mode and marked-content id.
type objFacts struct {
	render, mcid int
}

// style fills c.Style for character i and scales c.FontSize to points;
// c.FontSize (the Tf size) and c.Box are set.
func (s *styler) style(i int, c *Char) {
	k := styleKey{size: c.FontSize, weight: s.weight(i)}
	var font *fontInfo
	if k.weight == 0 {
		if f, ok := s.font(i); ok {
			font, k.font = &f, f
		}
	}
	var obj *objFacts
	if s.marked {
		o := s.object(i)
		obj, k.obj = &o, o
	}
	defer func() { c.FontSize, c.Dir = round(c.FontSize*s.scale), s.dir }()
	if p := s.prev; p != nil && s.pkey == k && continues(p.Box, c.Box, c.FontSize) {
		c.Style = p.Style
		return
	}
	s.pkey = k
	s.scale = s.matrixScale(i)
	s.dir = s.direction(i)
	c.Style = s.full(i, font, obj)
	c.Style.Weight = k.weight
	if boldName(c.Style.Font) {
		c.Style.Weight = max(k.weight, 700)
	}
}

// boldName reports a font whose name says bold: PDFium estimates the
// weight from the stem width (DejaVuSerif-Bold comes out 455) or does not
// know it (the standard 14 fonts; TeX's Type 1 fonts come out 250), so
// the name sets a floor of 700. TeX names its bold fonts by prefix
// (Computer Modern CMBX10, the EC fonts SFBX1000 and ECBX1000) and
// URW's Times bold is NimbusRomNo9L-Medi.
func boldName(font string) bool {
	f := strings.ToLower(font)
	if _, after, ok := strings.Cut(f, "+"); ok {
		f = after // a subset's tag: ABCDEF+CMBX10
	}
	for _, p := range []string{"cmbx", "cmb10", "sfbx", "ecbx"} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return strings.Contains(f, "bold") || strings.Contains(f, "black") || strings.Contains(f, "heavy") ||
		strings.Contains(f, "demi") || strings.HasSuffix(f, "-medi") || strings.HasSuffix(f, "-mediital")
}

// continues reports whether b follows a on the same line within a quarter
// of the font size, in any direction (rotation does not matter here).
func continues(a, b Box, size float64) bool {
	tol := size / 4
	dx := math.Max(0, math.Max(b.X0-a.X1, a.X0-b.X1))
	dy := math.Max(0, math.Max(b.Y0-a.Y1, a.Y0-b.Y1))
	return dx <= tol && dy <= tol
}

// matrixScale is the length the character's matrix (text matrix times the
// current transformation, without the font size) gives the glyph's
// vertical unit: PDFium's font size is the Tf operand, so text drawn under
// a scaling CTM (Chromium prints at 0.75: CSS px to points) needs it to
// come out in points. 1 when PDFium does not say.
func (s *styler) matrixScale(i int) float64 {
	c, d, ok := s.src.matrixCD(i)
	if !ok {
		return 1
	}
	v := math.Hypot(float64(c), float64(d))
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	return v
}

// direction is the baseline direction of character i on the displayed
// page, to the nearest quarter turn: the character matrix's up vector
// (c, d) turned a quarter clockwise is its baseline (d, -c) in page space,
// which the display matrix maps. 0 when PDFium does not say.
func (s *styler) direction(i int) int {
	c, d, ok := s.src.matrixCD(i)
	if !ok || c == 0 && d == 0 {
		return 0
	}
	x, y := float64(d), float64(-c)
	dx, dy := s.m.a*x+s.m.c*y, s.m.b*x+s.m.d*y
	return quarter(math.Atan2(dy, dx))
}

// quarter rounds an angle in radians (display space, y down: clockwise)
// to 0, 90, 180 or 270 degrees.
func quarter(rad float64) int {
	deg := int(math.Round(rad*180/math.Pi/90)) * 90
	return (deg%360 + 360) % 360
}

func (s *styler) weight(i int) int {
	w := s.src.fontWeight(i)
	if w <= 0 {
		return 0
	}
	return min(w, 1000)
}

// font reads character i's font name and flags.
func (s *styler) font(i int) (fontInfo, bool) { return s.src.fontInfo(i) }

// full reads the expensive facts of character i (its font and object
// facts unless given); what PDFium cannot answer keeps its plain value.
func (s *styler) full(i int, font *fontInfo, obj *objFacts) Style {
	st := plain
	if font == nil {
		if f, ok := s.font(i); ok {
			font = &f
		}
	}
	if font != nil {
		st.Font = baseFont(font.name)
		st.Italic = font.flags&flagItalic != 0 || italicName(st.Font)
	}
	if r, g, b, a, ok := s.src.fillColor(i); ok {
		st.Color = (r&0xff)<<16 | (g&0xff)<<8 | b&0xff
		st.Alpha = uint8(min(a, 255))
	}
	if obj == nil {
		o := s.object(i)
		obj = &o
	}
	st.Render, st.MCID = obj.render, obj.mcid
	return st
}

// object reads the render mode and marked-content id of character i's
// text object: 0 and -1 when PDFium does not say.
func (s *styler) object(i int) objFacts { return s.src.object(i) }

// baseFont drops a subset prefix: six capital letters and a plus sign.
func baseFont(name string) string {
	if len(name) > 7 && name[6] == '+' && strings.Trim(name[:6], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		return name[7:]
	}
	return name
}

// italicName catches italic fonts whose descriptor does not say so
// (the standard 14 fonts have none): a name with Italic or Oblique.
func italicName(font string) bool {
	f := strings.ToLower(font)
	return strings.Contains(f, "italic") || strings.Contains(f, "oblique")
}

// next styles character i, read into c, unless it is a space, a break or
// a generated character: those end the word.
func (s *styler) next(i int, c *Char) {
	if c.Generated || unicode.IsSpace(c.Rune) || unicode.IsControl(c.Rune) && c.Rune != 0x02 {
		s.prev = nil
		return
	}
	s.style(i, c)
	s.prev = c
}
