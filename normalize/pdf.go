package normalize

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/textnorm"
)

// SourcePDF marks nodes read from a PDF's text.
const SourcePDF = "pdf"

// Layout constants of the PDF reading (points unless said otherwise).
const (
	pdfPageGap     = 16   // between pages in document coordinates
	pdfBand        = 0.12 // share of the page height at top and bottom where running headers/footers sit
	pdfParaGap     = 0.8  // white space between lines above this many font sizes starts a paragraph
	pdfSizeStep    = 0.5  // font sizes are compared rounded to this
	pdfHeadingRise = 1.15 // a paragraph this much above the body size is a heading
)

// pdfLine is one capture line as the PDF reading sees it.
type pdfLine struct {
	text string
	size float64 // the line's font size, rounded to pdfSizeStep
	box  capture.PDFBox
}

// pdfPara is a run of lines that reads as one block.
type pdfPara struct {
	lines []pdfLine
	size  float64
}

// pdfPageLines is a page's lines sorted into chrome and body.
type pdfPageLines struct {
	header, body, footer []pdfLine
}

// readPDF turns capture's PDF facts into nodes: html/body, a section per
// page (id "p0001"…), running headers and footers inside header/footer
// elements, and paragraphs (p, or h1–h3 by font size) of joined lines.
// Boxes are page-local points moved into one document column: each page
// starts below the previous one plus pdfPageGap.
func readPDF(out *Record, doc *capture.PDF) {
	pages := make([][]pdfLine, len(doc.Pages))
	for i, p := range doc.Pages {
		pages[i] = pdfLines(p.Lines)
	}
	sorted := pdfChrome(doc.Pages, pages)
	body := pdfBodySize(pages)
	paras := make([][]pdfPara, len(pages))
	for i := range sorted {
		paras[i] = pdfParagraphs(sorted[i].body)
	}
	levels := pdfHeadingLevels(paras, body)
	e := &pdfEmitter{out: out}
	e.begin()
	top := 0.0
	for i, p := range doc.Pages {
		e.page(i, top, p, sorted[i], paras[i], levels)
		top += math.Ceil(p.Height) + pdfPageGap // integer page tops: page boxes tile exactly
	}
}

func pdfLines(lines []capture.PDFLine) []pdfLine {
	out := make([]pdfLine, 0, len(lines))
	for _, l := range lines {
		words := make([]string, 0, len(l.Spans))
		size := 0.0
		for _, s := range l.Spans {
			words = append(words, s.Text)
			size = max(size, s.Size)
		}
		text := textnorm.Text(strings.Join(words, " "))
		if text == "" {
			continue
		}
		out = append(out, pdfLine{text: text, size: roundSize(size), box: l.Box})
	}
	return out
}

func roundSize(v float64) float64 { return math.Round(v/pdfSizeStep) * pdfSizeStep }

// pdfChrome sorts each page's lines into header, body and footer. A line
// in the top or bottom band is chrome when its text with digits masked
// occurs in that band on at least half the pages (two or more), or when it
// is a lone page number.
func pdfChrome(pages []capture.PDFPage, lines [][]pdfLine) []pdfPageLines {
	type bandKey struct {
		bottom bool
		key    string
	}
	seen := map[bandKey]int{}
	for i, ls := range lines {
		onPage := map[bandKey]bool{}
		for _, l := range ls {
			if b, ok := band(l, pages[i].Height); ok {
				onPage[bandKey{b, maskDigits(l.text)}] = true
			}
		}
		for k := range onPage {
			seen[k]++
		}
	}
	out := make([]pdfPageLines, len(lines))
	for i, ls := range lines {
		for _, l := range ls {
			b, ok := band(l, pages[i].Height)
			key := maskDigits(l.text)
			chrome := ok && (pageNumber(key) || len(lines) >= 2 && 2*seen[bandKey{b, key}] >= len(lines))
			switch {
			case !chrome:
				out[i].body = append(out[i].body, l)
			case b:
				out[i].footer = append(out[i].footer, l)
			default:
				out[i].header = append(out[i].header, l)
			}
		}
	}
	return out
}

// band reports whether a line lies in the top or bottom band of its page,
// and which (bottom true).
func band(l pdfLine, height float64) (bottom, ok bool) {
	mid := l.box.Y + l.box.H/2
	switch {
	case mid < pdfBand*height:
		return false, true
	case mid > (1-pdfBand)*height:
		return true, true
	}
	return false, false
}

// maskDigits lower-cases s and replaces each run of digits by "#", so
// "Page 3 of 12" and "Page 4 of 12" compare equal.
func maskDigits(s string) string {
	var b strings.Builder
	digit := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsDigit(r) {
			if !digit {
				b.WriteByte('#')
			}
			digit = true
			continue
		}
		digit = false
		b.WriteRune(r)
	}
	return b.String()
}

// pageNumber reports whether a masked line is a lone page number.
func pageNumber(key string) bool {
	switch key {
	case "#", "- # -", "– # –", "page #", "page # of #", "# of #", "# / #", "#/#", "p. #":
		return true
	}
	return false
}

// pdfBodySize is the most common font size by characters over the
// document; ties go to the smaller size.
func pdfBodySize(pages [][]pdfLine) float64 {
	chars := map[float64]int{}
	for _, ls := range pages {
		for _, l := range ls {
			chars[l.size] += utf8.RuneCountInString(l.text)
		}
	}
	best, n := 0.0, -1
	for size, c := range chars {
		if c > n || c == n && size < best {
			best, n = size, c
		}
	}
	return best
}

// pdfParagraphs groups a page's body lines: a new paragraph starts at a
// font-size change, at a vertical gap above pdfParaGap line heights, and
// where the text order goes back up the page.
func pdfParagraphs(lines []pdfLine) []pdfPara {
	var paras []pdfPara
	for i, l := range lines {
		if i == 0 || breaksParagraph(lines[i-1], l) {
			paras = append(paras, pdfPara{size: l.size})
		}
		p := &paras[len(paras)-1]
		p.lines = append(p.lines, l)
	}
	return paras
}

// breaksParagraph compares baselines (box bottoms): glyph boxes are
// tight, so a box's height says little about the line height, while the
// font size does. The white space between two lines is their baseline
// distance less one font size.
func breaksParagraph(prev, l pdfLine) bool {
	if l.size != prev.size {
		return true
	}
	h := max(prev.size, 1)
	step := (l.box.Y + l.box.H) - (prev.box.Y + prev.box.H)
	return step-h > pdfParaGap*h || step < -h/2
}

// pdfHeadingLevels maps the font sizes clearly above the body size to
// heading levels 1–3 by rank over the whole document (the largest is h1;
// the fourth largest and below are h3).
func pdfHeadingLevels(pages [][]pdfPara, body float64) map[float64]int {
	var sizes []float64
	for _, ps := range pages {
		for _, p := range ps {
			if p.size >= body*pdfHeadingRise && !slices.Contains(sizes, p.size) {
				sizes = append(sizes, p.size)
			}
		}
	}
	slices.SortFunc(sizes, func(a, b float64) int { return cmp.Compare(b, a) })
	levels := make(map[float64]int, len(sizes))
	for i, s := range sizes {
		levels[s] = min(i+1, 3)
	}
	return levels
}

// joinLines joins a paragraph's lines with spaces; a line ending in "-"
// is joined without the hyphen when the next starts lower-case.
func joinLines(lines []pdfLine) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			prev := b.String()
			first, _ := utf8.DecodeRuneInString(l.text)
			if strings.HasSuffix(prev, "-") && len(prev) > 1 && unicode.IsLower(first) {
				b.Reset()
				b.WriteString(prev[:len(prev)-1])
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(l.text)
	}
	return b.String()
}

// pdfEmitter appends the nodes of a PDF to a record.
type pdfEmitter struct {
	out *Record
}

const pdfBodyID = 1 // the body element's node id

func (e *pdfEmitter) begin() {
	e.out.Nodes = append(e.out.Nodes,
		Node{ID: 0, Parent: -1, Tag: "html", Path: "html", Source: SourcePDF},
		Node{ID: pdfBodyID, Parent: 0, Tag: "body", Path: "html/body", Source: SourcePDF},
	)
	e.out.Stats.Elements = 2
}

// element appends an element and returns its id.
func (e *pdfEmitter) element(parent int, tag, path string, box *Box) int {
	id := len(e.out.Nodes)
	e.out.Nodes = append(e.out.Nodes, Node{ID: id, Parent: parent, Tag: tag, Path: path, Source: SourcePDF, Box: box})
	e.out.Stats.Elements++
	return id
}

func (e *pdfEmitter) text(parent int, text string, box *Box) {
	id := len(e.out.Nodes)
	e.out.Nodes = append(e.out.Nodes, Node{ID: id, Parent: parent, Tag: textTag, Text: text, Source: SourcePDF, Box: box})
	e.out.Stats.TextNodes++
}

func (e *pdfEmitter) page(i int, top float64, p capture.PDFPage, lines pdfPageLines, paras []pdfPara, levels map[float64]int) {
	path := childPath("html/body", "section", i+1)
	sec := e.element(pdfBodyID, "section", path, docBox(top, capture.PDFBox{W: p.Width, H: p.Height}))
	e.out.Nodes[sec].Attrs = map[string]string{"id": fmt.Sprintf("p%04d", i+1)}
	sib := &siblings{}
	e.chrome(sec, path, "header", top, lines.header, sib)
	for _, para := range paras {
		tag := "p"
		lv := levels[para.size]
		if lv > 0 {
			tag = fmt.Sprintf("h%d", lv)
		}
		box := docBox(top, unionBox(para.lines))
		id := e.element(sec, tag, childPath(path, tag, sib.next(tag)), box)
		if lv > 0 {
			e.out.Nodes[id].Role, e.out.Nodes[id].Level = "heading", lv
		}
		e.text(id, joinLines(para.lines), box)
	}
	e.chrome(sec, path, "footer", top, lines.footer, sib)
}

// chrome puts a page's running header or footer lines, one p each, in a
// header or footer element.
func (e *pdfEmitter) chrome(sec int, secPath, tag string, top float64, lines []pdfLine, sib *siblings) {
	if len(lines) == 0 {
		return
	}
	path := childPath(secPath, tag, sib.next(tag))
	el := e.element(sec, tag, path, docBox(top, unionBox(lines)))
	ps := &siblings{}
	for _, l := range lines {
		box := docBox(top, l.box)
		id := e.element(el, "p", childPath(path, "p", ps.next("p")), box)
		e.text(id, l.text, box)
	}
}

func unionBox(lines []pdfLine) capture.PDFBox {
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, l := range lines {
		x0, y0 = min(x0, l.box.X), min(y0, l.box.Y)
		x1, y1 = max(x1, l.box.X+l.box.W), max(y1, l.box.Y+l.box.H)
	}
	return capture.PDFBox{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// docBox moves a page-local box to document coordinates (points, rounded
// outwards to integers).
func docBox(top float64, b capture.PDFBox) *Box {
	x0, y0 := math.Floor(b.X), math.Floor(top+b.Y)
	x1, y1 := math.Ceil(b.X+b.W), math.Ceil(top+b.Y+b.H)
	return &Box{X: int(x0), Y: int(y0), W: int(x1 - x0), H: int(y1 - y0)}
}
