package crop

import (
	"math"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// Mark scopes: what a marked crop outlines.
const (
	MarkLines = "lines" // the quoted part of each line that holds the quote
	MarkBox   = "box"   // the whole cited box (no line boxes for it)
)

// Marking is what a marked (not --plain) rendered crop outlines, in document
// units: the quoted span line by line when the lines are known, else the
// cited box, with the note saying why.
type Marking struct {
	Scope string  `json:"scope"`
	Boxes [][]int `json:"boxes"` // [x, y, w, h] each, in reading order
	Note  string  `json:"note,omitempty"`
}

// lineSlack is how far (document units) a word's centre may lie outside
// the cited box and still be one of its words: boxes are quantised.
const lineSlack = 2

// QuoteBoxes are the boxes of the quotes on the lines inside box: for each
// line that holds part of a quote, the union of the words holding it, in
// the lines' order. A line's words belong to box when their centre lies in
// it (an engine line can run across columns; the box's part of it is its
// line). The quotes are looked for letter and digit by letter and digit
// (NFKC, lower case), so spaces, punctuation, hyphens at line ends and
// ligatures do not matter; every occurrence is marked. Nil when no quote
// is found.
func QuoteBoxes(lines []pdf.Line, box ground.Box, quotes []string) []ground.Box {
	var s skeleton
	var in [][]pdf.Word // the box's part of each line that has one
	for _, l := range lines {
		var ws []pdf.Word
		for _, w := range l.Words {
			if inside(w.Box, box) {
				ws = append(ws, w)
			}
		}
		if len(ws) > 0 {
			in = append(in, ws)
		}
	}
	for li, ws := range in {
		for wi, w := range ws {
			s.add(w.Text, [2]int{li, wi})
		}
	}
	hit := make([]pdf.Box, len(in))
	text := string(s.text)
	for _, q := range quotes {
		k := string(fold(q))
		if k == "" {
			continue
		}
		for from := 0; from < len(text); {
			i := strings.Index(text[from:], k)
			if i < 0 {
				break
			}
			for _, at := range s.owner[from+i : from+i+len(k)] {
				hit[at[0]] = hit[at[0]].Union(in[at[0]][at[1]].Box)
			}
			from += i + len(k)
		}
	}
	var out []ground.Box
	for _, b := range hit {
		if b != (pdf.Box{}) {
			out = append(out, quantise(b))
		}
	}
	return out
}

// inside says whether b's centre lies in box, give or take lineSlack.
func inside(b pdf.Box, box ground.Box) bool {
	cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
	return cx >= float64(box.X-lineSlack) && cx <= float64(box.X+box.W+lineSlack) &&
		cy >= float64(box.Y-lineSlack) && cy <= float64(box.Y+box.H+lineSlack)
}

// skeleton is text folded to its letters and digits, with the line and
// word each byte came from.
type skeleton struct {
	text  []byte
	owner [][2]int
}

func (s *skeleton) add(word string, at [2]int) {
	for _, r := range fold(word) {
		n := len(s.text)
		s.text = append(s.text, string(r)...)
		for range len(s.text) - n {
			s.owner = append(s.owner, at)
		}
	}
}

// fold is s's letters and digits, NFKC and lower case.
func fold(s string) []rune {
	var out []rune
	for _, r := range norm.NFKC.String(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, unicode.ToLower(r))
		}
	}
	return out
}

// quantise is b in whole document units, grown to hold it.
func quantise(b pdf.Box) ground.Box {
	x0, y0 := math.Floor(b.X0), math.Floor(b.Y0)
	x1, y1 := math.Ceil(b.X1), math.Ceil(b.Y1)
	return ground.Box{X: max(int(x0), 0), Y: max(int(y0), 0), W: max(int(x1-x0), 1), H: max(int(y1-y0), 1)}
}

// pageLines reads the text lines of the PDF's pages (by index) from its
// text layer, with the engine that gave the document's boxes.
func pageLines(data []byte, pages map[int]bool) (map[int][]pdf.Line, error) {
	doc, err := pdf.Parse(data)
	if err != nil {
		return nil, err
	}
	out := map[int][]pdf.Line{}
	for _, p := range doc.Pages {
		if pages[p.Index] && p.Err == "" {
			out[p.Index] = p.Lines()
		}
	}
	return out, nil
}

// Notes of a crop whose whole box is marked.
const (
	noteNoQuote   = "no quoted text came with the cited box, so the whole box is marked"
	noteWeb       = "a web page's read records one box per block, not its lines, so the whole box is marked"
	noteNotOnLine = "the quoted text is not on the PDF's text lines in the box (text read by OCR has none), so the whole box is marked"
	noteNoLines   = "the PDF's text lines could not be read, so the whole box is marked: "
)

// marks decides what each job's picture outlines: the quoted lines of a
// PDF crop (QuoteBoxes, from the text layer of the same bytes the picture
// is drawn from), else the cited box with the reason.
func marks(targets []Target, ras Raster, pageOf func(Target) int) []Marking {
	out := make([]Marking, len(targets))
	need := map[int]bool{}
	for i, t := range targets {
		out[i] = Marking{Scope: MarkBox, Boxes: [][]int{boxInts(*t.BBox)}}
		switch {
		case len(t.Lines) > 0:
			out[i] = Marking{Scope: MarkLines}
			for _, b := range t.Lines {
				out[i].Boxes = append(out[i].Boxes, boxInts(b))
			}
		case len(t.Quotes) == 0:
			out[i].Note = noteNoQuote
		case !ras.PDF:
			out[i].Note = noteWeb
		default:
			need[pageOf(t)] = true
		}
	}
	if len(need) == 0 {
		return out
	}
	lines, err := pageLines(ras.PDFBytes, need)
	for i, t := range targets {
		if out[i].Note != "" || out[i].Scope == MarkLines {
			continue
		}
		if err != nil {
			out[i].Note = noteNoLines + err.Error()
			continue
		}
		qb := QuoteBoxes(lines[pageOf(t)], *t.BBox, t.Quotes)
		if len(qb) == 0 {
			out[i].Note = noteNotOnLine
			continue
		}
		out[i] = Marking{Scope: MarkLines}
		for _, b := range qb {
			out[i].Boxes = append(out[i].Boxes, boxInts(b))
		}
	}
	return out
}

func boxInts(b ground.Box) []int { return []int{b.X, b.Y, b.W, b.H} }

func boxOf(b []int) ground.Box { return ground.Box{X: b[0], Y: b[1], W: b[2], H: b[3]} }
