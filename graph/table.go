package graph

import (
	"strings"
	"unicode/utf8"
)

// dataTable tells a table of data from a table used for page layout. Layout
// tables are walked like any other container.
func (b *builder) dataTable(i int) bool {
	t := b.t
	role := t.attr(i, "role")
	if role == "presentation" || role == "none" {
		return false
	}
	rows, _, _ := b.tableRows(i)
	if len(rows) == 0 {
		return false
	}
	maxCells := 0
	for _, r := range rows {
		maxCells = max(maxCells, len(r))
	}
	if maxCells < 2 && len(rows) < 2 {
		return false
	}
	layout := false
	var scan func(int)
	scan = func(j int) {
		for _, c := range t.children[j] {
			switch tag := t.nodes[c].Tag; {
			case tag == "table", headingTag(tag), tag == "article", tag == "nav", tag == "section",
				tag == "form", tag == "main", tag == "aside", tag == "header", tag == "footer":
				layout = true
				return
			}
			scan(c)
			if layout {
				return
			}
		}
	}
	for _, r := range rows {
		for _, c := range r {
			scan(c)
			if !layout && utf8.RuneCountInString(t.textOf(c)) > 400 {
				layout = true
			}
			if layout {
				return false
			}
		}
	}
	return maxCells >= 2
}

// tableRows returns the cell elements of each row of table i, not
// descending into nested tables, in the order a browser shows them: the
// first <thead>'s rows first, the first <tfoot>'s rows last, the other
// rows in document order between them. head and foot count those rows.
func (b *builder) tableRows(i int) (rows [][]int, head, foot int) {
	t := b.t
	var heads, body, feet [][]int
	var walk func(j int, dst *[][]int)
	walk = func(j int, dst *[][]int) {
		for _, c := range t.children[j] {
			n := &t.nodes[c]
			switch n.Tag {
			case "tr":
				if t.hidden(c) {
					continue
				}
				var cells []int
				for _, d := range t.children[c] {
					if tag := t.nodes[d].Tag; tag == "td" || tag == "th" {
						cells = append(cells, d)
					}
				}
				if len(cells) > 0 {
					*dst = append(*dst, cells)
				}
			case "thead", "tbody", "tfoot":
				into := dst
				switch {
				case j != i:
					// A group inside a group is not HTML; its rows stay where they are.
				case n.Tag == "thead" && !seen(t, i, c, "thead"):
					into = &heads
				case n.Tag == "tfoot" && !seen(t, i, c, "tfoot"):
					into = &feet
				}
				walk(c, into)
			}
		}
	}
	walk(i, &body)
	rows = append(append(append(rows, heads...), body...), feet...)
	return rows, len(heads), len(feet)
}

// seen reports a child of table i before c with the tag: only the first
// <thead> and <tfoot> of a table are its header and footer.
func seen(t *tree, i, c int, tag string) bool {
	for _, k := range t.children[i] {
		if k == c {
			return false
		}
		if t.nodes[k].Tag == tag {
			return true
		}
	}
	return false
}

// tableBlock emits a data table as one block with rows and cells; its
// caption comes first as a paragraph. Links inside cells are recorded.
func (b *builder) tableBlock(i int) {
	t := b.t
	b.flush()
	for _, c := range t.children[i] {
		if t.nodes[c].Tag == "caption" && !t.hidden(c) {
			if cap := t.textOf(c); cap != "" {
				k := b.emit(owner{node: c, typ: TypeParagraph}, cap, 0)
				b.blocks[k].zone = b.zone()
			}
		}
	}
	var rows [][]Cell
	var lines []string
	linksBefore := len(b.links)
	cells, head, foot := b.tableRows(i)
	for ri, r := range cells {
		var row []Cell
		var texts []string
		inHead, inFoot := ri < head, ri >= len(cells)-foot
		for _, c := range r {
			n := &t.nodes[c]
			b.cellExtras(c)
			cell := Cell{Text: b.cellText(c), Header: n.Tag == "th" || inHead, Footer: inFoot, Box: pdfCellBox(t, i, c)}
			if v := atoiDefault(n.Attrs["colspan"], 1); v > 1 {
				cell.Colspan = min(v, 1000)
			}
			if v := atoiDefault(n.Attrs["rowspan"], 1); v > 1 {
				cell.Rowspan = min(v, 1000)
			}
			cell.Inline = b.cellInline(c, cell.Text)
			row = append(row, cell)
			texts = append(texts, cell.Text)
		}
		rows = append(rows, row)
		lines = append(lines, strings.Join(texts, " | "))
	}
	text := strings.TrimSpace(strings.Join(lines, "\n"))
	if text == "" {
		return
	}
	k := b.emit(owner{node: i, typ: TypeTable}, text, 0)
	b.blocks[k].zone = b.zone()
	b.blocks[k].Rows = rows
	for l := linksBefore; l < len(b.links); l++ {
		b.links[l].block = k
		b.blocks[k].linkChars += utf8.RuneCountInString(b.links[l].Text)
	}
}

// cellExtras records what a cell holds besides text: links, media,
// controls and hidden text. The cell's own text is read separately.
func (b *builder) cellExtras(c int) {
	t := b.t
	var walk func(int)
	walk = func(j int) {
		n := &t.nodes[j]
		if n.Hidden != "" {
			b.addLatent(j)
			return
		}
		switch n.Tag {
		case "#text":
			return
		case "a":
			if href := n.Attrs["href"]; href != "" && !strings.HasPrefix(strings.ToLower(href), "javascript:") {
				l := posLink{pos: len(b.blocks), block: -1, zone: b.zone()}
				l.Text = firstNonEmpty(t.textOf(j), n.Attrs["aria-label"], n.Attrs["title"], b.imgAlt(j))
				l.Href, l.Rel, l.External = href, n.Attrs["rel"], external(b.base, href)
				b.links = append(b.links, l)
			}
		case "img", "video", "audio", "iframe", "canvas":
			m := posMedia{pos: len(b.blocks), block: -1, zone: b.zone()}
			m.Type, m.Src = mediaType(n.Tag), n.Attrs["src"]
			m.Description = firstNonEmpty(n.Attrs["alt"], n.Attrs["aria-label"], n.Attrs["title"])
			b.media = append(b.media, m)
			return
		}
		for _, k := range t.children[j] {
			walk(k)
		}
	}
	walk(c)
}
