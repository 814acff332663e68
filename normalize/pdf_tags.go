package normalize

import (
	"slices"
	"strconv"
	"strings"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// inlineTags are the structure types that are part of their parent's
// text: at block level a run of them makes a paragraph.
var inlineTagTypes = map[string]bool{
	"Span": true, "Link": true, "Reference": true, "Quote": true, "Code": true, "Em": true, "Strong": true,
	"Annot": true, "Ruby": true, "RB": true, "RT": true, "RP": true, "Warichu": true, "WT": true, "WP": true,
	"Sub": true, "BibEntry": true, "Lbl": true,
}

// paraTagTypes are the block structure types read as one paragraph.
var paraTagTypes = map[string]bool{
	"P": true, "Caption": true, "Note": true, "Formula": true, "TOCI": true, "Form": true, "Index": true,
}

// orderedNumbering are the /ListNumbering values of numbered lists.
var orderedNumbering = map[string]bool{
	"Decimal": true, "UpperRoman": true, "LowerRoman": true, "UpperAlpha": true, "LowerAlpha": true,
}

// readTagged builds a tagged page's body from its structure tree in tag
// order, joined to the words by marked-content id. Words without an id
// are artifacts (running headers, footers, page numbers, decorations):
// chrome, a header above the page's middle and a footer below it. Words
// whose id no tag claims are read geometrically after the tagged body.
// A page whose tags claim no word is read as untagged.
func readTagged(p *pdfPage) {
	tb := &tagBuilder{byMCID: map[int][]*pdfWord{}, claimed: map[int]bool{}}
	for i := range p.words {
		if w := &p.words[i]; w.mcid >= 0 {
			tb.byMCID[w.mcid] = append(tb.byMCID[w.mcid], w)
		}
	}
	for i := range p.info.Tags {
		p.tagged = append(p.tagged, tb.block(&p.info.Tags[i])...)
	}
	if len(p.tagged) == 0 {
		p.tagged = nil
		p.tables = ruledTables(p.info.Rects, p.words)
		p.blocks = layoutBlocks(bodyWords(p, nil), p.tables)
		return
	}
	var head, foot, rest []*pdfWord
	for i := range p.words {
		w := &p.words[i]
		switch {
		case w.mcid >= 0 && tb.claimed[w.mcid]:
		case w.mcid < 0 && w.box.Y+w.box.H/2 <= p.info.Height/2:
			head = append(head, w)
		case w.mcid < 0:
			foot = append(foot, w)
		default:
			rest = append(rest, w)
		}
	}
	p.header, p.footer = wordRows(head), wordRows(foot)
	p.blocks = layoutBlocks(rest, nil)
}

// tagBuilder turns structure elements into elements.
type tagBuilder struct {
	byMCID  map[int][]*pdfWord // words of each marked-content id, in capture order
	claimed map[int]bool       // ids some element has taken
}

// block is the elements one structure element gives at block level.
func (tb *tagBuilder) block(t *capture.PDFTag) []*pdfEl {
	typ := t.Type
	if lv := tagHeading(typ); lv > 0 {
		return tb.textEl("h"+strconv.Itoa(lv), t, lv)
	}
	switch {
	case paraTagTypes[typ] || inlineTagTypes[typ]:
		return tb.textEl("p", t, 0)
	case typ == "BlockQuote":
		return wrap("blockquote", tb.textEl("p", t, 0))
	case typ == "L":
		return tb.list(t)
	case typ == "Table":
		return tb.table(t)
	case typ == "Figure":
		return tb.figure(t)
	}
	return tb.container(t)
}

// tagHeading is the heading level of a structure type: H1–H6 (deeper
// levels are 6), H and Title.
func tagHeading(typ string) int {
	switch typ {
	case "Title":
		return 1
	case "H":
		return 2
	}
	if len(typ) >= 2 && typ[0] == 'H' {
		if n, err := strconv.Atoi(typ[1:]); err == nil && n >= 1 {
			return min(n, 6)
		}
	}
	return 0
}

func wrap(tag string, kids []*pdfEl) []*pdfEl {
	if len(kids) == 0 {
		return nil
	}
	return []*pdfEl{{tag: tag, kids: kids}}
}

// container reads a grouping element (Document, Part, Sect, Div, Art,
// NonStruct…): its own content and runs of inline kids become paragraphs,
// block kids their own elements.
func (tb *tagBuilder) container(t *capture.PDFTag) []*pdfEl {
	var out []*pdfEl
	pending := slices.Clone(t.MCIDs)
	flush := func() {
		if el := tb.textOf("p", pending, "", 0); el != nil {
			out = append(out, el)
		}
		pending = nil
	}
	for i := range t.Kids {
		k := &t.Kids[i]
		if inlineTagTypes[k.Type] {
			pending = append(pending, subtreeMCIDs(k, nil)...)
			continue
		}
		flush()
		out = append(out, tb.block(k)...)
	}
	flush()
	return out
}

// textEl is an element whose text is all the content under t.
func (tb *tagBuilder) textEl(tag string, t *capture.PDFTag, level int) []*pdfEl {
	if el := tb.textOf(tag, subtreeMCIDs(t, nil), actualText(t), level); el != nil {
		return []*pdfEl{el}
	}
	return nil
}

func actualText(t *capture.PDFTag) string { return strings.TrimSpace(t.ActualText) }

// textOf makes an element of the words of the given ids in id order
// (content order), or nil when they have none. actual, when set,
// replaces the words' text.
func (tb *tagBuilder) textOf(tag string, ids []int, actual string, level int) *pdfEl {
	words := tb.take(ids)
	if len(words) == 0 {
		return nil
	}
	if actual != "" {
		words = []*pdfWord{replaced(words, actual)}
	}
	return &pdfEl{tag: tag, level: level, lines: streamLines(words)}
}

// take claims ids (sorted, each once) and returns their words.
func (tb *tagBuilder) take(ids []int) []*pdfWord {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var out []*pdfWord
	for _, id := range ids {
		if tb.claimed[id] {
			continue
		}
		tb.claimed[id] = true
		out = append(out, tb.byMCID[id]...)
	}
	return out
}

// replaced is one word carrying an element's /ActualText over the box of
// the words it replaces; hidden only when all of them are.
func replaced(words []*pdfWord, text string) *pdfWord {
	w := *words[0]
	w.text = text
	for _, x := range words[1:] {
		w.box = union(w.box, x.box)
		if w.hidden != "" && x.visible() {
			w.hidden, w.rule = "", ""
		}
	}
	if w.hidden != "" {
		for _, x := range words {
			if x.visible() {
				w.hidden, w.rule = "", ""
			}
		}
	}
	return &w
}

// subtreeMCIDs appends the ids of t and its descendants.
func subtreeMCIDs(t *capture.PDFTag, out []int) []int {
	out = append(out, t.MCIDs...)
	for i := range t.Kids {
		out = subtreeMCIDs(&t.Kids[i], out)
	}
	return out
}

// streamLines cuts words in content order into lines: a word starts a new
// line when it is not on the previous word's row, or lies left of it in
// a row without right-to-left letters (Arabic and Hebrew run leftwards in
// content order, and so do the numbers and dashes between them). A line
// with right-to-left letters is put left to right, as the layout's lines
// are, for logicalWords to read.
func streamLines(words []*pdfWord) []*pdfLine {
	var out []*pdfLine
	start := 0
	for i := 1; i <= len(words); i++ {
		if i < len(words) && sameRow(words[i-1].box, words[i].box) {
			continue
		}
		out = append(out, rowLines(words[start:i])...)
		start = i
	}
	return out
}

// rowLines cuts a run of words on one row (content order) into lines.
func rowLines(row []*pdfWord) []*pdfLine {
	if slices.ContainsFunc(row, func(w *pdfWord) bool { r, _ := directionCounts(w.text); return r > 0 }) {
		row = slices.Clone(row)
		sortWords(row)
		return []*pdfLine{newLine(row)}
	}
	var out []*pdfLine
	start := 0
	for i := 1; i <= len(row); i++ {
		if i < len(row) && row[i].box.X >= row[i-1].box.X-max(row[i-1].size, 1) {
			continue
		}
		out = append(out, newLine(row[start:i:i]))
		start = i
	}
	return out
}

// list reads L: ul, or ol when /ListNumbering is a numbering or the first
// label is an enumerator. Labels (the bullets and numbers) are left out:
// the list says what they were.
func (tb *tagBuilder) list(t *capture.PDFTag) []*pdfEl {
	el := &pdfEl{tag: "ul"}
	label := ""
	for i := range t.Kids {
		k := &t.Kids[i]
		switch k.Type {
		case "LI":
			li := &pdfEl{tag: "li"}
			tb.listItem(k, li, &label)
			if len(li.lines) > 0 || len(li.kids) > 0 {
				el.kids = append(el.kids, li)
			}
		case "L":
			if n := len(el.kids); n > 0 {
				el.kids[n-1].kids = append(el.kids[n-1].kids, tb.list(k)...)
			} else {
				el.kids = append(el.kids, &pdfEl{tag: "li", kids: tb.list(k)})
			}
		default:
			el.kids = append(el.kids, wrap("li", tb.block(k))...)
		}
	}
	if orderedNumbering[t.Attrs["ListNumbering"]] || enumerator().MatchString(label) {
		el.tag = "ol"
	}
	if len(el.kids) == 0 {
		return nil
	}
	return []*pdfEl{el}
}

// listItem fills li from LI: its text is the content under it except the
// label and nested lists, which become its children.
func (tb *tagBuilder) listItem(t *capture.PDFTag, li *pdfEl, label *string) {
	ids := slices.Clone(t.MCIDs)
	var nested []*capture.PDFTag
	var walk func(k *capture.PDFTag)
	walk = func(k *capture.PDFTag) {
		for i := range k.Kids {
			c := &k.Kids[i]
			switch c.Type {
			case "Lbl":
				if lbl := tb.labelText(c); *label == "" {
					*label = lbl
				}
			case "L":
				nested = append(nested, c)
			default:
				ids = append(ids, c.MCIDs...)
				walk(c)
			}
		}
	}
	walk(t)
	if el := tb.textOf("li", ids, "", 0); el != nil {
		li.lines = el.lines
	}
	for _, n := range nested {
		li.kids = append(li.kids, tb.list(n)...)
	}
}

// labelText claims a label's content and returns its visible text.
func (tb *tagBuilder) labelText(t *capture.PDFTag) string {
	var parts []string
	for _, w := range tb.take(subtreeMCIDs(t, nil)) {
		if w.visible() {
			parts = append(parts, w.text)
		}
	}
	return strings.Join(parts, "")
}

// table reads Table: table, thead/tbody/tfoot, tr, th/td with their
// RowSpan and ColSpan, and a caption.
func (tb *tagBuilder) table(t *capture.PDFTag) []*pdfEl {
	el := &pdfEl{tag: "table"}
	for i := range t.Kids {
		k := &t.Kids[i]
		switch k.Type {
		case "THead", "TBody", "TFoot":
			sec := &pdfEl{tag: strings.ToLower(k.Type)}
			for j := range k.Kids {
				if r := tb.row(&k.Kids[j]); r != nil {
					sec.kids = append(sec.kids, r)
				}
			}
			el.kids = append(el.kids, sec)
		case "TR":
			if r := tb.row(k); r != nil {
				el.kids = append(el.kids, r)
			}
		case "Caption":
			el.kids = append(el.kids, tb.textEl("caption", k, 0)...)
		default:
			tb.take(subtreeMCIDs(k, nil)) // stray content: not a cell
		}
	}
	if len(el.kids) == 0 {
		return nil
	}
	return []*pdfEl{el}
}

// row reads TR.
func (tb *tagBuilder) row(t *capture.PDFTag) *pdfEl {
	if t.Type != "TR" {
		tb.take(subtreeMCIDs(t, nil))
		return nil
	}
	tr := &pdfEl{tag: "tr"}
	for i := range t.Kids {
		k := &t.Kids[i]
		if k.Type != "TH" && k.Type != "TD" {
			continue
		}
		cell := &pdfEl{tag: strings.ToLower(k.Type), attrs: spanAttrs(atoi(k.Attrs["RowSpan"]), atoi(k.Attrs["ColSpan"]))}
		if el := tb.textOf(cell.tag, subtreeMCIDs(k, nil), actualText(k), 0); el != nil {
			cell.lines = el.lines
		}
		tr.kids = append(tr.kids, cell)
	}
	return tr
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return n
}

// figure reads Figure: a figure with an img carrying /Alt, and the text
// drawn inside it as a paragraph.
func (tb *tagBuilder) figure(t *capture.PDFTag) []*pdfEl {
	el := &pdfEl{tag: "figure"}
	img := &pdfEl{tag: "img"}
	if alt := strings.TrimSpace(t.Alt); alt != "" {
		img.attrs = map[string]string{"alt": alt}
	}
	el.kids = append(el.kids, img)
	words := tb.take(subtreeMCIDs(t, nil))
	if len(words) > 0 {
		el.kids = append(el.kids, &pdfEl{tag: "p", lines: streamLines(words)})
	}
	if img.attrs == nil && len(words) == 0 {
		return nil
	}
	return []*pdfEl{el}
}
