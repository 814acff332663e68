package graph

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// What a block's text says about it relative to the rest of the page,
// applied after the container decision: a heading that repeats the page
// title (the record's title field carries it), short text the page repeats
// elsewhere (gallery captions, "Share", "Advertisement"), and the short
// lines at the edges of the content (bylines, dates, credits, "Tags:",
// "You may also like…") that sit before the article's first paragraph or
// after its last. Linear in the number of blocks.

// repeatMaxChars bounds the text that counts as a repeated line: long
// paragraphs are never dropped for repeating.
const repeatMaxChars = 200

// edgeMaxChars is the longest line trimmed at the content's edges, and
// proseMinChars the least a paragraph needs to count as the article's
// prose (the edges are measured from the first and last such paragraph).
const (
	edgeMaxChars  = 80
	proseMinChars = 120
)

// textSignals relabels content blocks whose text marks them as chrome.
func (b *builder) textSignals() {
	title := textnorm.Key(b.pageTitle())
	// seen counts a short line's copies; inChrome marks lines the page
	// also shows in its chrome (a headline repeated in a teaser list). A
	// copy that is chrome only for being a link (a product name linked
	// once in the article) does not make the plain copies chrome.
	seen := make(map[string]int, len(b.blocks))
	inChrome := make(map[string]bool)
	for i := range b.blocks {
		if d := &b.blocks[i]; utf8.RuneCountInString(d.Text) <= repeatMaxChars && d.Type != TypeHeading {
			key := textnorm.Key(d.Text)
			seen[key]++
			inChrome[key] = inChrome[key] || (d.Role != "content" && d.Chrome != "link_list")
		}
	}
	kept := make(map[string]bool)
	// keptAt is the number of headings before a kept line's last copy: a
	// copy under a later heading is a plan or a menu that repeats itself
	// section by section, not a slide's caption.
	keptAt := make(map[string]int)
	keptNode := make(map[string]int) // the element of a kept line's first copy
	headings := 0
	for i := range b.blocks {
		d := &b.blocks[i]
		if d.Type == TypeHeading {
			headings++
		}
		if d.Role != "content" {
			continue
		}
		key := textnorm.Key(d.Text)
		short := d.Type != TypeHeading && utf8.RuneCountInString(d.Text) <= repeatMaxChars
		switch {
		case (d.Type == TypeHeading || d.Type == TypeMedia) && repeatsTitle(key, title):
			d.Role, d.Chrome, d.Reason = "chrome", "title", "repeats the page title (the record's title field)"
		case !b.pdf && d.Type != TypeHeading && kept[key] && keptAt[key] == headings && utf8.RuneCountInString(d.Text) >= dupMinChars && !b.authoredParagraph(d, keptNode[key]):
			// A sentence-long line the content already showed: a gallery's
			// caption repeated per slide. A document's paragraphs say what
			// they say as often as they say it, and so does an article's
			// long <p>.
			d.Role, d.Chrome, d.Reason = "chrome", "repeated", "repeats an earlier content block word for word"
		case !b.pdf && bareURL(d.Text): // a PDF prints its URLs as text
			d.Role, d.Chrome, d.Reason = "chrome", "url", "a bare URL (a permalink or share target)"
		case short && seen[key] > 1 && ((inChrome[key] && utf8.RuneCountInString(d.Text) <= chromeRepeatMaxChars) || (d.Type == TypeMedia && kept[key])):
			// A line the chrome also shows is the chrome's; repeated image
			// text keeps its first copy. Lines the article itself repeats
			// (a schedule, a recipe) stay.
			d.Role, d.Chrome, d.Reason = "chrome", "repeated", "short text the page repeats ("+itoa(seen[key])+" times)"
		case short || d.Type != TypeHeading:
			kept[key], keptAt[key] = true, headings
			if _, ok := keptNode[key]; !ok {
				keptNode[key] = d.node
			}
		}
	}
	if b.pdf {
		return // a PDF's pages are the document, edges too: no site around it leaves teasers or edge lines
	}
	b.teasers()
	b.trimEdges()
}

// chromeRepeatMaxChars bounds the content lines that go to the chrome
// for repeating a chrome line: a longer one is the article's lede that a
// teaser elsewhere on the page quotes.
const chromeRepeatMaxChars = 100

// dupMinChars is the least text a content block needs for a second copy of
// it to count as a repeat: shorter lines (a schedule's times, a recipe's
// "1 egg") legitimately recur.
const dupMinChars = 80

// authoredParagraph reports whether d is a long paragraph outside any
// figure or list: a paragraph the author wrote, which a second copy does
// not make a caption (gallery captions repeat in divs, list items and
// figcaptions). That is a <p>, or a <div> holding only its text beside
// its first copy (first, the element of that copy) in the same parent:
// the same paragraph written twice in a row.
func (b *builder) authoredParagraph(d *draft, first int) bool {
	if d.node < 0 || d.Type != TypeParagraph || utf8.RuneCountInString(d.Text) <= repeatMaxChars {
		return false
	}
	switch n := &b.t.nodes[d.node]; {
	case n.Tag == "p":
	case n.Tag == "div" && ownsText(b.t, d.node) && first >= 0 && b.t.nodes[first].Parent == n.Parent:
	default:
		return false
	}
	for i := b.t.nodes[d.node].Parent; i >= 0; i = b.t.nodes[i].Parent {
		switch b.t.nodes[i].Tag {
		case "figure", "figcaption", "li", "dd":
			return false
		}
	}
	return true
}

// bareURL reports whether a block's text is one http(s) URL and nothing
// else.
func bareURL(s string) bool {
	s = strings.TrimSpace(s)
	return (strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) && !strings.ContainsAny(s, " \t\n")
}

// repeatsTitle reports whether a heading's key is the page title or the
// headline part of it ("Headline | Site").
func repeatsTitle(key, title string) bool {
	if title == "" || key == "" || len(strings.Fields(key)) < 3 {
		return false
	}
	return key == title || strings.HasPrefix(title, key) || strings.HasSuffix(title, key)
}

// trimEdges marks short non-prose blocks before the first and after the
// last prose paragraph of the content as chrome.
func (b *builder) trimEdges() {
	first, last := -1, -1
	for i := range b.blocks {
		if d := &b.blocks[i]; d.Role == "content" && isProse(d) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		b.trimHeadings(len(b.blocks), -1)
		return
	}
	b.trimIslands()
	// Parts of one element's text (a <p> split by <br><br>) go together:
	// a short part beside a longer kept one is an item of the same list.
	long := b.partsOfLongRuns()
	edge := make([]bool, len(b.blocks))
	for i := range b.blocks {
		d := &b.blocks[i]
		if d.Role != "content" || d.node < 0 || (i >= first && i <= last) || long[i] || b.inRecipe != nil && b.inRecipe[i] {
			continue
		}
		if d.Type == TypeHeading || d.Type == TypeListItem || b.t.nodes[d.node].Tag == "summary" {
			continue // a section's heading, a list the article ends with, a panel's label
		}
		edge[i] = edgeLine(d) && !(i > last && b.signOff(last, i)) && !b.introducesContent(i)
	}
	amid := b.amidText(edge)
	for i := range b.blocks {
		if !edge[i] || i < first && amid[i] {
			continue
		}
		where := "before the first"
		if i > last {
			where = "after the last"
		}
		d := &b.blocks[i]
		d.Role, d.Chrome, d.Reason = "chrome", "edge", "short line "+where+" paragraph of the content"
	}
	b.trimCards(first)
	b.trimAfterComments(first)
	b.trimHeadings(first, last)
}

// trimHeadings marks headings that head no content as chrome. After the
// article's last paragraph (last, -1 when the content has no prose), a
// heading that is all link (a teaser's title) or heads nothing left in
// the content ("You may also like…" over a teaser list that is chrome)
// goes with what it headed. Anywhere, a short heading whose box holds
// only chrome (a "Read also" box of links inside the article) goes with
// the box, and one that heads only chrome (a "More on this" over a link
// list, a wiki's menu heading) goes with it, unless it stands before the
// first paragraph (first; all of them do when the content has no prose)
// and holds a sentence: a lede set as a heading over the byline. A short
// label line in a box of chrome ("Most read" over a list of links) goes
// with the box like a heading, unless it is a figure's caption.
func (b *builder) trimHeadings(first, last int) {
	for i := len(b.blocks) - 1; i >= 0; i-- {
		d := &b.blocks[i]
		if d.Role == "content" && d.Type == TypeParagraph && edgeLine(d) && !b.inCaption(d.node) && b.groupOfChrome(i) {
			d.Role, d.Chrome, d.Reason = "chrome", "edge", "short line in a box that holds only chrome"
		}
		if d.Role != "content" || d.Type != TypeHeading {
			continue
		}
		chars := utf8.RuneCountInString(d.Text)
		content, chrome := b.headed(i)
		switch {
		case last >= 0 && i > last && d.linkChars >= chars:
			d.Role, d.Chrome, d.Reason = "chrome", "edge", "linked heading after the last paragraph of the content (a teaser's title)"
		case last >= 0 && i > last && !content:
			d.Role, d.Chrome, d.Reason = "chrome", "edge", "heading after the last paragraph of the content, with no content under it"
		case chars < longHeadingChars && b.groupOfChrome(i):
			d.Role, d.Chrome, d.Reason = "chrome", "edge", "heading of a box that holds only chrome"
		case !content && chrome && (i > first || chars < longHeadingChars):
			d.Role, d.Chrome, d.Reason = "chrome", "edge", "heading over chrome only (what it heads is not content)"
		}
	}
}

// amidText marks the edge lines (edge) that have text the content keeps
// on both sides, other edge lines and images between not counting: a line
// inside an article that opens with short items ("Fast", "For top
// dollar", "Why?", then the reasons), not its byline or date. Two passes,
// linear in the blocks.
func (b *builder) amidText(edge []bool) []bool {
	n := len(b.blocks)
	after, amid := make([]bool, n), make([]bool, n)
	kept := false // the nearest block that is neither an edge line nor an image is kept text
	for i := n - 1; i >= 0; i-- {
		if edge[i] {
			after[i] = kept
		} else if d := &b.blocks[i]; d.Type != TypeMedia {
			kept = d.Role == "content" && keptText(d.Type)
		}
	}
	kept = false
	for i := range n {
		if edge[i] {
			amid[i] = kept && after[i]
		} else if d := &b.blocks[i]; d.Type != TypeMedia {
			kept = d.Role == "content" && keptText(d.Type)
		}
	}
	return amid
}

// keptText is a block type that carries the article's text.
func keptText(typ string) bool {
	switch typ {
	case TypeParagraph, TypeListItem, TypeQuote, TypeTable, TypeCode:
		return true
	}
	return false
}

// signOff reports whether block i, after the content's last prose block
// last, is a <p> beside it in the same parent with only such blocks
// between: the author's sign-off or closing line, written as the article's
// last paragraph ("x Franzi", "See you soon!").
func (b *builder) signOff(last, i int) bool {
	t := b.t
	p := t.nodes[b.blocks[last].node].Parent
	for k := last + 1; k <= i; k++ {
		n := b.blocks[k].node
		if n < 0 || t.nodes[n].Tag != "p" || t.nodes[n].Parent != p || b.blocks[k].Role != "content" {
			return false
		}
	}
	// A label ("More topics:", "Credits : …") or an agency credit
	// ("aja/PAP") is not a closing line.
	return !strings.ContainsAny(b.blocks[i].Text, ":/")
}

// introducesContent reports whether block i ends with a colon and the
// block after it is a list item or a table the content keeps: the line
// that opens a list ("The reasons are:") belongs with it.
func (b *builder) introducesContent(i int) bool {
	s := strings.TrimSpace(b.blocks[i].Text)
	if !strings.HasSuffix(s, ":") || i+1 >= len(b.blocks) {
		return false
	}
	n := &b.blocks[i+1]
	return n.Role == "content" && (n.Type == TypeListItem || n.Type == TypeTable)
}

// partsOfLongRuns marks the paragraphs of runs of consecutive blocks from
// one element (its text split at blank lines) in which some part is
// content and longer than an edge line.
func (b *builder) partsOfLongRuns() []bool {
	long := make([]bool, len(b.blocks))
	for i := 0; i < len(b.blocks); {
		j, keep := i, false
		for ; j < len(b.blocks) && b.blocks[j].node == b.blocks[i].node && b.blocks[j].Type == TypeParagraph; j++ {
			keep = keep || (b.blocks[j].Role == "content" && !edgeLine(&b.blocks[j]))
		}
		if j == i {
			j++
		} else if keep && j-i > 1 {
			for k := i; k < j; k++ {
				long[k] = true
			}
		}
		i = j
	}
	return long
}

// headed reports whether content blocks, and whether chrome blocks, follow
// heading i before the next heading of the same or a higher level.
func (b *builder) headed(i int) (content, chrome bool) {
	level := b.blocks[i].Level
	for k := i + 1; k < len(b.blocks); k++ {
		d := &b.blocks[k]
		if d.Type == TypeHeading && d.Level <= level {
			return content, chrome
		}
		if d.Type != TypeHeading {
			content = content || d.Role == "content"
			chrome = chrome || d.Role != "content"
		}
		if content {
			return true, chrome
		}
	}
	return content, chrome
}

// isProse is a paragraph that reads as running text, or a table or code
// block: what the edges are measured from.
func isProse(d *draft) bool {
	switch d.Type {
	case TypeTable, TypeCode:
		return true
	case TypeParagraph, TypeQuote:
	default:
		return false
	}
	n := utf8.RuneCountInString(d.Text)
	return n >= proseMinChars && float64(d.linkChars) < 0.5*float64(n)
}

// edgeLine is a short block that does not end a sentence: a byline, a
// date, a credit, a label.
func edgeLine(d *draft) bool {
	switch d.Type {
	case TypeTable, TypeCode:
		return false
	}
	s := strings.TrimSpace(d.Text)
	if utf8.RuneCountInString(s) > edgeMaxChars {
		return false
	}
	// Quotation marks around a sentence do not hide its punctuation: a
	// quoted line of dialogue ("„Komm.“", "“……。”") is still a sentence.
	inner := strings.TrimFunc(s, quoteMark)
	r, _ := utf8.DecodeLastRuneInString(inner)
	return !strings.ContainsRune(".!?…。！？", r) || !unicode.IsLetter(firstRune(inner))
}

// quoteMark is a quotation mark, of any script.
func quoteMark(r rune) bool {
	return unicode.In(r, unicode.Pi, unicode.Pf) || strings.ContainsRune("\"'„‚「」『』", r)
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// pageTitle is the text of the document's <title>.
func (b *builder) pageTitle() string {
	for i := range b.t.nodes {
		if b.t.nodes[i].Tag == "title" {
			return b.t.rawText(i)
		}
		if b.t.nodes[i].Tag == "body" {
			break
		}
	}
	return ""
}
