package graph

import (
	"strings"
	"unicode/utf8"
)

// What a block's neighbours say about it, applied with the text signals
// (classify_text.go) after the container decision: the blurbs of a teaser
// list, short lines between chrome blocks, the headings and labels of
// boxes that hold only chrome, teaser cards, and a small tail after the
// comments. A group is the run of blocks under a block's nearest ancestor
// that holds other blocks too (at most groupMaxBlocks); every rule is
// linear in the blocks, or bounded by the group size per block.

// teasers marks as chrome the blurbs of a teaser list: three or more
// short paragraphs, each right after a link-only block (linked title,
// blurb, linked title, blurb, …), describe other pages. One or two such
// pairs are an article's own "read more" lines.
func (b *builder) teasers() {
	for i := 0; i < len(b.blocks); {
		j, n := i, 0
		for j+1 < len(b.blocks) && b.linkedTitle(j) && b.blurb(j+1) {
			j, n = j+2, n+1
		}
		if n < minTeasers {
			i = max(j, i+1)
			continue
		}
		for k := i + 1; k < j; k += 2 {
			d := &b.blocks[k]
			d.Role, d.Chrome, d.Reason = "chrome", "teaser", "a blurb after a linked title, one of "+itoa(n)+" (a teaser list)"
		}
		i = j
	}
}

// minTeasers is the fewest title–blurb pairs that make a teaser list.
const minTeasers = 3

// linkedTitle is a link-only block of words (a linked address is a
// source the article cites, not another page's title).
func (b *builder) linkedTitle(i int) bool {
	return b.blocks[i].Chrome == "link_list" && strings.Contains(strings.TrimSpace(b.blocks[i].Text), " ")
}

func (b *builder) blurb(i int) bool {
	d := &b.blocks[i]
	return d.Role == "content" && d.Type == TypeParagraph && utf8.RuneCountInString(d.Text) <= teaserMaxChars
}

// teaserMaxChars is the longest blurb a teaser list shows.
const teaserMaxChars = 300

// commentsMinChars is the least comment text that makes a comments
// section rather than a "Comments" button.
const commentsMinChars = 100

// trimAfterComments marks the content after the comments that follow the
// article as chrome when it is a small tail (an author box, a newsletter
// pitch placed below the comment form): the article ends where its
// comments begin.
func (b *builder) trimAfterComments(first int) {
	c := b.commentsFrom(first)
	if c < 0 {
		return
	}
	before, after := 0, 0
	for i := range b.blocks {
		if d := &b.blocks[i]; d.Role == "content" {
			if i < c {
				before += utf8.RuneCountInString(d.Text)
			} else {
				after += utf8.RuneCountInString(d.Text)
			}
		}
	}
	if after == 0 || 5*after > before {
		return
	}
	for i := c; i < len(b.blocks); i++ {
		if d := &b.blocks[i]; d.Role == "content" {
			d.Role, d.Chrome, d.Reason = "chrome", "edge", "after the comments that follow the article"
		}
	}
}

// commentsFrom returns the first block from i on that opens a comments
// section: a run of chrome blocks with at least commentsMinChars of
// comment text before the next content block. -1 when there is none.
func (b *builder) commentsFrom(i int) int {
	start, chars := -1, 0
	for ; i < len(b.blocks); i++ {
		d := &b.blocks[i]
		switch {
		case d.Role == "content":
			start, chars = -1, 0
		case d.Chrome == "comments":
			if start < 0 {
				start = i
			}
			if chars += utf8.RuneCountInString(d.Text); chars >= commentsMinChars {
				return start
			}
		}
	}
	return -1
}

// trimCards marks teaser cards after the article's first paragraph
// (first) as chrome: a heading in a box with little other text that
// links one page twice (a linked heading and its image or "more" link) or
// closes with a line of links ("Read more") — a teaser of another page.
func (b *builder) trimCards(first int) {
	hrefs := make(map[int][]string)
	for _, l := range b.links {
		if l.block >= 0 && !strings.Contains(l.Href, "#") {
			hrefs[l.block] = append(hrefs[l.block], l.Href)
		}
	}
	for i := first + 1; i < len(b.blocks); i++ {
		d := &b.blocks[i]
		chars := utf8.RuneCountInString(d.Text)
		if d.Role != "content" || d.Type != TypeHeading || chars == 0 {
			continue
		}
		lo, hi := b.group(i)
		other, again := 0, false
		seen := make(map[string]bool)
		for k := lo; k <= hi; k++ {
			for _, h := range hrefs[k] {
				again = again || seen[h]
				seen[h] = true
			}
			if k != i && b.blocks[k].Type != TypeMedia {
				other += utf8.RuneCountInString(b.blocks[k].Text)
			}
		}
		more := hi > i && b.blocks[hi].Chrome == "link_list"
		if !(again || more) || other > cardMaxChars {
			continue
		}
		for k := lo; k <= hi; k++ {
			if c := &b.blocks[k]; c.Role == "content" {
				c.Role, c.Chrome, c.Reason = "chrome", "related", "a teaser card (a heading in a small box that links another page)"
			}
		}
	}
}

// cardMaxChars is the most text beside its heading a teaser card holds.
const cardMaxChars = 300

// chromeAt reports whether the nearest block before (step -1) or after
// (step 1) block i that is not an image is chrome.
func (b *builder) chromeAt(i, step int) bool {
	for k := i + step; k >= 0 && k < len(b.blocks); k += step {
		if d := &b.blocks[k]; d.Type != TypeMedia {
			return d.Role != "content" && !citedAddress(d)
		}
	}
	return false
}

// citedAddress is a link-only block that is one address ("site.org/a"):
// a source the article cites, which makes the lines around it no island.
func citedAddress(d *draft) bool {
	s := strings.TrimSpace(d.Text)
	return d.Chrome == "link_list" && !strings.Contains(s, " ") && strings.ContainsAny(s, "./")
}

// trimIslands marks short lines that belong to the chrome around them
// as chrome: a line between two chrome blocks (a label inside a teaser
// list or a share bar) and a label that announces chrome ("Read more:"
// over a link list). Both are judged on the roles before any of them
// changes; a figure's caption stays.
func (b *builder) trimIslands() {
	var islands []int
	for i := range b.blocks {
		d := &b.blocks[i]
		if d.Role != "content" || d.Type == TypeHeading || d.Type == TypeMedia || isProse(d) || utf8.RuneCountInString(d.Text) > repeatMaxChars || b.inCaption(d.node) {
			continue
		}
		if b.chromeAt(i, 1) && (b.chromeAt(i, -1) || label(d)) {
			islands = append(islands, i)
		}
	}
	for _, i := range islands {
		d := &b.blocks[i]
		d.Role, d.Chrome, d.Reason = "chrome", "edge", "short line between chrome blocks"
		if label(d) {
			d.Reason = "label over chrome (a line ending in a colon before chrome)"
		}
	}
}

// label is a short line that announces what follows ("Read more:").
func label(d *draft) bool {
	s := strings.TrimSpace(d.Text)
	return utf8.RuneCountInString(s) <= edgeMaxChars && strings.HasSuffix(s, ":")
}

// groupOfChrome reports whether heading i sits in an element (its nearest
// ancestor with other blocks) whose other blocks are all chrome: the title
// of a "Read also" box of links inside the article.
func (b *builder) groupOfChrome(i int) bool {
	lo, hi := b.group(i)
	if lo == hi {
		return false
	}
	for k := lo; k <= hi; k++ {
		if k != i && b.blocks[k].Role == "content" {
			return false
		}
	}
	return true
}

// group returns the range of blocks under block i's nearest ancestor element
// that holds other blocks too; lo == hi == i when there is none or it
// holds more than groupMaxBlocks (a page region, not a box). Blocks come in
// document order, so an element's blocks are one run (blockSpans).
func (b *builder) group(i int) (lo, hi int) {
	n := b.blocks[i].node
	if n < 0 {
		return i, i
	}
	spans := b.blockSpans()
	for a := b.t.nodes[n].Parent; a >= 0; a = b.t.nodes[a].Parent {
		s := spans[a]
		if s.last-s.first >= groupMaxBlocks {
			return i, i
		}
		if int(s.first) < i || int(s.last) > i {
			return int(s.first), int(s.last)
		}
	}
	return i, i
}

// groupMaxBlocks is the most blocks a box around a heading or label holds.
const groupMaxBlocks = 60

// span is the run of blocks under one element.
type span struct{ first, last int32 }

// blockSpans returns, per element, the first and last block under it,
// computed once: O(blocks × depth).
func (b *builder) blockSpans() []span {
	if b.spans != nil {
		return b.spans
	}
	b.spans = make([]span, len(b.t.nodes))
	for i := range b.spans {
		b.spans[i] = span{-1, -1}
	}
	for k := range b.blocks {
		for n := b.blocks[k].node; n >= 0; n = b.t.nodes[n].Parent {
			s := &b.spans[n]
			if s.first < 0 {
				s.first = int32(k)
			}
			s.last = int32(k)
		}
	}
	return b.spans
}

// inCaption reports whether element i lies in a <figcaption>: a figure's
// caption stays with the article even when its image is chrome.
func (b *builder) inCaption(i int) bool {
	for ; i >= 0; i = b.t.nodes[i].Parent {
		if b.t.nodes[i].Tag == "figcaption" {
			return true
		}
	}
	return false
}
