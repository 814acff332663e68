package normalize

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/internal/textnorm"
)

// Thresholds of the hidden-text verdicts.
const (
	pdfTinySize     = 2.0 // a font size under this many points is unreadable (ARTIFACT.md: text under 2 pt is a hiding technique)
	pdfAlphaHidden  = 12  // fill alpha at or under this (of 255, under 5 %) does not show
	pdfColorNear    = 24  // RGB distance (0–441) at or under which text and paint look the same
	pdfPaintLines   = 4   // a filled path at most this many font sizes tall can be a text background
	pdfPageShare    = 0.5 // … and so can one covering this share of the page's width and height
	pdfBoldWeight   = 600 // a span this heavy or heavier is bold
	pdfPageWhite    = "#ffffff"
	pdfDefaultColor = "#000000" // capture leaves black out
)

// pdfWord is one capture span as the layout sees it.
type pdfWord struct {
	text   string
	box    capture.PDFBox
	size   float64
	bold   bool
	italic bool
	mcid   int    // marked-content id, -1 when none
	hidden string // a Hidden* reason code, "" when the word shows
	rule   string // the evidence for hidden
	ocr    bool   // invisible text over a scan (an OCR layer, read as content), or a scanned page's text read by sieve's OCR
	seq    int    // its place among the page's spans, in capture order
	space  bool   // the page's text has a space character right before it (capture's span space)
}

func (w *pdfWord) visible() bool { return w.hidden == "" }

// pageWords flattens a page's spans into words with their hidden verdicts.
// Spans without text are dropped.
func pageWords(p *capture.PDFPage) []pdfWord {
	n := 0
	for _, l := range p.Lines {
		n += len(l.Spans)
	}
	out := make([]pdfWord, 0, n)
	paint := newPaintIndex(p)
	for li, l := range p.Lines {
		byOCR := lineByOCR(p, li)
		for _, s := range l.Spans {
			text := strings.TrimSpace(textnorm.Text(presentationForms(s.Text)))
			if text == "" {
				continue
			}
			w := pdfWord{text: text, box: s.Box, size: s.Size, bold: s.Weight >= pdfBoldWeight, italic: s.Italic, mcid: -1, seq: len(out), space: s.Space}
			if s.MCID != nil {
				w.mcid = *s.MCID
			}
			if !byOCR { // OCR reads only what shows: no colour or size test applies
				w.hidden, w.rule = spanHidden(&s, p, paint)
			}
			w.ocr = w.hidden == "" && (invisible(&s) || byOCR)
			out = append(out, w)
		}
	}
	return dropOverprinted(out)
}

// pdfOverprint is how far, in font sizes, a copy of a word may sit from
// it and still be the same word drawn again.
const pdfOverprint = 0.2

// dropOverprinted drops the words that repeat an earlier word of the page
// in the same place (same text and verdict, corners within pdfOverprint
// sizes): producers fake bold by drawing a word twice, a hair apart, and
// shadows draw it again under itself. Read twice they would make
// "FontFont"; poppler drops such copies too.
func dropOverprinted(words []pdfWord) []pdfWord {
	seen := make(map[string][]int, len(words))
	out := words[:0]
	for _, w := range words {
		if slices.ContainsFunc(seen[w.text], func(k int) bool { return overprints(&out[k], &w) }) {
			continue
		}
		seen[w.text] = append(seen[w.text], len(out))
		out = append(out, w)
	}
	return out
}

func overprints(a, b *pdfWord) bool {
	d := pdfOverprint * max(min(a.size, b.size), 1)
	return a.hidden == b.hidden && math.Abs(a.box.X-b.box.X) <= d && math.Abs(a.box.Y-b.box.Y) <= d &&
		math.Abs(a.box.X+a.box.W-b.box.X-b.box.W) <= d && math.Abs(a.box.Y+a.box.H-b.box.Y-b.box.H) <= d
}

// presentationForms replaces the Arabic and Hebrew presentation forms
// (the contextual glyph shapes some PDFs map their glyphs to, U+FB1D–FDFF
// and U+FE70–FEFF) by their NFKC letters, so that the text reads and
// searches as typed; text without them is returned as is.
func presentationForms(s string) string {
	for _, r := range s {
		if r >= 0xfb1d && r <= 0xfdff || r >= 0xfe70 && r <= 0xfeff {
			return norm.NFKC.String(s)
		}
	}
	return s
}

// spanHidden is the verdict on one span: the first of invisible render
// mode, transparent fill, off the page, tiny, and the same colour as the
// paint under it that applies.
func spanHidden(s *capture.PDFSpan, p *capture.PDFPage, paint *paintIndex) (reason, rule string) {
	switch {
	case invisible(s) && overScan(s.Box, p) && !offPage(s.Box, p):
		return "", "" // an OCR layer: nothing is painted, so no colour test applies
	case invisible(s):
		return HiddenPDFInvisible, "text render mode " + strconv.Itoa(s.Render)
	case s.Alpha != nil && *s.Alpha <= pdfAlphaHidden:
		return HiddenPDFTransparent, fmt.Sprintf("fill alpha %d/255", *s.Alpha)
	case offPage(s.Box, p):
		return HiddenPDFOffPage, fmt.Sprintf("box %s outside the page 0 0 %s %s", boxText(s.Box), num(p.Width), num(p.Height))
	case s.Size < pdfTinySize:
		return HiddenPDFTiny, "font size " + num(s.Size) + " pt"
	case s.Render == 1 || s.Render == 5:
		return "", "" // stroked outlines: the fill colour is not what shows
	}
	fill := s.Color
	if fill == "" {
		fill = pdfDefaultColor
	}
	under, where := paint.under(s.Box, s.Size, fill)
	if colorDistance(fill, under) <= pdfColorNear {
		return HiddenSameColor, "fill " + fill + " on " + where + " " + under
	}
	return "", ""
}

// invisible reports whether a span's render mode paints nothing.
func invisible(s *capture.PDFSpan) bool { return s.Render == 3 || s.Render == 7 }

// overScan reports whether a box lies, by most of its area, on an image
// that covers at least pdfScanShare of the page: a scanned page, over
// which scanners and OCRmyPDF lay the recognised text invisibly. Invisible
// text on blank paper, or over a small picture, stays hidden.
func overScan(b capture.PDFBox, p *capture.PDFPage) bool {
	area := b.W * b.H
	for _, im := range p.Images {
		if im.W*im.H < pdfScanShare*p.Width*p.Height {
			continue
		}
		x0, y0 := max(b.X, im.X), max(b.Y, im.Y)
		x1, y1 := min(b.X+b.W, im.X+im.W), min(b.Y+b.H, im.Y+im.H)
		if x1 > x0 && y1 > y0 && (x1-x0)*(y1-y0) >= area/2 {
			return true
		}
	}
	return false
}

// offPage reports whether a box's centre lies outside the page.
func offPage(b capture.PDFBox, p *capture.PDFPage) bool {
	cx, cy := b.X+b.W/2, b.Y+b.H/2
	return cx < 0 || cy < 0 || cx > p.Width || cy > p.Height
}

// colorDistance is the Euclidean distance of two #rrggbb colours; an
// unreadable colour is far from everything.
func colorDistance(a, b string) float64 {
	ra, ga, ba, ok1 := parseHex(a)
	rb, gb, bb, ok2 := parseHex(b)
	if !ok1 || !ok2 {
		return math.Inf(1)
	}
	dr, dg, db := float64(ra-rb), float64(ga-gb), float64(ba-bb)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

func parseHex(s string) (r, g, b int, ok bool) {
	if len(s) != 7 || s[0] != '#' {
		return 0, 0, 0, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	return int(v >> 16 & 0xff), int(v >> 8 & 0xff), int(v & 0xff), true
}

func boxText(b capture.PDFBox) string {
	return num(b.X) + " " + num(b.Y) + " " + num(b.W) + " " + num(b.H)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// union is the box covering a and b; an empty a is no box yet.
func union(a, b capture.PDFBox) capture.PDFBox {
	if a.W == 0 && a.H == 0 && a.X == 0 && a.Y == 0 {
		return b
	}
	x0, y0 := min(a.X, b.X), min(a.Y, b.Y)
	x1, y1 := max(a.X+a.W, b.X+b.W), max(a.Y+a.H, b.Y+b.H)
	return capture.PDFBox{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// pageBox turns a page-local box into a node box (points, rounded
// outwards to integers).
func pageBox(b capture.PDFBox) *Box {
	x0, y0 := math.Floor(b.X), math.Floor(b.Y)
	x1, y1 := math.Ceil(b.X+b.W), math.Ceil(b.Y+b.H)
	return &Box{X: int(x0), Y: int(y0), W: int(x1 - x0), H: int(y1 - y0)}
}
