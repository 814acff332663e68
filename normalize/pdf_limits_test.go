package normalize_test

import (
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/normalize"
)

// hostileLimit is how long one hostile page may take. The bounded reading
// takes a second or two (ten times that under -race); before the bound,
// the lattice page took minutes.
const hostileLimit = 2 * time.Minute

// lattice is a page of single glyphs, rows×cols of them, each column a
// gutter's width from the next: every gap reads as a candidate column
// gutter and none as a column of text.
func lattice(rows, cols int) capture.PDFPage {
	lines := make([]capture.PDFLine, 0, rows)
	for r := range rows {
		var spans []capture.PDFSpan
		for c := range cols {
			spans = append(spans, spansAt(2+float64(c)*4.5, 1+float64(r)*3.9, 1, "x")...)
		}
		lines = append(lines, line(spans...))
	}
	return page(lines...)
}

// ruledGrid is a page of n×n cells with a word in each, every border its
// own thin path: ~5,000 rects, the most capture keeps on a page.
func ruledGrid(n int) capture.PDFPage {
	const cw, ch = 11.0, 14.0
	var lines []capture.PDFLine
	for r := range n {
		var spans []capture.PDFSpan
		for c := range n {
			spans = append(spans, spansAt(10+float64(c)*cw+1, 20+float64(r)*ch+10, 3, "ab")...)
		}
		lines = append(lines, line(spans...))
	}
	p := page(lines...)
	for r := range n + 1 {
		for c := range n {
			p.Rects = append(p.Rects, capture.PDFRect{Box: capture.PDFBox{X: 10 + float64(c)*cw, Y: 20 + float64(r)*ch, W: cw, H: 0.5}, Stroke: "#000000"})
		}
	}
	for r := range n {
		for c := range n + 1 {
			p.Rects = append(p.Rects, capture.PDFRect{Box: capture.PDFBox{X: 10 + float64(c)*cw, Y: 20 + float64(r)*ch, W: 0.5, H: ch}, Stroke: "#000000"})
		}
	}
	return p
}

// denseGrid is the lattice under a grid of full-page rules about 2 pt
// apart: a hundred thousand slots for twenty-seven thousand words.
func denseGrid() capture.PDFPage {
	p := lattice(200, 135)
	for i := range 390 {
		p.Rects = append(p.Rects, capture.PDFRect{Box: capture.PDFBox{X: 0, Y: float64(i) * 2.03, W: 612, H: 0.2}, Stroke: "#000000"})
	}
	for i := range 300 {
		p.Rects = append(p.Rects, capture.PDFRect{Box: capture.PDFBox{X: float64(i) * 2.04, Y: 0, W: 0.2, H: 792}, Stroke: "#000000"})
	}
	return p
}

// smallFills is the lattice beside 5,000 small white fills, none under a
// glyph: every glyph's paint lookup finds nothing.
func smallFills() capture.PDFPage {
	p := lattice(200, 135)
	for i := range 5000 {
		p.Rects = append(p.Rects, capture.PDFRect{Box: capture.PDFBox{X: float64(i % 600), Y: float64(i % 700), W: 0.5, H: 0.5}, Fill: "#ffffff"})
	}
	return p
}

// deepTags is a text page whose structure tree nests depth elements, each
// claiming a marked-content id, beside a flat run of 20,000 paragraphs.
func deepTags(depth int) capture.PDFPage {
	p := lattice(40, 20)
	mcid := 0
	for i := range p.Lines {
		for j := range p.Lines[i].Spans {
			m := mcid
			p.Lines[i].Spans[j].MCID = &m
			mcid++
		}
	}
	deep := capture.PDFTag{Type: "P", MCIDs: []int{0}}
	for i := 1; i < depth; i++ {
		deep = capture.PDFTag{Type: "Div", MCIDs: []int{i % mcid}, Kids: []capture.PDFTag{deep}}
	}
	flat := make([]capture.PDFTag, 20000)
	for i := range flat {
		flat[i] = capture.PDFTag{Type: "P", MCIDs: []int{i % mcid}}
	}
	p.Tags = []capture.PDFTag{deep, {Type: "Sect", Kids: flat}}
	return p
}

// TestPDFHostilePagesBounded: pages built to make the layout analysis
// slow — a lattice of glyphs whose every gap looks like a column gutter,
// a ruled grid at capture's rect limit, a grid of a hundred thousand
// slots over thousands of words, 5,000 filled paths beside 27,000 glyphs,
// a structure tree thousands deep —
// are read within hostileLimit each.
func TestPDFHostilePagesBounded(t *testing.T) {
	for name, p := range map[string]capture.PDFPage{
		"lattice":    lattice(200, 135),
		"ruled":      ruledGrid(49),
		"dense grid": denseGrid(),
		"fills":      smallFills(),
		"deep tags":  deepTags(5000),
	} {
		t.Run(name, func(t *testing.T) {
			rec := capture.Record{Record: "capture", URL: "file:///t.pdf", FinalURL: "file:///t.pdf", Tier: "static", Status: 200,
				ContentType: "application/pdf", PDF: &capture.PDF{PageCount: 1, Pages: []capture.PDFPage{p}},
				Timing: capture.Timing{StartedAt: "2026-01-01T00:00:00Z", Attempts: 1},
				Trace:  capture.Trace{SieveVersion: "test", Tier: "static", Libraries: []version.Library{}}}
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := normalize.Normalize(&rec)
				done <- err
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %v", name, time.Since(start))
			case <-time.After(hostileLimit):
				t.Fatalf("%s: not read in %v", name, hostileLimit)
			}
		})
	}
}
