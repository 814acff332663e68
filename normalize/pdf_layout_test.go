package normalize_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/normalize"
)

// Hand-built PDF pages: words get boxes from a simple font model (a
// character is half the size wide, a word 0.7 sizes tall above its
// baseline), so tests place text the way a PDF would.

const pageW, pageH = 612.0, 792.0

// spansAt sets text out from x on the line with baseline y, one span per
// word, a quarter size apart.
func spansAt(x, y, size float64, text string) []capture.PDFSpan {
	var out []capture.PDFSpan
	for _, w := range strings.Fields(text) {
		wd := 0.5 * size * float64(len(w))
		out = append(out, capture.PDFSpan{Text: w, Size: size, Box: capture.PDFBox{X: x, Y: y - 0.7*size, W: wd, H: 0.7 * size}})
		x += wd + 0.25*size
	}
	return out
}

// line is one capture line of spans.
func line(spans ...capture.PDFSpan) capture.PDFLine {
	l := capture.PDFLine{Spans: spans}
	for i, s := range spans {
		if i == 0 {
			l.Box = s.Box
			continue
		}
		x0, y0 := min(l.Box.X, s.Box.X), min(l.Box.Y, s.Box.Y)
		x1, y1 := max(l.Box.X+l.Box.W, s.Box.X+s.Box.W), max(l.Box.Y+l.Box.H, s.Box.Y+s.Box.H)
		l.Box = capture.PDFBox{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
	}
	return l
}

func textLine(x, y, size float64, text string) capture.PDFLine {
	return line(spansAt(x, y, size, text)...)
}

func page(lines ...capture.PDFLine) capture.PDFPage {
	return capture.PDFPage{PDFPageInfo: capture.PDFPageInfo{Width: pageW, Height: pageH}, Lines: lines}
}

// normalizePDF normalizes a capture of the given pages and checks the
// record against its schema.
func normalizePDF(t *testing.T, pages ...capture.PDFPage) *normalize.Record {
	t.Helper()
	for i := range pages {
		pages[i].Index = i
	}
	rec := capture.Record{Record: "capture", URL: "file:///t.pdf", FinalURL: "file:///t.pdf", Tier: "static", Status: 200,
		ContentType: "application/pdf", PDF: &capture.PDF{PageCount: len(pages), Pages: pages},
		Timing: capture.Timing{StartedAt: "2026-01-01T00:00:00Z", Attempts: 1},
		Trace:  capture.Trace{SieveVersion: "test", Tier: "static", Libraries: []version.Library{}}}
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatal(err)
	}
	checkNormalized(t, n)
	return n
}

// elementTexts lists "tag: text" for each element with text children, in
// node order; hidden text is marked [reason].
func elementTexts(n *normalize.Record) []string {
	var out []string
	idx := map[int]int{}
	for _, node := range n.Nodes {
		if node.Tag != "#text" {
			continue
		}
		p := n.Nodes[node.Parent]
		text := strings.TrimSpace(node.Text)
		if node.Hidden != "" {
			text = "[" + node.Hidden + "] " + text
		}
		if k, ok := idx[p.ID]; ok {
			out[k] += " | " + text
			continue
		}
		idx[p.ID] = len(out)
		out = append(out, p.Tag+": "+text)
	}
	return out
}

const lorem = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon"

// column sets lines of lorem words from x, each ending before x+width.
func column(x, y, size, width float64, lines int, tag string) []capture.PDFLine {
	words := strings.Fields(lorem)
	var out []capture.PDFLine
	k := 0
	for i := range lines {
		var ws []string
		used := 0.0
		for {
			w := words[k%len(words)]
			wd := 0.5*size*float64(len(w)) + 0.25*size
			if used+wd > width {
				break
			}
			ws = append(ws, w)
			used += wd
			k++
		}
		if i == 0 {
			ws[0] = tag
		}
		out = append(out, textLine(x, y+float64(i)*1.2*size, size, strings.Join(ws, " ")))
	}
	return out
}

func TestPDFTwoColumns(t *testing.T) {
	left := column(72, 150, 10, 220, 8, "LEFT")
	right := column(320, 150, 10, 220, 8, "RIGHT")
	var lines []capture.PDFLine
	lines = append(lines, textLine(150, 100, 20, "A Title Across The Page"))
	for i := range left { // PDFium's order: row by row across the gutter
		lines = append(lines, right[i], left[i])
	}
	lines = append(lines, textLine(72, 300, 10, "A closing remark set across the full width of the page below both columns, long enough to span them."))
	n := normalizePDF(t, page(lines...))
	got := elementTexts(n)
	if len(got) != 4 {
		t.Fatalf("elements:\n%s", strings.Join(got, "\n"))
	}
	if !strings.HasPrefix(got[0], "h1: A Title") || !strings.HasPrefix(got[1], "p: LEFT") ||
		!strings.HasPrefix(got[2], "p: RIGHT") || !strings.HasPrefix(got[3], "p: A closing") {
		t.Errorf("reading order:\n%s", strings.Join(got, "\n"))
	}
	for _, node := range n.Nodes {
		if node.Tag == "p" && strings.HasPrefix(n.Nodes[node.ID+1].Text, "RIGHT") {
			if b := node.Box; b.X != 320 || b.Y < 142 || b.Y > 143 || b.W > 221 {
				t.Errorf("right column box %+v", *b)
			}
		}
	}
}

// TestPDFOneColumnStays: word gaps wider than a gutter that line up over
// a few rows do not split a single-column page into columns; label/value
// rows read as a table of aligned columns, row by row.
func TestPDFOneColumnStays(t *testing.T) {
	var lines []capture.PDFLine
	for i, v := range []string{"Name: Ada", "Born: 1815", "City: London"} {
		y := 100 + float64(i)*14
		label, value := strings.Fields(v)[0], strings.Fields(v)[1]
		lines = append(lines, line(append(spansAt(72, y, 10, label), spansAt(300, y, 10, value)...)...))
	}
	// three lines with a 12 pt gap at the same place
	for i, text := range []string{"one two | three four five", "six sev | eight nine ten", "aaa bbb | ccc ddd eee"} {
		y := 180 + float64(i)*12
		parts := strings.Split(text, " | ")
		lines = append(lines, line(append(spansAt(72, y, 10, parts[0]), spansAt(116.5, y, 10, parts[1])...)...))
	}
	got := elementTexts(normalizePDF(t, page(lines...)))
	want := []string{"td: Name:", "td: Ada", "td: Born:", "td: 1815", "td: City:", "td: London",
		"p: one two three four five six sev eight nine ten aaa bbb ccc ddd eee"}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPDFAlignedTable: rows whose cells line up in columns, with wide gaps
// between them, are a table; a bold first row is its header.
func TestPDFAlignedTable(t *testing.T) {
	row := func(y float64, bold bool, cells ...string) capture.PDFLine {
		var spans []capture.PDFSpan
		for i, c := range cells {
			s := spansAt(72+float64(i)*120, y, 10, c)
			for k := range s {
				if bold {
					s[k].Weight = 700
				}
			}
			spans = append(spans, s...)
		}
		return line(spans...)
	}
	p := page(
		textLine(72, 80, 10, "Loans per branch in October."),
		row(110, true, "Branch", "Books", "Films"),
		row(124, false, "Harbour Road", "1,204", "310"),
		row(138, false, "Mill Lane", "876", "122"),
		textLine(72, 170, 10, "Harbour Road lends the most."),
	)
	n := normalizePDF(t, p)
	got := elementTexts(n)
	want := []string{"p: Loans per branch in October.", "th: Branch", "th: Books", "th: Films",
		"td: Harbour Road", "td: 1,204", "td: 310", "td: Mill Lane", "td: 876", "td: 122", "p: Harbour Road lends the most."}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	g := graph.Build(n)
	tables := 0
	for _, b := range g.Blocks {
		if b.Type == graph.TypeTable {
			tables++
			if len(b.Rows) != 3 || len(b.Rows[0]) != 3 || !b.Rows[0][0].Header || b.Rows[1][1].Text != "1,204" {
				t.Errorf("table rows %+v", b.Rows)
			}
		}
	}
	if tables != 1 {
		t.Errorf("%d tables, want 1", tables)
	}
}

func TestPDFParagraphsByIndent(t *testing.T) {
	var lines []capture.PDFLine
	texts := []string{"First paragraph starts here and goes on", "and ends on this line.", "Second one is indented", "and runs on here"}
	for i, s := range texts {
		x := 72.0
		if i == 2 {
			x = 87
		}
		lines = append(lines, textLine(x, 100+float64(i)*12, 10, s))
	}
	got := elementTexts(normalizePDF(t, page(lines...)))
	want := []string{"p: First paragraph starts here and goes on and ends on this line.", "p: Second one is indented and runs on here"}
	if !slices.Equal(got, want) {
		t.Errorf("elements %q, want %q", got, want)
	}
}

func TestPDFHiddenText(t *testing.T) {
	alpha0 := 0
	mod := func(text string, x, y float64, f func(*capture.PDFSpan)) capture.PDFLine {
		s := spansAt(x, y, 10, text)
		for i := range s {
			f(&s[i])
		}
		return line(s...)
	}
	p := page(
		line(append(append(spansAt(72, 100, 10, "Visible start"), mod("secret words", 140, 100, func(s *capture.PDFSpan) { s.Render = 3 }).Spans...),
			spansAt(210, 100, 10, "visible end")...)...),
		mod("ghost line", 72, 200, func(s *capture.PDFSpan) { s.Alpha = &alpha0 }),
		mod("white on white", 72, 250, func(s *capture.PDFSpan) { s.Color = "#ffffff" }),
		mod("white on dark", 72, 300, func(s *capture.PDFSpan) { s.Color = "#ffffff" }),
		mod("black on black", 72, 350, func(s *capture.PDFSpan) { s.Color = "#010101" }),
		mod("far away", 700, 400, func(*capture.PDFSpan) {}),
		mod("tiny print", 72, 450, func(s *capture.PDFSpan) { s.Size = 0.5 }),
		mod("small print", 72, 500, func(s *capture.PDFSpan) { s.Size = 1.5 }),
	)
	p.Rects = []capture.PDFRect{
		{Box: capture.PDFBox{X: 60, Y: 285, W: 200, H: 20}, Fill: "#202020"},
		{Box: capture.PDFBox{X: 60, Y: 335, W: 200, H: 20}, Fill: "#000000"},
	}
	n := normalizePDF(t, p)
	got := elementTexts(n)
	want := []string{
		"p: Visible start | [pdf_invisible] secret words | visible end",
		"p: [pdf_transparent] ghost line",
		"p: [same_color] white on white",
		"p: white on dark",
		"p: [same_color] black on black",
		"p: [pdf_off_page] far away",
		"p: [pdf_tiny] tiny print",
		"p: [pdf_tiny] small print",
	}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, node := range n.Nodes {
		if node.Hidden != "" && (node.HiddenRule == "" || node.Box == nil || node.Page != 1) {
			t.Errorf("hidden node %+v lacks rule, box or page", node)
		}
		if node.Hidden == normalize.HiddenSameColor && strings.HasPrefix(node.Text, "white") && node.HiddenRule != "fill #ffffff on page background #ffffff" {
			t.Errorf("rule %q", node.HiddenRule)
		}
	}
	g := graph.Build(n)
	var content []string
	for _, b := range g.Blocks {
		content = append(content, b.Text)
	}
	if strings.Join(content, "\n") != "Visible start visible end\nwhite on dark" {
		t.Errorf("content blocks %q", content)
	}
	if len(g.Latent) != 7 {
		t.Errorf("latent %+v, want seven entries", g.Latent)
	}
}

// TestPDFHeadingLevels: levels are ranked over the document, so a page
// with only a second-rank heading does not make it level 1; bold body-size
// one-liners are the lowest level.
func TestPDFHeadingLevels(t *testing.T) {
	bold := func(l capture.PDFLine) capture.PDFLine {
		for i := range l.Spans {
			l.Spans[i].Weight = 700
		}
		return l
	}
	body := func(y float64) []capture.PDFLine { return column(72, y, 10, 400, 3, "Body") }
	p1 := page(append([]capture.PDFLine{textLine(72, 80, 20, "Big Title"), textLine(72, 130, 14, "Section")}, body(160)...)...)
	p2 := page(append([]capture.PDFLine{textLine(72, 80, 14, "Another Section"), bold(textLine(72, 120, 10, "Run-in heading"))}, body(150)...)...)
	n := normalizePDF(t, p1, p2)
	levels := map[string]int{}
	for _, node := range n.Nodes {
		if node.Level > 0 {
			levels[strings.TrimSpace(n.Nodes[node.ID+1].Text)] = node.Level
		}
	}
	want := map[string]int{"Big Title": 1, "Section": 2, "Another Section": 2, "Run-in heading": 3}
	for k, v := range want {
		if levels[k] != v {
			t.Errorf("levels %v, want %v", levels, want)
			break
		}
	}
}

func TestPDFLists(t *testing.T) {
	p := page(
		textLine(72, 100, 10, "Intro text before the list."),
		line(append(spansAt(80, 120, 10, "•"), spansAt(92, 120, 10, "first item that wraps")...)...),
		textLine(92, 132, 10, "onto a second line"),
		line(append(spansAt(80, 144, 10, "•"), spansAt(92, 144, 10, "second item")...)...),
		textLine(72, 170, 10, "1. Numbered one"),
		textLine(72, 182, 10, "2. Numbered two"),
		textLine(72, 210, 10, "- a dash line alone is a sentence."),
	)
	got := elementTexts(normalizePDF(t, p))
	want := []string{
		"p: Intro text before the list.",
		"li: first item that wraps onto a second line",
		"li: second item",
		"li: Numbered one",
		"li: Numbered two",
		"p: - a dash line alone is a sentence.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	n := normalizePDF(t, p)
	var lists []string
	for _, node := range n.Nodes {
		if node.Tag == "ul" || node.Tag == "ol" {
			lists = append(lists, node.Tag)
		}
	}
	if !slices.Equal(lists, []string{"ul", "ol"}) {
		t.Errorf("lists %v", lists)
	}
}

// TestPDFRuledTable: a grid of rules is a table; a missing vertical rule
// merges two cells; a bold first row is the header.
func TestPDFRuledTable(t *testing.T) {
	xs := []float64{72, 200, 330, 460}
	ys := []float64{100, 120, 140, 160}
	var rects []capture.PDFRect
	for _, y := range ys {
		rects = append(rects, capture.PDFRect{Box: capture.PDFBox{X: 72, Y: y - 0.25, W: 388, H: 0.5}, Stroke: "#000000"})
	}
	for i, x := range xs {
		for r := range 3 {
			if i == 2 && r == 1 { // row 2: columns 2 and 3 merge
				continue
			}
			rects = append(rects, capture.PDFRect{Box: capture.PDFBox{X: x - 0.25, Y: ys[r], W: 0.5, H: 20}, Stroke: "#000000"})
		}
	}
	var lines []capture.PDFLine
	header := line(append(append(spansAt(76, 114, 10, "Plant"), spansAt(204, 114, 10, "Count")...), spansAt(334, 114, 10, "Notes")...)...)
	for i := range header.Spans {
		header.Spans[i].Weight = 700
	}
	lines = append(lines, textLine(72, 80, 10, "Text above the table."), header,
		line(append(spansAt(76, 134, 10, "Tomato"), spansAt(204, 134, 10, "twelve plants in all")...)...),
		line(append(append(spansAt(76, 154, 10, "Bean"), spansAt(204, 154, 10, "40")...), spansAt(334, 154, 10, "late")...)...),
		textLine(72, 190, 10, "Text below the table."))
	p := page(lines...)
	p.Rects = rects
	n := normalizePDF(t, p)
	got := elementTexts(n)
	want := []string{"p: Text above the table.", "th: Plant", "th: Count", "th: Notes", "td: Tomato", "td: twelve plants in all", "td: Bean", "td: 40", "td: late", "p: Text below the table."}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, node := range n.Nodes {
		if node.Tag == "td" && n.Nodes[node.ID+1].Text == "twelve plants in all" && node.Attrs["colspan"] != "2" {
			t.Errorf("merged cell attrs %v box %+v", node.Attrs, node.Box)
		}
		if node.Tag == "table" && *node.Box != (normalize.Box{X: 72, Y: 100, W: 388, H: 60}) {
			t.Errorf("table box %+v", *node.Box)
		}
	}
	g := graph.Build(n)
	var table *graph.Block
	for i := range g.Blocks {
		if g.Blocks[i].Type == graph.TypeTable {
			table = &g.Blocks[i]
		}
	}
	if table == nil || len(table.Rows) != 3 || !table.Rows[0][0].Header || table.Rows[1][1].Colspan != 2 {
		t.Fatalf("table block %+v", table)
	}
}

func TestPDFTagged(t *testing.T) {
	id := func(v int) *int { return &v }
	tag := func(spans []capture.PDFSpan, mcid int) []capture.PDFSpan {
		for i := range spans {
			spans[i].MCID = id(mcid)
		}
		return spans
	}
	p := page(
		line(tag(spansAt(72, 80, 20, "Report"), 0)...),
		line(tag(spansAt(72, 120, 10, "Opening words."), 1)...),
		line(append(tag(spansAt(72, 140, 10, "1."), 2), tag(spansAt(90, 140, 10, "Wake"), 3)...)...),
		line(append(tag(spansAt(72, 152, 10, "2."), 4), tag(spansAt(90, 152, 10, "Work"), 5)...)...),
		line(append(append(tag(spansAt(72, 180, 10, "Key"), 6), tag(spansAt(200, 180, 10, "Value"), 7)...), tag(spansAt(330, 180, 10, "More"), 8)...)...),
		line(append(tag(spansAt(72, 194, 10, "Both"), 9), tag(spansAt(330, 194, 10, "x"), 10)...)...),
		line(tag(spansAt(72, 300, 10, "Stray tagged-less words."), 42)...),
		textLine(290, 770, 9, "Page 1"), // an artifact: no marked-content id
	)
	p.Tags = []capture.PDFTag{{Type: "Document", Kids: []capture.PDFTag{
		{Type: "H1", MCIDs: []int{0}},
		{Type: "Figure", Alt: "A chart of the year"},
		{Type: "P", MCIDs: []int{1}},
		{Type: "L", Attrs: map[string]string{"ListNumbering": "Decimal"}, Kids: []capture.PDFTag{
			{Type: "LI", Kids: []capture.PDFTag{{Type: "Lbl", MCIDs: []int{2}}, {Type: "LBody", MCIDs: []int{3}}}},
			{Type: "LI", Kids: []capture.PDFTag{{Type: "Lbl", MCIDs: []int{4}}, {Type: "LBody", MCIDs: []int{5}}}},
		}},
		{Type: "Table", Kids: []capture.PDFTag{
			{Type: "TR", Kids: []capture.PDFTag{{Type: "TH", MCIDs: []int{6}}, {Type: "TH", MCIDs: []int{7}}, {Type: "TH", MCIDs: []int{8}}}},
			{Type: "TR", Kids: []capture.PDFTag{{Type: "TD", MCIDs: []int{9}, Attrs: map[string]string{"ColSpan": "2"}}, {Type: "TD", MCIDs: []int{10}}}},
		}},
	}}}
	n := normalizePDF(t, p)
	got := elementTexts(n)
	want := []string{"h1: Report", "p: Opening words.", "li: Wake", "li: Work", "th: Key", "th: Value", "th: More", "td: Both", "td: x", "p: Stray tagged-less words.", "p: Page 1"}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var tags []string
	for _, node := range n.Nodes {
		switch node.Tag {
		case "ol", "ul", "figure", "footer", "table":
			tags = append(tags, node.Tag)
		case "img":
			if node.Attrs["alt"] != "A chart of the year" {
				t.Errorf("img attrs %v", node.Attrs)
			}
		case "td":
			if n.Nodes[node.ID+1].Text == "Both" && node.Attrs["colspan"] != "2" {
				t.Errorf("td attrs %v", node.Attrs)
			}
		}
	}
	if !slices.Equal(tags, []string{"figure", "ol", "table", "footer"}) {
		t.Errorf("structure %v", tags)
	}
	g := graph.Build(n)
	for _, b := range g.Blocks {
		if b.Text == "Page 1" && b.Role == "content" {
			t.Errorf("artifact %q is content", b.Text)
		}
	}
}

// TestPDFPageError: a page that could not be read is an empty section
// that says why.
func TestPDFPageError(t *testing.T) {
	bad := page()
	bad.Error = "page could not be loaded"
	n := normalizePDF(t, page(textLine(72, 100, 10, "Fine page.")), bad)
	var sec normalize.Node
	for _, node := range n.Nodes {
		if node.Tag == "section" && node.Page == 2 {
			sec = node
		}
		if node.Parent == sec.ID && sec.Page == 2 {
			t.Errorf("failed page has child %+v", node)
		}
	}
	if sec.Attrs["data-error"] != "page could not be loaded" || sec.Attrs["id"] != "p0002" || sec.Box == nil {
		t.Errorf("failed page section %+v", sec)
	}
}

// TestPDFTableNotColumns: a table whose columns are several words wide
// has gutter-wide gaps inside its rows, so the XY-cut does not read it as
// two columns of text; it reads row by row, as a table.
func TestPDFTableNotColumns(t *testing.T) {
	var lines []capture.PDFLine
	cells := [][]string{
		{"north field one", "apples and pears", "picked in june", "sold at market"},
		{"south field two", "plums and damsons", "picked in july", "kept for jam"},
		{"east field three", "cherries and figs", "picked in may", "sent to town"},
		{"west field four", "quinces and sloes", "picked in october", "given away free"},
	}
	for r, row := range cells {
		var spans []capture.PDFSpan
		for c, text := range row {
			spans = append(spans, spansAt(72+float64(c)*130, 100+float64(r)*14, 10, text)...)
		}
		lines = append(lines, line(spans...))
	}
	n := normalizePDF(t, page(lines...))
	got := elementTexts(n)
	if len(got) != 16 || got[0] != "td: north field one" || got[4] != "td: south field two" || got[15] != "td: given away free" {
		t.Errorf("elements:\n%s", strings.Join(got, "\n"))
	}
}

// TestPDFPaintUnder: white text on a dark page-sized background shows;
// black text inside the box of a tall filled drawing (a curve, not a
// background) shows; black text on a black bar one line tall does not.
func TestPDFPaintUnder(t *testing.T) {
	white := textLine(72, 100, 10, "white on a dark page")
	for i := range white.Spans {
		white.Spans[i].Color = "#ffffff"
	}
	p := page(white, textLine(72, 300, 10, "label in a drawing"), textLine(72, 500, 10, "redacted words here"))
	p.Rects = []capture.PDFRect{
		{Box: capture.PDFBox{W: pageW, H: pageH}, Fill: "#102030"},
		{Box: capture.PDFBox{X: 60, Y: 200, W: 300, H: 200}, Fill: "#000000"},
		{Box: capture.PDFBox{X: 70, Y: 490, W: 200, H: 14}, Fill: "#000000"},
	}
	got := elementTexts(normalizePDF(t, p))
	want := []string{"p: white on a dark page", "p: label in a drawing", "p: [same_color] redacted words here"}
	if !slices.Equal(got, want) {
		t.Errorf("elements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestPDFCodeListingNotColumns: a code listing whose short trailing
// tokens ("{", "5));") sit after wide monospaced spaces at the same x on
// two rows is read row by row, not as a narrow right column
// (code_and_formula in ../shared/bench/pdf-real lost its order so).
func TestPDFCodeListingNotColumns(t *testing.T) {
	const size = 9
	lines := []capture.PDFLine{
		line(append(spansAt(135, 372, size, "function add(a, b)"), spansAt(229, 372, size, "{")...)...),
		textLine(157, 384, size, "return a + b;"),
		textLine(135, 394, size, "}"),
		line(append(spansAt(135, 405, size, "console.log (add (3,"), spansAt(229, 405, size, "5) ) ;")...)...),
	}
	got := elementTexts(normalizePDF(t, page(lines...)))
	text := strings.Join(got, " ")
	if !strings.Contains(text, "function add(a, b) {") || strings.Index(text, "{") > strings.Index(text, "return") ||
		!strings.Contains(text, "(add (3, 5))") {
		t.Errorf("code listing out of order:\n%s", strings.Join(got, "\n"))
	}
}

// TestPDFCJKNoInventedSpaces: Chinese words PDFium split after full-width
// punctuation, and a paragraph's lines, join without spaces; a Latin
// word or number beside Han keeps its space.
func TestPDFCJKNoInventedSpaces(t *testing.T) {
	got := elementTexts(normalizePDF(t, page(
		textLine(72, 100, 10, "公司董事会、 监事会及董事、 监事"),
		textLine(72, 114, 10, "保证季度报告内容的真实 2018 年"),
	)))
	want := []string{"p: 公司董事会、监事会及董事、监事保证季度报告内容的真实 2018 年"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPDFRightToLeft: an Arabic line, whose words lie left to right on
// the page in display order, reads right to left; a run of numbers and
// Latin inside it keeps its own order; presentation forms (U+FExx) come
// out as the letters they show (NFKC).
func TestPDFRightToLeft(t *testing.T) {
	got := elementTexts(normalizePDF(t, page(
		textLine(72, 100, 10, "نص 2024 ABC بالعالم \ufee3\ufeae\ufea3\ufe92\ufe8e"),
		textLine(72, 114, 10, "Latin stays left to right"),
	)))
	want := []string{"p: مرحبا بالعالم 2024 ABC نص Latin stays left to right"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
