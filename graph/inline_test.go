package graph

import "testing"

// TestInlineSpans: code and link spans land on the right bytes of the
// cleaned block text, across collapsed white space and a paragraph split
// at <br><br>, and on the occurrence of a repeated word the page marks.
func TestInlineSpans(t *testing.T) {
	g := buildHTML(t, `<html><body><main><p>Run   <code>  go  test </code>
 now, Debian or <a href="/debian">Debian</a>.<br><br>Then <a href="/next"><code>next</code> page</a>.</p></main></body></html>`)
	want := map[string][][3]string{
		"Run go test now, Debian or Debian.": {{"code", "go test", ""}, {"link", "Debian", "http://example.test/debian"}},
		"Then next page.":                    {{"link", "next page", "http://example.test/next"}, {"code", "next", ""}},
	}
	seen := 0
	for _, b := range g.Blocks {
		w, ok := want[b.Text]
		if !ok {
			continue
		}
		seen++
		if len(b.Inline) != len(w) {
			t.Fatalf("%q: spans %+v, want %v", b.Text, b.Inline, w)
		}
		for i, sp := range b.Inline {
			if sp.Kind != w[i][0] || b.Text[sp.Start:sp.End] != w[i][1] || sp.Href != w[i][2] {
				t.Errorf("%q span %d: %s %q %q, want %v", b.Text, i, sp.Kind, b.Text[sp.Start:sp.End], sp.Href, w[i])
			}
		}
		if w[0][1] == "go test" && b.Inline[1].Start != len("Run go test now, Debian or ") {
			t.Errorf("the link is on the first Debian: %+v", b.Inline[1])
		}
	}
	if seen != 2 {
		t.Errorf("found %d of the 2 blocks in %+v", seen, g.Blocks)
	}
}

// TestCellText: an image-only cell's text is the image's description; a
// link in a cell is a span of the cell's text.
func TestCellText(t *testing.T) {
	g := buildHTML(t, `<html><body><main><table><tr><th>OS</th><th>Supported</th></tr>
<tr><td><a href="/linux">Linux</a></td><td><a href="/y"><img src="y.png" alt="yes"></a></td></tr>
<tr><td>Windows</td><td><img src="n.png" alt="no"></td></tr></table></main></body></html>`)
	for _, b := range g.Blocks {
		if b.Type != TypeTable {
			continue
		}
		r := b.Rows
		if r[1][1].Text != "yes" || r[2][1].Text != "no" {
			t.Errorf("image cells: %q %q", r[1][1].Text, r[2][1].Text)
		}
		if in := r[1][0].Inline; len(in) != 1 || in[0].Kind != InlineLink || in[0].End != len("Linux") {
			t.Errorf("link cell spans: %+v", in)
		}
		if in := r[1][1].Inline; len(in) != 1 || in[0].Href != "http://example.test/y" {
			t.Errorf("image link cell spans: %+v", in)
		}
		return
	}
	t.Fatal("no table block")
}
