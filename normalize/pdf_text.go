package normalize

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// Text-line thresholds (in font sizes of the line).
const (
	pdfSizeStep  = 0.5  // font sizes are compared rounded to this
	pdfWordSpace = 0.2  // a gap wider than this between two spans is a space
	pdfParaGap   = 0.8  // white space between baselines beyond one size starts a paragraph
	pdfParaRise  = 1.4  // … and so does a baseline step this many times the region's usual one
	pdfIndentMin = 0.8  // a first-line indent is at least this many sizes
	pdfIndentMax = 4.0  // … and at most this many
	pdfBoldShare = 0.75 // a line is bold when this share of its characters is
)

// pdfLine is a text line of one region: its words left to right (hidden
// words included) and the style facts of its visible words.
type pdfLine struct {
	words  []*pdfWord
	box    capture.PDFBox // of the visible words
	size   float64        // the font size of most characters, rounded to pdfSizeStep
	bold   bool
	italic bool
	base   float64 // the baseline: the median bottom of its words
}

func (l *pdfLine) left() float64  { return l.box.X }
func (l *pdfLine) right() float64 { return l.box.X + l.box.W }

// newLine makes a line of words (sorted left to right by the caller).
func newLine(words []*pdfWord) *pdfLine {
	l := &pdfLine{words: words}
	l.restyle()
	return l
}

// restyle recomputes the line's box and style from its visible words, or
// from all its words when none shows.
func (l *pdfLine) restyle() {
	chars := map[float64]int{}
	bold, italic, total := 0, 0, 0
	var bottoms []float64
	have := false
	shows := slices.ContainsFunc(l.words, (*pdfWord).visible)
	for _, w := range l.words {
		if shows && !w.visible() {
			continue
		}
		n := utf8.RuneCountInString(w.text)
		chars[roundSize(w.size)] += n
		total += n
		if w.bold {
			bold += n
		}
		if w.italic {
			italic += n
		}
		bottoms = append(bottoms, w.box.Y+w.box.H)
		if !have {
			l.box, have = w.box, true
		} else {
			l.box = union(l.box, w.box)
		}
	}
	l.size = modeSize(chars)
	l.bold = total > 0 && float64(bold) >= pdfBoldShare*float64(total)
	l.italic = total > 0 && float64(italic) >= pdfBoldShare*float64(total)
	if len(bottoms) > 0 {
		slices.Sort(bottoms)
		l.base = bottoms[len(bottoms)/2]
	}
}

func roundSize(v float64) float64 { return math.Round(v/pdfSizeStep) * pdfSizeStep }

// modeSize is the size with the most characters; ties go to the smaller.
func modeSize(chars map[float64]int) float64 {
	best, n := 0.0, -1
	for size, c := range chars {
		if c > n || c == n && size < best {
			best, n = size, c
		}
	}
	return max(best, 0)
}

// regionLines turns a region's atoms into lines and tables in reading
// order: rows top to bottom, words left to right.
func regionLines(atoms []pdfAtom) []pdfItem {
	rows := rowGroups(atoms)
	out := make([]pdfItem, 0, len(rows))
	for _, r := range rows {
		if r[0].table != nil {
			out = append(out, pdfItem{table: r[0].table})
			continue
		}
		words := make([]*pdfWord, len(r))
		for i := range r {
			words[i] = r[i].word
		}
		out = append(out, pdfItem{line: newLine(words)})
	}
	return out
}

// pdfItem is a line or a table in a region's reading order.
type pdfItem struct {
	line  *pdfLine
	table *pdfTable
}

// paragraphs groups a run of lines of one region into paragraphs: a new
// one starts at a change of size or weight, at a baseline step beyond
// one size plus pdfParaGap sizes or beyond pdfParaRise times the usual
// step of the run, where the text goes back up, and at a first-line
// indent (a line starting pdfIndentMin–pdfIndentMax sizes right of the
// run's left edge after a line that starts at it).
func paragraphs(lines []*pdfLine) [][]*pdfLine {
	if len(lines) == 0 {
		return nil
	}
	usual := usualStep(lines)
	edge := leftEdge(lines)
	var out [][]*pdfLine
	for i, l := range lines {
		if i == 0 || breaksParagraph(lines[i-1], l, usual, edge) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], l)
	}
	return out
}

func breaksParagraph(prev, l *pdfLine, usual, edge float64) bool {
	if l.size != prev.size || l.bold != prev.bold || l.italic != prev.italic {
		return true
	}
	h := max(prev.size, 1)
	step := l.base - prev.base
	switch {
	case step < -h/2, step-h > pdfParaGap*h:
		return true
	case usual > 0 && step > pdfParaRise*usual:
		return true
	}
	indent := l.left() - edge
	return indent >= pdfIndentMin*h && indent <= pdfIndentMax*h && prev.left()-edge < pdfIndentMin*h/2
}

// usualStep is the median baseline step between consecutive lines of the
// same size, 0 with fewer than three such steps.
func usualStep(lines []*pdfLine) float64 {
	var steps []float64
	for i := 1; i < len(lines); i++ {
		if s := lines[i].base - lines[i-1].base; lines[i].size == lines[i-1].size && s > 0 {
			steps = append(steps, s)
		}
	}
	if len(steps) < 3 {
		return 0
	}
	slices.Sort(steps)
	return steps[len(steps)/2]
}

// leftEdge is the left edge most lines of a run start at (1 pt buckets;
// ties go to the leftmost).
func leftEdge(lines []*pdfLine) float64 {
	count := map[float64]int{}
	for _, l := range lines {
		count[math.Round(l.left())]++
	}
	best, n := math.Inf(1), 0
	for x, c := range count {
		if c > n || c == n && x < best {
			best, n = x, c
		}
	}
	return best
}

// pdfRun is a stretch of a block's text that is all visible or all hidden
// for one reason: one text node.
type pdfRun struct {
	text         string
	hidden, rule string
	box          capture.PDFBox
}

// textRuns joins lines into runs: words on a line are spaced where the
// page's text has a space character between them or the gap between
// them is wider than pdfWordSpace sizes, lines are joined by
// a space, and a line ending in "-" before one starting lower-case is
// joined without the hyphen. The space between a visible and a hidden run
// goes with the visible one, so the visible text reads right without the
// hidden.
// cjkJoin reports whether the text after a ends and b starts with
// characters of scripts written without spaces (Han, kana, their
// punctuation and full-width forms), which join without one: PDFium puts
// spaces after full-width punctuation ("会、 监"), and line ends are no
// word breaks there.
func cjkJoin(a, b string) bool {
	last, _ := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	return noSpaceScript(last) && noSpaceScript(first)
}

func noSpaceScript(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		r >= 0x3000 && r <= 0x303f || // CJK symbols and punctuation
		r >= 0xff01 && r <= 0xff60 // full-width forms
}

func textRuns(lines []*pdfLine) []pdfRun {
	var runs []pdfRun
	var b strings.Builder
	var cur pdfRun
	started := false
	var prev *pdfWord
	sep := ""
	closeRun := func() {
		if started {
			cur.text = b.String()
			runs = append(runs, cur)
		}
		b.Reset()
		started = false
	}
	for li, l := range lines {
		for wi, w := range logicalWords(l.words) {
			gap := wordGap(prev, w)
			switch {
			case prev == nil:
				sep = ""
			case cjkJoin(prev.text, w.text):
				sep = "" // CJK text has no spaces between words, nor at line ends
			case wi == 0 && li > 0:
				sep = " "
				if hyphenJoin(prev, w) {
					trimHyphen(&b, &runs, started)
					sep = ""
				}
			case w.space && w.seq == prev.seq+1, directionBreak(prev.text, w.text):
				sep = " " // the text has a space here, however tight the glyphs, or the script turns
			case closing(w.text) && gap < 2*pdfWordSpace*wordSize(w, prev):
				sep = ""
			case gap > pdfWordSpace*wordSize(w, prev), gap < -pdfWordSpace*wordSize(w, prev):
				sep = " " // a word drawn over the one before is no part of it
			default:
				sep = ""
			}
			if started && w.hidden != cur.hidden {
				if cur.hidden == "" {
					b.WriteString(sep)
					sep = ""
				}
				closeRun()
			}
			if !started {
				cur = pdfRun{hidden: w.hidden, rule: w.rule, box: w.box}
				started = true
				if w.hidden == "" && len(runs) > 0 {
					b.WriteString(sep)
				}
			} else {
				b.WriteString(sep)
				cur.box = union(cur.box, w.box)
			}
			b.WriteString(w.text)
			prev = w
		}
	}
	closeRun()
	return runs
}

// wordGap is the distance between two words of a line, whichever side
// of prev w is on (right-to-left lines read leftwards); 0 without prev.
func wordGap(prev, w *pdfWord) float64 {
	if prev == nil {
		return 0
	}
	return max(w.box.X-(prev.box.X+prev.box.W), prev.box.X-(w.box.X+w.box.W))
}

// logicalWords is a line's words (left to right on the page) in reading
// order: a line with more right-to-left letters (Arabic, Hebrew) than
// left-to-right ones reads from the right, except that each run of words
// without right-to-left letters (numbers, Latin) keeps its own
// left-to-right order, as the bidi algorithm's embedding levels have it.
func logicalWords(words []*pdfWord) []*pdfWord {
	rtl, ltr := 0, 0
	for _, w := range words {
		r, l := directionCounts(w.text)
		rtl, ltr = rtl+r, ltr+l
	}
	if rtl <= ltr {
		return words
	}
	out := make([]*pdfWord, 0, len(words))
	for end := len(words); end > 0; {
		start := end - 1
		if r, _ := directionCounts(words[start].text); r == 0 {
			for start > 0 {
				if r, _ := directionCounts(words[start-1].text); r > 0 {
					break
				}
				start--
			}
		}
		out = append(out, words[start:end]...)
		end = start
	}
	return out
}

// directionCounts counts a text's right-to-left letters (Arabic, Hebrew,
// Syriac, Thaana, N'Ko) and its other letters and digits.
func directionCounts(s string) (rtl, ltr int) {
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Arabic, unicode.Hebrew, unicode.Syriac, unicode.Thaana, unicode.Nko):
			if unicode.IsLetter(r) {
				rtl++
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			ltr++
		}
	}
	return rtl, ltr
}

// directionBreak reports whether one of two neighbouring words has
// right-to-left letters and no others and the other left-to-right letters
// and no right-to-left ones: Arabic and Latin letters make no word
// together, though producers of mixed lines often draw no space between
// them ("Python" against the Arabic word after it).
func directionBreak(a, b string) bool {
	ra, la := directionCounts(a)
	rb, lb := directionCounts(b)
	return ra > 0 && la == 0 && lb > 0 && rb == 0 || rb > 0 && lb == 0 && la > 0 && ra == 0
}

// closing reports whether a word starts with punctuation that follows the
// word before it without a space (tabular figures leave gaps before it).
func closing(s string) bool {
	return s != "" && strings.ContainsRune(",.;:!?)]}%", rune(s[0]))
}

// wordSize is the smaller font size of two neighbouring words (their box
// height when a size is missing).
func wordSize(a, b *pdfWord) float64 {
	s := min(a.size, b.size)
	if s <= 0 {
		s = min(a.box.H, b.box.H)
	}
	return s
}

// hyphenJoin reports whether a line ending in prev joins the next line's
// first word w without a space: prev ends in a hyphen after a letter, w
// starts lower-case, and both show.
func hyphenJoin(prev, w *pdfWord) bool {
	if !prev.visible() || !w.visible() || !strings.HasSuffix(prev.text, "-") || len(prev.text) < 2 {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(prev.text[:len(prev.text)-1])
	first, _ := utf8.DecodeRuneInString(w.text)
	return unicode.IsLetter(before) && unicode.IsLower(first)
}

// trimHyphen drops the trailing hyphen of the open run (or of the last
// closed one).
func trimHyphen(b *strings.Builder, runs *[]pdfRun, open bool) {
	if open {
		s := b.String()
		b.Reset()
		b.WriteString(strings.TrimSuffix(s, "-"))
		return
	}
	if n := len(*runs); n > 0 {
		(*runs)[n-1].text = strings.TrimSuffix((*runs)[n-1].text, "-")
	}
}

// lineText is a line's visible text.
func lineText(l *pdfLine) string {
	var s strings.Builder
	for _, r := range textRuns([]*pdfLine{l}) {
		if r.hidden == "" {
			s.WriteString(r.text)
		}
	}
	return strings.TrimSpace(s.String())
}

// linesBox is the box of the lines' visible words.
func linesBox(lines []*pdfLine) capture.PDFBox {
	var out capture.PDFBox
	for i, l := range lines {
		if i == 0 {
			out = l.box
		} else {
			out = union(out, l.box)
		}
	}
	return out
}

// sortWords sorts words left to right.
func sortWords(words []*pdfWord) {
	slices.SortStableFunc(words, func(a, b *pdfWord) int { return cmp.Compare(a.box.X, b.box.X) })
}
