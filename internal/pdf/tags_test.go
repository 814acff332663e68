package pdf

import (
	"os"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// mcidText is the page's text by marked-content id.
func mcidText(p Page) map[int]string {
	out := map[int]string{}
	for _, l := range p.Lines() {
		for _, w := range l.Words {
			if w.Style.MCID >= 0 {
				out[w.Style.MCID] = strings.TrimSpace(out[w.Style.MCID] + " " + w.Text)
			}
		}
	}
	return out
}

// tagText is the text of t's marked content and its kids', in order.
func tagText(t Tag, text map[int]string) string {
	var parts []string
	for _, id := range t.MCIDs {
		parts = append(parts, text[id])
	}
	for _, k := range t.Kids {
		parts = append(parts, tagText(k, text))
	}
	return strings.Join(parts, " ")
}

func findTags(ts []Tag, typ string) []Tag {
	var out []Tag
	for _, t := range ts {
		if t.Type == typ {
			out = append(out, t)
		}
		out = append(out, findTags(t.Kids, typ)...)
	}
	return out
}

// TestTaggedTable: Chromium's tagged table comes out as a Table of TR of
// TH/TD elements whose marked content holds the cells' text, with the
// span attributes of the merged cells.
func TestTaggedTable(t *testing.T) {
	want := pdftest.TaggedTable()
	doc, err := Parse(want.PDF)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.Tagged {
		t.Fatal("Tagged = false for a Chromium tagged PDF")
	}
	p := doc.Pages[0]
	text := mcidText(p)
	tables := findTags(p.Tags, "Table")
	if len(tables) != 1 {
		t.Fatalf("%d Table elements, want 1", len(tables))
	}
	var cells []Tag
	rows := findTags(tables[0].Kids, "TR")
	for _, r := range rows {
		for _, c := range r.Kids {
			if c.Type == "TH" || c.Type == "TD" {
				cells = append(cells, c)
			}
		}
	}
	wt := want.Tables[0]
	if len(rows) != wt.Rows || len(cells) != len(wt.Cells) {
		t.Fatalf("%d rows, %d cells; want %d, %d", len(rows), len(cells), wt.Rows, len(wt.Cells))
	}
	for i, wc := range wt.Cells {
		c := cells[i]
		got := tagText(c, text)
		span := func(name string) string {
			if v := c.Attrs[name]; v != "" {
				return v
			}
			return "1"
		}
		if got != wc.Text || (c.Type == "TH") != wc.Header || span("RowSpan") != itoa(wc.RowSpan) || span("ColSpan") != itoa(wc.ColSpan) {
			t.Errorf("cell %d: %s %q attrs %v; want %q header %v rowspan %d colspan %d",
				i, c.Type, got, c.Attrs, wc.Text, wc.Header, wc.RowSpan, wc.ColSpan)
		}
	}
	if th := findTags(p.Tags, "TH"); len(th) == 0 || th[0].Attrs["Scope"] != "Column" {
		t.Errorf("header cells %v: want Scope Column", th)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// TestTaggedHeadingsAndLists: headings and list items of the tagged
// fixtures have their standard types and their text through the MCIDs.
func TestTaggedHeadingsAndLists(t *testing.T) {
	art := pdftest.TaggedArticle()
	doc, err := Parse(art.PDF)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	text := mcidText(p)
	for _, h := range art.Headings {
		found := false
		for _, tg := range findTags(p.Tags, "H"+itoa(h.Level)) {
			found = found || tagText(tg, text) == h.Text
		}
		if !found {
			t.Errorf("no H%d tag with text %q", h.Level, h.Text)
		}
	}
	lists := pdftest.TaggedLists()
	doc, err = Parse(lists.PDF)
	if err != nil {
		t.Fatal(err)
	}
	p = doc.Pages[0]
	text = mcidText(p)
	var items []string
	for _, li := range findTags(p.Tags, "LI") {
		for _, k := range li.Kids { // Chromium tags an item's body NonStruct, not LBody
			if k.Type != "Lbl" {
				items = append(items, tagText(k, text))
			}
		}
	}
	var want []string
	for _, l := range lists.Lists {
		want = append(want, l.Items...)
	}
	if strings.Join(items, "|") != strings.Join(want, "|") {
		t.Errorf("list bodies %q, want %q", items, want)
	}
	if ls := findTags(p.Tags, "L"); len(ls) != 2 || ls[0].Attrs["ListNumbering"] != "Disc" || ls[1].Attrs["ListNumbering"] != "Decimal" {
		t.Errorf("lists %v: want two, numbered Disc and Decimal", ls)
	}
}

func TestUntagged(t *testing.T) {
	doc, _ := sample(t)
	if doc.Tagged {
		t.Error("Tagged = true for an fpdf PDF")
	}
	for _, p := range doc.Pages {
		if p.Tags != nil {
			t.Errorf("page %d: tags %v, want none", p.Index, p.Tags)
		}
	}
}

// chromium is the browser for tests that print HTML; it skips (loudly)
// when there is none, unless SIEVE_REQUIRE_CHROMIUM=1.
func chromium(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("SIEVE_CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		if os.Getenv("SIEVE_REQUIRE_CHROMIUM") == "1" {
			t.Fatalf("Chromium is required (SIEVE_REQUIRE_CHROMIUM=1) but %s is missing", bin)
		}
		t.Skipf("SKIPPING: no Chromium at %s (set SIEVE_CHROMIUM)", bin)
	}
	return bin
}

// TestMarkedContentInsideWord: in a tagged PDF the marked-content id is
// read for every character, so a word whose end lies in other marked
// content (a link followed by a full stop) is split where the id changes.
func TestMarkedContentInsideWord(t *testing.T) {
	html := `<!doctype html><html lang="en"><body><p>Read the <a href="https://example.com/x">manual</a>. Then stop.</p></body></html>`
	data, err := pdftest.PrintHTML(chromium(t), []byte(html))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	links := findTags(p.Tags, "Link")
	if len(links) != 1 {
		t.Fatalf("%d Link tags, want 1", len(links))
	}
	inLink := map[int]bool{}
	var walk func(Tag)
	walk = func(t Tag) {
		for _, id := range t.MCIDs {
			inLink[id] = true
		}
		for _, k := range t.Kids {
			walk(k)
		}
	}
	walk(links[0])
	manual, ok1 := findWord(p, "manual")
	stop, ok2 := findWord(p, ".")
	if !ok1 || !ok2 {
		t.Fatalf("words %v: want \"manual\" and \".\" apart", p.Lines())
	}
	if !inLink[manual.Style.MCID] || inLink[stop.Style.MCID] || stop.Style.MCID < 0 {
		t.Errorf("manual mcid %d, full stop mcid %d, link holds %v: want only manual in the link", manual.Style.MCID, stop.Style.MCID, inLink)
	}
}

// TestTagLimits: a tree deeper or larger than the limits is cut there and
// the page's Err says so.
func TestTagLimits(t *testing.T) {
	data := pdftest.TaggedTable().PDF
	defer func(d, n int) { maxTagDepth, maxPageTags = d, n }(maxTagDepth, maxPageTags)
	maxTagDepth = 2
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	if !strings.Contains(p.Err, "cut at depth 2") || depth(p.Tags) > 2 {
		t.Errorf("depth limit 2: err %q, tree depth %d", p.Err, depth(p.Tags))
	}
	maxTagDepth, maxPageTags = 64, 5
	if doc, err = Parse(data); err != nil {
		t.Fatal(err)
	}
	p = doc.Pages[0]
	if !strings.Contains(p.Err, "after 5 elements") || count(p.Tags) != 5 {
		t.Errorf("count limit 5: err %q, %d elements", p.Err, count(p.Tags))
	}
}

func depth(ts []Tag) int {
	d := 0
	for _, t := range ts {
		d = max(d, 1+depth(t.Kids))
	}
	return d
}

func count(ts []Tag) int {
	n := len(ts)
	for _, t := range ts {
		n += count(t.Kids)
	}
	return n
}
