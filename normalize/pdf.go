package normalize

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// SourcePDF marks nodes read from a PDF's text.
const SourcePDF = "pdf"

// Page-level thresholds of the PDF reading.
const (
	pdfBand          = 0.12 // share of the page height at top and bottom where running headers/footers sit
	pdfNumberBand    = 0.25 // … and where a lone page number may sit
	pdfRunningPages  = 3    // pages on which a header's number runs with the page index
	pdfHeadingRise   = 1.15 // a paragraph this much above the body size is a heading
	pdfHeadingLines  = 3    // a heading has at most this many lines …
	pdfHeadingChars  = 200  // … and characters
	pdfBoldHeadChars = 80   // a bold one-line paragraph at body size this short is a heading
	pdfScanShare     = 0.25 // an image this share of the page or more under invisible text is a scan
)

// PDFTextLayer is the attribute that marks an element whose text all
// comes from an OCR layer (invisible text over a scanned page): its value
// is PDFTextLayerOCR.
const (
	PDFTextLayer    = "data-text-layer"
	PDFTextLayerOCR = "ocr"
)

// pdfPage is one page on its way to nodes.
type pdfPage struct {
	info   *capture.PDFPage // in its text's frame (turnedPage) when shown's text does not run left to right
	shown  *capture.PDFPage // as displayed
	words  []pdfWord
	tables []*pdfTable
	header []*pdfLine // running header lines, top to bottom
	footer []*pdfLine
	blocks []pdfBlock // the body in reading order (untagged pages and the untagged rest of tagged ones)
	tagged []*pdfEl   // the body from the structure tree (tagged pages)
}

// pdfBlock is one block of a page's body: a paragraph, a list or a table.
type pdfBlock struct {
	lines []*pdfLine
	list  *pdfList
	table *pdfTable
}

// splitRuns cuts lines into blocks: at each line, at reports the block
// that starts there and the index after it, or next == i when none does;
// the lines between such blocks are gathered into plain blocks.
func splitRuns(lines []*pdfLine, at func(i int) (b pdfBlock, next int)) []pdfBlock {
	var out []pdfBlock
	var plain []*pdfLine
	for i := 0; i < len(lines); {
		b, next := at(i)
		if next <= i {
			plain = append(plain, lines[i])
			i++
			continue
		}
		if len(plain) > 0 {
			out = append(out, pdfBlock{lines: plain})
			plain = nil
		}
		out = append(out, b)
		i = next
	}
	if len(plain) > 0 {
		out = append(out, pdfBlock{lines: plain})
	}
	return out
}

// readPDF turns capture's PDF facts into nodes: html/body and a section
// per page (id "p0001"…, the page's box, Page set) holding the running
// header, the body in reading order and the running footer. Every node
// of a page carries the page number and a box in page-local points.
// Headings are ranked over the whole document.
func readPDF(out *Record, doc *capture.PDF) {
	pages := make([]pdfPage, len(doc.Pages))
	for i := range doc.Pages {
		p := &doc.Pages[i]
		if (p.TextDir != 0 || p.TextMirrored) && p.Error == "" && len(p.Tags) == 0 {
			p = turnedPage(p)
		}
		pages[i] = preparePage(p)
		pages[i].shown = &doc.Pages[i]
	}
	markChrome(pages)
	for i := range pages {
		p := &pages[i]
		if p.info.Error != "" {
			continue
		}
		if len(p.info.Tags) > 0 {
			readTagged(p)
		} else {
			p.blocks = layoutBlocks(bodyWords(p, nil), p.tables)
		}
	}
	styled := untaggedHeads(pages)
	body := bodySize(pages, styled)
	e := &pdfEmitter{out: out, levels: headingLevels(pages, styled, body), body: body}
	for _, el := range styled {
		if s, ok := headingOf(pdfBlock{lines: el.lines}, body); ok && e.levels[s] > 0 {
			el.level = headingLevel(el.lines, e.levels[s])
			el.tag = fmt.Sprintf("h%d", el.level)
		}
	}
	e.begin()
	for i := range pages {
		e.page(i, &pages[i])
	}
}

// preparePage reads a page's words and ruled tables.
func preparePage(p *capture.PDFPage) pdfPage {
	out := pdfPage{info: p}
	if p.Error != "" {
		return out
	}
	out.words = pageWords(p)
	if len(p.Tags) == 0 {
		out.tables = ruledTables(p.Rects, out.words)
	}
	return out
}

// bodyWords is the page's words that are neither chrome nor in a table,
// and, when keep is not nil, that keep accepts.
func bodyWords(p *pdfPage, keep func(*pdfWord) bool) []*pdfWord {
	skip := map[*pdfWord]bool{}
	for _, t := range p.tables {
		for _, w := range t.words {
			skip[w] = true
		}
	}
	for _, l := range append(slices.Clip(p.header), p.footer...) {
		for _, w := range l.words {
			skip[w] = true
		}
	}
	out := make([]*pdfWord, 0, len(p.words))
	for i := range p.words {
		w := &p.words[i]
		if !skip[w] && (keep == nil || keep(w)) {
			out = append(out, w)
		}
	}
	return out
}

// layoutBlocks reads body words geometrically: visible words (and tables)
// in reading order, lines, lists and paragraphs; hidden words join the
// line they sit on, else make paragraphs of their own placed before the
// first block below them.
func layoutBlocks(words []*pdfWord, tables []*pdfTable) []pdfBlock {
	var atoms, hidden []pdfAtom
	for _, t := range tables {
		atoms = append(atoms, pdfAtom{box: t.box, table: t})
	}
	for _, w := range words {
		a := pdfAtom{box: atomBox(w), size: w.size, word: w}
		if w.visible() {
			atoms = append(atoms, a)
		} else {
			hidden = append(hidden, a)
		}
	}
	var regions [][]pdfItem
	var lines []*pdfLine
	for _, r := range readingOrder(atoms) {
		items := regionLines(r)
		for _, it := range items {
			if it.line != nil {
				lines = append(lines, it.line)
			}
		}
		regions = append(regions, items)
	}
	left := placeHidden(lines, hidden)
	var blocks []pdfBlock
	for _, items := range regions {
		blocks = append(blocks, regionBlocks(items)...)
	}
	if len(left) == 0 {
		return blocks
	}
	var extra []pdfBlock
	for _, r := range readingOrder(left) {
		extra = append(extra, regionBlocks(regionLines(r))...)
	}
	return mergeByPosition(blocks, extra)
}

// regionBlocks splits a region's lines and tables into blocks: tables of
// contents, tables of aligned columns, lists, paragraphs and ruled tables.
func regionBlocks(items []pdfItem) []pdfBlock {
	var out []pdfBlock
	var run []*pdfLine
	flush := func() {
		for _, toc := range leaderTables(run) {
			if toc.table != nil {
				out = append(out, toc)
				continue
			}
			out = append(out, unruledBlocks(toc.lines)...)
		}
		run = nil
	}
	for _, it := range items {
		if it.table != nil {
			flush()
			out = append(out, pdfBlock{table: it.table})
			continue
		}
		run = append(run, it.line)
	}
	flush()
	return out
}

// unruledBlocks splits lines without ruling into blocks: tables of
// aligned columns, lists and paragraphs.
func unruledBlocks(run []*pdfLine) []pdfBlock {
	var out []pdfBlock
	for _, t := range alignedTables(run) {
		if t.table != nil {
			out = append(out, t)
			continue
		}
		for _, b := range splitLists(t.lines) {
			if b.list != nil {
				out = append(out, b)
				continue
			}
			for _, para := range paragraphs(b.lines) {
				out = append(out, pdfBlock{lines: para})
			}
		}
	}
	return out
}

// placeHidden puts each hidden word into the line it sits on (the same
// row, horizontally within two font sizes of the line) and returns the
// words that sit on no line.
func placeHidden(lines []*pdfLine, hidden []pdfAtom) []pdfAtom {
	var left []pdfAtom
	touched := map[*pdfLine]bool{}
	for _, a := range hidden {
		var best *pdfLine
		bestOverlap := 0.0
		for _, l := range lines {
			pad := 2 * max(l.size, 1)
			cx := a.box.X + a.box.W/2
			if !sameRow(l.box, a.box) || cx < l.left()-pad || cx > l.right()+pad {
				continue
			}
			if o := min(l.box.Y+l.box.H, a.bottom()) - max(l.box.Y, a.top()); o > bestOverlap {
				best, bestOverlap = l, o
			}
		}
		if best == nil {
			left = append(left, a)
			continue
		}
		best.words = append(best.words, a.word)
		touched[best] = true
	}
	for _, l := range lines {
		if touched[l] {
			sortWords(l.words)
		}
	}
	return left
}

// mergeByPosition inserts each extra block (hidden text on no visible
// line) before the first block in reading order that starts below it and
// overlaps it horizontally; the rest go last.
func mergeByPosition(blocks, extra []pdfBlock) []pdfBlock {
	at := make([][]pdfBlock, len(blocks)+1)
	for _, x := range extra {
		xb := hiddenBox(x)
		k := len(blocks)
		for i, b := range blocks {
			bb := blockBox(b)
			if bb.Y > xb.Y && bb.X < xb.X+xb.W && xb.X < bb.X+bb.W {
				k = i
				break
			}
		}
		at[k] = append(at[k], x)
	}
	out := make([]pdfBlock, 0, len(blocks)+len(extra))
	for i, b := range blocks {
		out = append(out, at[i]...)
		out = append(out, b)
	}
	return append(out, at[len(blocks)]...)
}

// blockBox is the box of a block's visible words (a table's grid).
func blockBox(b pdfBlock) capture.PDFBox {
	switch {
	case b.table != nil:
		return b.table.box
	case b.list != nil:
		var lines []*pdfLine
		for _, it := range b.list.items {
			lines = append(lines, it...)
		}
		return linesBox(lines)
	}
	return linesBox(b.lines)
}

// hiddenBox is the box of all words of a paragraph block, hidden or not.
func hiddenBox(b pdfBlock) capture.PDFBox {
	var out capture.PDFBox
	first := true
	for _, l := range b.lines {
		for _, w := range l.words {
			if first {
				out, first = w.box, false
			} else {
				out = union(out, w.box)
			}
		}
	}
	return out
}

// markChrome finds running headers and footers on untagged pages: rows of
// visible words in the top or bottom band (pdfBand of the height) whose
// text with digits masked occurs in that band on at least half the pages
// (two or more); lone page numbers (digits or roman) that are the first
// or last row of the page within pdfNumberBand of its edge (LaTeX sets
// them well inside the page); and such first or last rows that start or
// end with a number running with the page index (the same offset on
// pdfRunningPages pages or more: "7 1.2. METRIC SPACES" on page 10).
func markChrome(pages []pdfPage) {
	type bandKey struct {
		bottom bool
		key    string
	}
	rows := make([][]*pdfLine, len(pages))
	seen := map[bandKey]int{}
	offsets := map[bandKey]int{}
	for i := range pages {
		p := &pages[i]
		if p.info.Error != "" || len(p.info.Tags) > 0 {
			continue
		}
		rows[i] = bandRows(p)
		onPage := map[bandKey]bool{}
		for k, l := range rows[i] {
			bottom := l.base > p.info.Height/2
			if inBand(l, p.info.Height, pdfBand) {
				onPage[bandKey{bottom, maskDigits(lineText(l))}] = true
			}
			if off, ok := pageOffset(l, i); ok && edgeRow(k, len(rows[i]), bottom) {
				offsets[bandKey{bottom, off}]++
			}
		}
		for k := range onPage {
			seen[k]++
		}
	}
	for i := range pages {
		p := &pages[i]
		cand := map[*pdfLine]bool{}
		for _, l := range rows[i] {
			n := seen[bandKey{l.base > p.info.Height/2, maskDigits(lineText(l))}]
			cand[l] = inBand(l, p.info.Height, pdfBand) && n >= 2 && 2*n >= len(pages)
		}
		runOn(p, cand)
		for k, l := range rows[i] {
			bottom := l.base > p.info.Height/2
			key := maskDigits(lineText(l))
			repeated := cand[l]
			edge := edgeRow(k, len(rows[i]), bottom)
			number := edge && (pageNumber(key) || roman(lineText(l)))
			if off, ok := pageOffset(l, i); ok && edge && offsets[bandKey{bottom, off}] >= pdfRunningPages {
				number = true
			}
			switch {
			case !repeated && !number:
			case bottom:
				p.footer = append(p.footer, l)
			default:
				p.header = append(p.header, l)
			}
		}
	}
}

// runOn clears the repeated band rows of a page that are lines of running
// text: a visible word of the same size sits over or under the row at a
// line's spacing (less than half its size away, overlapping it across)
// and is not itself in a repeated row, or is in one that runs on. A
// running header or footer stands apart from the body; the first lines
// of pages that all begin alike (copies of one text) run on into it.
func runOn(p *pdfPage, cand map[*pdfLine]bool) {
	rowOf := map[*pdfWord]*pdfLine{}
	for l, c := range cand {
		if c {
			for _, w := range l.words {
				rowOf[w] = l
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for l, c := range cand {
			if c && runsOn(p, l, func(w *pdfWord) bool { r := rowOf[w]; return r == nil || !cand[r] }) {
				cand[l], changed = false, true
			}
		}
	}
}

// runsOn reports whether a word that body says is not chrome sits over or
// under row l at a line's spacing.
func runsOn(p *pdfPage, l *pdfLine, body func(*pdfWord) bool) bool {
	for i := range p.words {
		w := &p.words[i]
		if !w.visible() || slices.Contains(l.words, w) || math.Abs(w.size-l.size) > 0.1*l.size || !body(w) {
			continue
		}
		if min(w.box.X+w.box.W, l.right()) <= max(w.box.X, l.left()) {
			continue
		}
		below := w.box.Y - (l.box.Y + l.box.H)
		above := l.box.Y - (w.box.Y + w.box.H)
		if gap := max(below, above); gap >= -0.1*l.size && gap < l.size/2 {
			return true
		}
	}
	return false
}

// edgeRow reports whether row k of n band rows is the page's first (top
// band) or last (bottom band).
func edgeRow(k, n int, bottom bool) bool { return k == 0 && !bottom || k == n-1 && bottom }

// pageOffset is a row's leading or trailing number less the page index,
// as a key; false when the row has no such number.
func pageOffset(l *pdfLine, index int) (string, bool) {
	var vis []*pdfWord
	for _, w := range l.words {
		if w.visible() {
			vis = append(vis, w)
		}
	}
	if len(vis) < 2 {
		return "", false
	}
	for _, w := range []*pdfWord{vis[0], vis[len(vis)-1]} {
		if n, err := strconv.Atoi(w.text); err == nil && n >= 0 && n < 100000 {
			return strconv.Itoa(n - index), true
		}
	}
	return "", false
}

// roman reports whether s is a lower-case roman page number.
func roman(s string) bool {
	return s != "" && len(s) <= 8 && strings.Trim(s, "ivxlc") == ""
}

// bandRows is the rows of visible words outside tables within
// pdfNumberBand of the page's top or bottom, top to bottom.
func bandRows(p *pdfPage) []*pdfLine {
	h := p.info.Height
	keep := func(w *pdfWord) bool {
		mid := w.box.Y + w.box.H/2
		return w.visible() && (mid < pdfNumberBand*h || mid > (1-pdfNumberBand)*h)
	}
	return wordRows(bodyWords(p, keep))
}

// inBand reports whether a line's middle lies within share of the page's
// height from its top or bottom.
func inBand(l *pdfLine, height, share float64) bool {
	mid := l.box.Y + l.box.H/2
	return mid < share*height || mid > (1-share)*height
}

// wordRows groups words into lines by row, top to bottom.
func wordRows(words []*pdfWord) []*pdfLine {
	atoms := make([]pdfAtom, len(words))
	for i, w := range words {
		atoms[i] = pdfAtom{box: atomBox(w), size: w.size, word: w}
	}
	var out []*pdfLine
	for _, row := range rowGroups(atoms) {
		ws := make([]*pdfWord, len(row))
		for i := range row {
			ws[i] = row[i].word
		}
		out = append(out, newLine(ws))
	}
	return out
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

// headingStyle is what ranks a heading: its size, weight and slant.
type headingStyle struct {
	size   float64
	bold   bool
	italic bool
}

// headingLevels ranks the heading styles of the untagged paragraphs over
// the whole document: paragraphs of at most pdfHeadingLines lines and
// pdfHeadingChars characters whose size is pdfHeadingRise times the body
// size or more, and short bold or italic one-liners at body size or more
// that do not end like a sentence. The largest style is level 1, then by
// size, bold before italic before regular, down to 6.
func headingLevels(pages []pdfPage, styled []*pdfEl, body float64) map[headingStyle]int {
	var styles []headingStyle
	seen := map[headingStyle]bool{} // sizes are not rounded: a document may have as many styles as blocks
	for _, b := range docBlocks(pages, styled) {
		if s, ok := headingOf(b, body); ok && !seen[s] {
			seen[s] = true
			styles = append(styles, s)
		}
	}
	slices.SortFunc(styles, func(a, b headingStyle) int {
		return cmp.Or(cmp.Compare(b.size, a.size), cmp.Compare(boolInt(b.bold), boolInt(a.bold)), cmp.Compare(boolInt(b.italic), boolInt(a.italic)))
	})
	levels := make(map[headingStyle]int, len(styles))
	for i, s := range styles {
		levels[s] = min(i+1, 6)
	}
	return levels
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// headingOf is the style of a paragraph block that reads as a heading.
func headingOf(b pdfBlock, body float64) (headingStyle, bool) {
	if b.list != nil || b.table != nil || len(b.lines) == 0 || len(b.lines) > pdfHeadingLines {
		return headingStyle{}, false
	}
	l := b.lines[0]
	chars := 0
	for _, x := range b.lines {
		chars += utf8.RuneCountInString(lineText(x))
	}
	if chars == 0 || chars > pdfHeadingChars || !hasLetter(b.lines) {
		return headingStyle{}, false
	}
	s := headingStyle{l.size, l.bold, l.italic && !l.bold}
	switch {
	case l.size >= body*pdfHeadingRise:
		return s, true
	case l.bold && l.size >= body && len(b.lines) == 1 && chars <= pdfBoldHeadChars:
		return s, true
	case s.italic && l.size >= body && len(b.lines) == 1 && chars <= pdfBoldHeadChars && !sentenceEnd(lineText(l)):
		return s, true // an italic run-in head on a line of its own ("Boots Self-Locking Nut")
	}
	return headingStyle{}, false
}

// headingLevel is a heading's level: one more than the depth of its
// section number when it has one ("3.2 Method" is 3, level 1 being the
// document's title), else its style's rank over the document.
func headingLevel(lines []*pdfLine, styleLevel int) int {
	if len(lines) == 0 {
		return styleLevel
	}
	if d := sectionDepth(lineText(lines[0])); d > 0 {
		return min(d+1, 6)
	}
	return styleLevel
}

// sectionDepth is how many numbers a heading's section number has ("3" 1,
// "3.2" 2, "2.1.6." 3: numbers of one to three digits joined by dots)
// when a letter follows it after a space; 0 when it has none.
func sectionDepth(s string) int {
	num, rest, ok := strings.Cut(s, " ")
	if !ok || !strings.ContainsFunc(strings.TrimLeft(rest, " "), unicode.IsLetter) {
		return 0
	}
	if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(rest, " ")); !unicode.IsLetter(r) {
		return 0
	}
	parts := strings.Split(strings.TrimSuffix(num, "."), ".")
	for _, p := range parts {
		if len(p) == 0 || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return 0
		}
	}
	return len(parts)
}

// sentenceEnd reports whether s ends like a sentence or a clause (an
// italic line that does is a quote or a caption, not a heading).
func sentenceEnd(s string) bool {
	s = strings.TrimRight(s, " \"'”’)")
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, ",") || strings.HasSuffix(s, ";") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?")
}

func hasLetter(lines []*pdfLine) bool {
	for _, l := range lines {
		for _, w := range l.words {
			if w.visible() && strings.IndexFunc(w.text, unicode.IsLetter) >= 0 {
				return true
			}
		}
	}
	return false
}

// bodySize is the most common font size by characters over the body text
// of all pages (visible words; the untagged blocks and the styled tagged
// paragraphs); ties go to the smaller size. A document whose running text
// is all bold (a form of tables under a few bold headings) takes its
// table cells instead, or its headings would be its body.
func bodySize(pages []pdfPage, styled []*pdfEl) float64 {
	chars := map[float64]int{}
	regular := false
	for _, b := range docBlocks(pages, styled) {
		for _, l := range b.lines {
			countSizes(chars, l.words)
			regular = regular || slices.ContainsFunc(l.words, func(w *pdfWord) bool { return w.visible() && !w.bold })
		}
	}
	if regular {
		return modeSize(chars)
	}
	cells := map[float64]int{}
	for i := range pages {
		for _, words := range tableWords(&pages[i]) {
			countSizes(cells, words)
		}
	}
	if len(cells) == 0 {
		return modeSize(chars)
	}
	return modeSize(cells)
}

// countSizes adds the characters of the visible words to chars by their
// rounded size.
func countSizes(chars map[float64]int, words []*pdfWord) {
	for _, w := range words {
		if w.visible() {
			chars[roundSize(w.size)] += utf8.RuneCountInString(w.text)
		}
	}
}

// tableWords is the words of a page's tables: the untagged blocks' and
// the tagged Table elements' cells.
func tableWords(p *pdfPage) [][]*pdfWord {
	var out [][]*pdfWord
	for _, b := range p.blocks {
		if b.table != nil {
			out = append(out, b.table.words)
		}
	}
	var walk func(el *pdfEl, in bool)
	walk = func(el *pdfEl, in bool) {
		in = in || el.tag == "table"
		for _, l := range el.lines {
			if in {
				out = append(out, l.words)
			}
		}
		for _, k := range el.kids {
			walk(k, in)
		}
	}
	for _, el := range p.tagged {
		walk(el, false)
	}
	return out
}

// docBlocks is the untagged blocks of all pages and the styled tagged
// paragraphs as blocks.
func docBlocks(pages []pdfPage, styled []*pdfEl) []pdfBlock {
	var out []pdfBlock
	for i := range pages {
		out = append(out, pages[i].blocks...)
	}
	for _, el := range styled {
		out = append(out, pdfBlock{lines: el.lines})
	}
	return out
}

// untaggedHeads is the paragraphs of a tagged document whose structure
// tree has no heading (H, H1–H6, Title) anywhere: producers that tag every
// block P still set their headings apart by size and weight, so those
// paragraphs are ranked as untagged ones are. Nil when the document has a
// heading tag (its tags say what the headings are) or no tags.
func untaggedHeads(pages []pdfPage) []*pdfEl {
	var out []*pdfEl
	for i := range pages {
		for _, t := range pages[i].info.Tags {
			if hasHeadingTag(&t) {
				return nil
			}
		}
		for _, el := range pages[i].tagged {
			out = appendParas(out, el)
		}
	}
	return out
}

func hasHeadingTag(t *capture.PDFTag) bool {
	if tagHeading(t.Type) > 0 {
		return true
	}
	return slices.ContainsFunc(t.Kids, func(k capture.PDFTag) bool { return hasHeadingTag(&k) })
}

// appendParas appends el's paragraphs, outside lists, tables and figures.
func appendParas(out []*pdfEl, el *pdfEl) []*pdfEl {
	switch el.tag {
	case "p":
		return append(out, el)
	case "ul", "ol", "table", "figure", "blockquote":
		return out
	}
	for _, k := range el.kids {
		out = appendParas(out, k)
	}
	return out
}

// pdfEl is an element on its way to nodes: its text lines, its children,
// and a box when it has one of its own (tables, cells, figures).
type pdfEl struct {
	tag    string
	attrs  map[string]string
	level  int
	lines  []*pdfLine
	kids   []*pdfEl
	box    capture.PDFBox
	hasBox bool
}

// blockEls turns a page's blocks into elements.
func (e *pdfEmitter) blockEls(blocks []pdfBlock) []*pdfEl {
	out := make([]*pdfEl, 0, len(blocks))
	for _, b := range blocks {
		switch {
		case b.table != nil:
			out = append(out, tableEl(b.table))
		case b.list != nil:
			el := &pdfEl{tag: "ul"}
			if b.list.ordered {
				el.tag = "ol"
			}
			for _, it := range b.list.items {
				el.kids = append(el.kids, &pdfEl{tag: "li", lines: it})
			}
			out = append(out, el)
		default:
			el := &pdfEl{tag: "p", lines: b.lines}
			if s, ok := headingOf(b, e.body); ok && e.levels[s] > 0 {
				el.level = headingLevel(b.lines, e.levels[s])
				el.tag = fmt.Sprintf("h%d", el.level)
			}
			out = append(out, el)
		}
	}
	return out
}

// tableEl is a ruled table as table/tr/th|td elements with their grid
// boxes and spans.
func tableEl(t *pdfTable) *pdfEl {
	el := &pdfEl{tag: "table", box: t.box, hasBox: true}
	for _, row := range t.rows {
		tr := &pdfEl{tag: "tr"}
		for _, c := range row {
			td := &pdfEl{tag: "td", box: c.box, hasBox: true, lines: wordRows(c.words)}
			if c.header {
				td.tag = "th"
			}
			td.attrs = spanAttrs(c.rowspan, c.colspan)
			tr.kids = append(tr.kids, td)
		}
		el.kids = append(el.kids, tr)
	}
	return el
}

func spanAttrs(rowspan, colspan int) map[string]string {
	var a map[string]string
	if rowspan > 1 {
		a = map[string]string{"rowspan": fmt.Sprint(rowspan)}
	}
	if colspan > 1 {
		if a == nil {
			a = map[string]string{}
		}
		a["colspan"] = fmt.Sprint(colspan)
	}
	return a
}

// pdfEmitter appends the nodes of a PDF to a record.
type pdfEmitter struct {
	out    *Record
	levels map[headingStyle]int
	body   float64
	pageNo int // 1-based number of the page being emitted
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
	e.out.Nodes = append(e.out.Nodes, Node{ID: id, Parent: parent, Tag: tag, Path: path, Source: SourcePDF, Box: box, Page: e.pageNo})
	e.out.Stats.Elements++
	return id
}

func (e *pdfEmitter) text(parent int, r pdfRun) {
	id := len(e.out.Nodes)
	e.out.Nodes = append(e.out.Nodes, Node{ID: id, Parent: parent, Tag: textTag, Text: r.text, Source: e.out.Nodes[parent].Source,
		Box: pageBox(r.box), Page: e.pageNo, Hidden: r.hidden, HiddenRule: r.rule})
	e.out.Stats.TextNodes++
}

// page emits a page's section: its box is the page; a page that could
// not be read has no content and says why in data-error.
func (e *pdfEmitter) page(i int, p *pdfPage) {
	e.pageNo = i + 1
	path := childPath("html/body", "section", i+1)
	sec := e.element(pdfBodyID, "section", path, pageBox(capture.PDFBox{W: p.shown.Width, H: p.shown.Height}))
	if p.info != p.shown {
		defer e.unturn(sec+1, p.shown)
	}
	e.out.Nodes[sec].Attrs = map[string]string{"id": fmt.Sprintf("p%04d", i+1), "class": "page"}
	if p.info.Error != "" {
		e.out.Nodes[sec].Attrs["data-error"] = p.info.Error
		return
	}
	sib := &siblings{}
	e.chrome(sec, path, "header", p.header, sib)
	for _, el := range p.tagged {
		e.emit(sec, path, el, sib)
	}
	for _, el := range e.blockEls(p.blocks) {
		e.emit(sec, path, el, sib)
	}
	e.chrome(sec, path, "footer", p.footer, sib)
}

// unturn maps the boxes of the nodes from index start on, laid out in the
// frame of a turned page, back to the page as displayed.
func (e *pdfEmitter) unturn(start int, shown *capture.PDFPage) {
	for i := start; i < len(e.out.Nodes); i++ {
		if b := e.out.Nodes[i].Box; b != nil {
			e.out.Nodes[i].Box = unframeBox(b, shown.TextDir, shown.TextMirrored, shown.Width, shown.Height)
		}
	}
}

// chrome puts a page's running header or footer lines, one p each, in a
// header or footer element.
func (e *pdfEmitter) chrome(sec int, secPath, tag string, lines []*pdfLine, sib *siblings) {
	if len(lines) == 0 {
		return
	}
	el := &pdfEl{tag: tag}
	for _, l := range lines {
		el.kids = append(el.kids, &pdfEl{tag: "p", lines: []*pdfLine{l}})
	}
	e.emit(sec, secPath, el, sib)
}

// emit appends an element, its text runs and its children.
func (e *pdfEmitter) emit(parent int, parentPath string, el *pdfEl, sib *siblings) {
	path := childPath(parentPath, el.tag, sib.next(el.tag))
	box := elBox(el)
	id := e.element(parent, el.tag, path, box)
	n := &e.out.Nodes[id]
	n.Attrs = el.attrs
	if el.level > 0 {
		n.Role, n.Level = "heading", el.level
	}
	if ocrLines(el.lines) {
		if n.Attrs == nil {
			n.Attrs = map[string]string{}
		}
		n.Attrs[PDFTextLayer] = PDFTextLayerOCR
		n.Source = SourcePDFOCR
	}
	for _, r := range textRuns(el.lines) {
		e.text(id, r)
	}
	kids := &siblings{}
	for _, k := range el.kids {
		e.emit(id, path, k, kids)
	}
}

// ocrLines reports whether lines have words and all are an OCR layer's.
func ocrLines(lines []*pdfLine) bool {
	n := 0
	for _, l := range lines {
		for _, w := range l.words {
			if !w.ocr {
				return false
			}
			n++
		}
	}
	return n > 0
}

// elBox is an element's own box, else the box of its visible text and
// children, else of its hidden text; nil when it has none.
func elBox(el *pdfEl) *Box {
	if el.hasBox {
		return pageBox(el.box)
	}
	b, ok := visibleBox(el)
	if !ok {
		var lines []pdfBlock
		collectLines(el, &lines)
		for _, l := range lines {
			if hb := hiddenBox(l); !ok {
				b, ok = hb, len(l.lines) > 0
			} else if len(l.lines) > 0 {
				b = union(b, hb)
			}
		}
	}
	if !ok {
		return nil
	}
	return pageBox(b)
}

func visibleBox(el *pdfEl) (capture.PDFBox, bool) {
	var out capture.PDFBox
	ok := false
	add := func(b capture.PDFBox) {
		if !ok {
			out, ok = b, true
		} else {
			out = union(out, b)
		}
	}
	if el.hasBox {
		add(el.box)
	}
	for _, l := range el.lines {
		if lineShows(l) {
			add(l.box)
		}
	}
	for _, k := range el.kids {
		if b, kok := visibleBox(k); kok {
			add(b)
		}
	}
	return out, ok
}

func lineShows(l *pdfLine) bool {
	for _, w := range l.words {
		if w.visible() {
			return true
		}
	}
	return false
}

func collectLines(el *pdfEl, out *[]pdfBlock) {
	if len(el.lines) > 0 {
		*out = append(*out, pdfBlock{lines: el.lines})
	}
	for _, k := range el.kids {
		collectLines(k, out)
	}
}
