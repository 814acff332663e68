package pdftest

import (
	"fmt"
	"strings"
)

// longWords feed the long document's generated prose.
var longWords = strings.Fields(`river harbour station survey report tide wind rain field orchard
library branch reading measure gauge water season week month morning evening north south east
west bridge road mill lane square market school office record count total average change rise
fall level flow bank stone timber wall channel boat ferry crew pilot keeper garden plant crop
harvest yield sample figure table chart note summary method result review estimate budget plan`)

// rng is a small deterministic generator (an LCG): the long document is
// the same on every run and platform.
type rng uint64

func (r *rng) next(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

func (r *rng) sentence() string {
	n := 8 + r.next(12)
	w := make([]string, n)
	for i := range w {
		w[i] = longWords[r.next(len(longWords))]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

func (r *rng) paragraph() string {
	s := make([]string, 4+r.next(4))
	for i := range s {
		s[i] = r.sentence()
	}
	return strings.Join(s, " ")
}

// LongHTML is a report of the given number of chapters, about one printed
// A4 page each: an h2, paragraphs, h3 subsections, a 4-column table every
// third chapter and a list every fourth. Printed by Chromium it is the
// bench's long document (make bench-pdf); 64 chapters print to 60+ pages.
func LongHTML(chapters int) []byte {
	r := rng(1)
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Regional Survey</title><style>
@page { size: A4; margin: 20mm; }
html { font-family: "DejaVu Serif", serif; font-size: 11pt; line-height: 1.35; }
h1 { font-size: 22pt; } h2 { font-size: 16pt; break-before: page; } h3 { font-size: 13pt; }
table { border-collapse: collapse; } th, td { border: 0.75pt solid #000; padding: 2pt 6pt; }
</style></head><body><h1>Regional Survey</h1>
`)
	for c := 1; c <= chapters; c++ {
		fmt.Fprintf(&b, "<h2>Chapter %d</h2>\n", c)
		for s := 1; s <= 2; s++ {
			fmt.Fprintf(&b, "<h3>Section %d.%d</h3>\n", c, s)
			for range 2 {
				fmt.Fprintf(&b, "<p>%s</p>\n", r.paragraph())
			}
		}
		if c%3 == 0 {
			b.WriteString("<table><tr><th>Station</th><th>Morning</th><th>Evening</th><th>Total</th></tr>\n")
			for i := range 8 {
				m, e := r.next(500), r.next(500)
				fmt.Fprintf(&b, "<tr><td>%s %d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", longWords[r.next(len(longWords))], i+1, m, e, m+e)
			}
			b.WriteString("</table>\n")
		}
		if c%4 == 0 {
			b.WriteString("<ul>\n")
			for range 4 {
				fmt.Fprintf(&b, "<li>%s</li>\n", r.sentence())
			}
			b.WriteString("</ul>\n")
		}
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}
