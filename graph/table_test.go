package graph

import (
	"strings"
	"testing"
)

// TestTableHeadFoot: a <thead>'s cells are header cells, a <tfoot>'s rows
// are footer rows and come last wherever the markup puts them (as a
// browser shows them); only the first <thead> and <tfoot> count.
func TestTableHeadFoot(t *testing.T) {
	g := buildHTML(t, `<main><h1>Prices</h1><p>The prices of the season, by grade, with the total.</p>
<table>
<thead><tr><td>Grade</td><td>Price</td></tr></thead>
<tfoot><tr><td>Total</td><td>6.40</td></tr></tfoot>
<tbody><tr><td>Premium</td><td>3.40</td></tr><tr><td>Standard</td><td>3.00</td></tr></tbody>
<tfoot><tr><td>Second foot</td><td>x</td></tr></tfoot>
</table></main>`)
	var rows [][]Cell
	for _, b := range g.Blocks {
		if b.Type == TypeTable {
			rows = b.Rows
		}
	}
	var got []string
	for _, r := range rows {
		var cells []string
		for _, c := range r {
			s := c.Text
			if c.Header {
				s += "/h"
			}
			if c.Footer {
				s += "/f"
			}
			cells = append(cells, s)
		}
		got = append(got, strings.Join(cells, " "))
	}
	want := []string{"Grade/h Price/h", "Premium 3.40", "Standard 3.00", "Second foot x", "Total/f 6.40/f"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
