package render

import (
	"testing"

	"github.com/sieve-dev/sieve/graph"
)

// TestTableFooter: a table's header rows render in <thead>, its footer
// rows (the graph puts a <tfoot>'s rows last) in <tfoot>, not as data
// rows; a rowspan stops at the end of its group. Markdown (GFM has no
// footer) keeps the footer rows after the body rows.
func TestTableFooter(t *testing.T) {
	rows := [][]graph.Cell{
		{{Text: "Grade", Header: true}, {Text: "Price", Header: true}},
		{{Text: "Premium"}, {Text: "3.40", Rowspan: 5}},
		{{Text: "Standard"}},
		{{Text: "Total", Footer: true}, {Text: "6.40", Footer: true}},
	}
	want := "<table>\n<thead>\n<tr><th>Grade</th><th>Price</th></tr>\n</thead>\n" +
		"<tbody>\n<tr><td>Premium</td><td rowspan=\"2\">3.40</td></tr>\n<tr><td>Standard</td></tr>\n</tbody>\n" +
		"<tfoot>\n<tr><td>Total</td><td>6.40</td></tr>\n</tfoot>\n</table>"
	if got := htmlTable(rows); got != want {
		t.Errorf("html:\n%s\nwant:\n%s", got, want)
	}
	wantMD := "| Grade | Price |\n| --- | --- |\n| Premium | 3.40 |\n| Standard | |\n| Total | 6.40 |"
	if got := mdTable(rows); got != wantMD {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, wantMD)
	}
	// No body row left: the rows are shown as they are, in no group.
	if got := htmlTable(rows[3:]); got != "<table>\n<tr><td>Total</td><td>6.40</td></tr>\n</table>" {
		t.Errorf("footer only: %s", got)
	}
	// A footer row that is not last is a body row.
	odd := [][]graph.Cell{{{Text: "a", Footer: true}}, {{Text: "b"}}}
	if h, f := rowGroups(odd); h != 0 || f != 0 {
		t.Errorf("rowGroups(footer first) = %d, %d; want 0, 0", h, f)
	}
}
