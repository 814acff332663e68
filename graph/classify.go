package graph

import (
	"strings"
	"unicode/utf8"
)

// The main-content container. Like readability, every substantial text
// block scores the elements above it (its parent fully, its grandparent
// half, further ancestors less); class/id words, landmarks and
// schema.org articleBody adjust an element's score, its link density
// scales it down, and the best element is the container. Blocks inside it
// are content unless a strong chrome signal says otherwise; blocks outside
// it are chrome unless they look like prose that belongs with it. One pass
// over the blocks and their ancestors: O(blocks × depth).

// nodeStat is what the blocks under one element add up to.
// nodeStat has one entry per node of the page: int32 counts (a page's
// characters are bounded by the capture cap) keep it at 32 bytes, where
// ints made it 48, 96 MB on a page of two million nodes (issue 17).
type nodeStat struct {
	chars     int32
	linkChars int32
	prose     int32   // characters of prose paragraphs (isProse) outside strong chrome zones
	score     float64 // from the text under the element
	markup    float64 // from the element's own tag, role and class/id words
	scored    bool
}

// container is the chosen main-content element and the facts the per-block
// decision needs.
type container struct {
	node int // -1 when the page has no clear container
	core int // the best-scoring element, before widening
	// siblings of node that belong with it (an article split in parts)
	siblings []int
	recipe   []int // a recipe's ingredient and step boxes (recipe.go)
	// article is the one article inside the container and tailFrom the
	// first node after it (articleEnd), -1 and 0 when there is none: what
	// follows it in the container is the wrapper's, not the article's.
	article, tailFrom int
	desc              string
	stats             []nodeStat
	depth             []int32
	total             int // characters of all blocks
}

// minContainerChars is the least text a container must hold to be trusted;
// below it the landmark rules alone decide.
const minContainerChars = 200

func (b *builder) findContainer() container {
	t := b.t
	c := container{node: -1, article: -1, stats: make([]nodeStat, len(t.nodes)), depth: make([]int32, len(t.nodes))}
	for i := range t.nodes {
		if p := t.nodes[i].Parent; p >= 0 && p < i {
			c.depth[i] = c.depth[p] + 1
		}
	}
	for k := range b.blocks {
		d := &b.blocks[k]
		if d.node < 0 {
			continue
		}
		chars := utf8.RuneCountInString(d.Text)
		c.total += chars
		for a := d.node; a >= 0; a = t.nodes[a].Parent {
			c.stats[a].chars += int32(chars)
			c.stats[a].linkChars += int32(d.linkChars)
		}
	}
	for k := range b.blocks {
		// Prose under a weak chrome word counts: it is what may outvote it.
		if d := &b.blocks[k]; d.node >= 0 && isProse(d) && (d.zone.chrome == "" || d.zone.weak) {
			chars := utf8.RuneCountInString(d.Text)
			for a := d.node; a >= 0; a = t.nodes[a].Parent {
				c.stats[a].prose += int32(chars)
			}
		}
	}
	// Like readability, first ignore text already inside a chrome zone;
	// when that leaves no convincing container (the article sits in a
	// wrapper with a chrome word), count everything.
	first, _ := b.rank(&c, true)
	all, _ := b.rank(&c, false)
	skip := true
	if first < 0 || c.stats[first].chars < 500 {
		first, all, skip = all, first, false
	}
	best := -1
	for _, cand := range []int{first, all} {
		if cand >= 0 && c.stats[c.widen(t, cand)].chars >= minContainerChars {
			best = cand
			break
		}
		skip = !skip
	}
	if best < 0 {
		return c
	}
	b.rank(&c, skip) // the scores of the phase that won, for siblings
	score := c.stats[best].score
	c.core = best
	best = c.widen(t, best)
	c.node = best
	c.article, c.tailFrom = c.articleEnd(t, best)
	c.desc = describe(t, best)
	c.siblings = c.siblingsOf(t, best, max(score, c.stats[best].score))
	c.recipe = b.recipeRegions(&c)
	if len(c.siblings) > 0 {
		c.desc += " (and " + itoa(len(c.siblings)) + " sibling elements)"
	}
	return c
}

// siblingsOf are the container's siblings that belong with it, as
// readability has them: an article split over several elements of the
// same class, or prose paragraphs beside the container.
func (c *container) siblingsOf(t *tree, best int, top float64) []int {
	p := t.nodes[best].Parent
	if p < 0 {
		return nil
	}
	threshold := max(10, top*0.2)
	class := t.nodes[best].Attrs["class"]
	var out []int
	for _, s := range t.children[p] {
		if s == best || t.nodes[s].Tag == "#text" {
			continue
		}
		st := c.stats[s]
		bonus := 0.0
		if class != "" && t.nodes[s].Attrs["class"] == class {
			bonus = top * 0.2
		}
		ld := c.linkDensity(s)
		switch {
		case st.scored && st.score+bonus >= threshold:
		case st.chars > 80 && ld < 0.25 && (t.nodes[s].Tag == "p" || t.nodes[s].Tag == "div" && ownsText(t, s)):
		case bonus > 0 && st.chars > 0 && ld < 0.25 && t.nodes[s].Tag == t.nodes[best].Tag:
			// One part of an article cut into like parts (a how-to's
			// steps, each a short line and a photo): the parts read
			// alike, whatever each one's text scores.
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// rank scores every element and returns the best one and its score.
func (b *builder) rank(c *container, skipChrome bool) (int, float64) {
	for i := range c.stats {
		c.stats[i].score, c.stats[i].markup, c.stats[i].scored = 0, 0, false
	}
	for k := range b.blocks {
		if d := &b.blocks[k]; !skipChrome || !c.chromeZone(d.zone) {
			b.scoreBlock(c, d)
		}
	}
	best, bestScore := -1, 0.0
	for i := range c.stats {
		s := &c.stats[i]
		if !s.scored {
			continue
		}
		// Markup can at most double what the text earned: a tiny
		// "content" div does not outrank the article.
		s.score = (s.score + min(s.markup, s.score)) * (1 - c.linkDensity(i))
		if s.score > bestScore {
			best, bestScore = i, s.score
		}
	}
	return best, bestScore
}

// chromeZone reports whether a zone's chrome signal is believable for
// ranking: a weak chrome word on an element that wraps most of the page (a
// <body class="…sidebar…"> or "menu-push" wrapper) is not; a landmark, a
// role or a word like "cookie" is, however much text it holds.
func (c *container) chromeZone(z zone) bool {
	if z.chrome == "" {
		return false
	}
	if !z.byClass {
		return true
	}
	if z.weak && c.outvoted(z) {
		return false
	}
	share := c.share(z.signal)
	return share <= 0.5 || (!z.weak && share <= 0.8)
}

// share is the part of the page's text under element i.
func (c *container) share(i int) float64 {
	if c.total == 0 {
		return 1
	}
	return float64(c.stats[i].chars) / float64(c.total)
}

// wrapsPage reports whether a class/id chrome word sits on an element that
// holds nearly all the page's text (id="outerAd" around everything but the
// masthead): it names a wrapper, not a region, as chromeZone has it for
// ranking.
func (c *container) wrapsPage(z zone) bool {
	return z.byClass && c.share(z.signal) > 0.8
}

// outvoted reports whether a weak class/id chrome signal is outvoted by
// what the element holds: mostly prose paragraphs and few links.
func (c *container) outvoted(z zone) bool {
	if !z.weak {
		return false
	}
	s := c.stats[z.signal]
	if strongInsideArticle[z.chrome] && s.prose < outvoteChars {
		return false // an author bio, a comment: prose, but one or two paragraphs
	}
	return s.prose > 0 && 2*s.prose >= s.chars && c.linkDensity(z.signal) < 0.3
}

// outvoteChars is the prose it takes to outvote a chrome word like "share"
// that sits beside a content word on an article's wrapper.
const outvoteChars = 600

// scoreBlock adds one text block's score to its ancestors.
func (b *builder) scoreBlock(c *container, d *draft) {
	chars := utf8.RuneCountInString(d.Text)
	if d.node < 0 || !scoresAsText(d, chars) {
		return
	}
	if chars < 25 || float64(d.linkChars) > 0.5*float64(chars) {
		return
	}
	s := 1 + float64(commas(d.Text)) + min(float64(chars)/100, 3)
	if d.Type == TypeListItem {
		s /= 2
	}
	t := b.t
	a := d.node
	switch {
	case d.Type == TypeListItem:
		if a = t.nodes[a].Parent; a >= 0 {
			a = t.nodes[a].Parent // the list's parent holds the item
		}
	case ownsText(t, a):
		a = t.nodes[a].Parent
	}
	for level := 0; a >= 0 && level < 5; level++ {
		st := &c.stats[a]
		if !st.scored {
			st.scored = true
			st.markup = b.initialScore(a)
		}
		switch level {
		case 0:
			st.score += s
		case 1:
			st.score += s / 2
		default:
			st.score += s / float64(level*3)
		}
		a = t.nodes[a].Parent
	}
}

// scoresAsText reports whether a block's text scores its ancestors: a
// paragraph, quote, code block or list item, or a heading that holds a
// sentence or more (an article set entirely in <h3>/<h4>).
func scoresAsText(d *draft, chars int) bool {
	switch d.Type {
	case TypeParagraph, TypeQuote, TypeCode, TypeListItem:
		return true
	case TypeHeading:
		return chars >= longHeadingChars
	}
	return false
}

// longHeadingChars is the length from which a heading's text is scored
// like a paragraph's.
const longHeadingChars = 100

// ownsText reports whether element i is its text's own block, like a <p>
// or a <div> holding only inline content (readability turns those into
// paragraphs), rather than a container with loose text beside block
// elements (the article's text without paragraph tags, split by <br>s
// and figures), which then scores as the container itself.
func ownsText(t *tree, i int) bool {
	switch t.nodes[i].Tag {
	case "div", "section", "article", "main", "td":
	default:
		return true
	}
	for _, c := range t.children[i] {
		if tag := t.nodes[c].Tag; tag != "#text" && !t.inline[c] && tag != "br" {
			return false
		}
	}
	return true
}

// initialScore is what an element's own markup says before its text is
// counted.
func (b *builder) initialScore(i int) float64 {
	n := &b.t.nodes[i]
	s := 0.0
	switch n.Tag {
	case "article":
		s += 10
	case "main":
		s += 10
	case "div", "section":
		s += 5
	case "pre", "td", "blockquote":
		s += 3
	case "form", "ul", "ol", "dl", "li", "nav", "aside", "footer", "header", "th":
		s -= 5
	}
	if n.Role == "main" || n.Role == "article" {
		s += 10
	}
	if strings.EqualFold(n.Attrs["itemprop"], "articleBody") {
		s += 40
	}
	return s + b.classWeightOf(i)
}

var positiveWords = map[string]bool{
	"article": true, "articlebody": true, "body": true, "content": true, "entry": true, "hentry": true,
	"main": true, "page": true, "post": true, "text": true, "blog": true, "story": true, "prose": true,
}

var negativeWords = []string{
	"comment", "sidebar", "footer", "footnote", "masthead", "meta", "outbrain", "taboola", "promo",
	"related", "share", "social", "sponsor", "shopping", "widget", "banner", "combx", "contact",
	"skyscraper", "teaser", "recommend", "newsletter", "cookie", "consent", "popup", "modal", "nav",
	"menu", "breadcrumb", "tags", "byline", "author",
}

// classWeight is readability's class/id weight: +25 for a word that names
// content, -25 for one that names chrome.
func classWeight(tokens []string) float64 {
	w := 0.0
	pos, neg := false, false
	for _, tok := range tokens {
		if positiveWords[tok] {
			pos = true
		}
		for _, n := range negativeWords {
			if strings.Contains(tok, n) {
				neg = true
			}
		}
		if tok == "ad" || tok == "ads" || tok == "hidden" {
			neg = true
		}
	}
	if pos {
		w += 25
	}
	if neg {
		w -= 25
	}
	return w
}

func commas(s string) int {
	n := 0
	for _, r := range s {
		switch r {
		case ',', '，', '、', '،':
			n++
		}
	}
	return n
}

func (c *container) linkDensity(i int) float64 {
	s := c.stats[i]
	if s.chars == 0 {
		return 0
	}
	return min(1, float64(s.linkChars)/float64(s.chars))
}

// widen climbs from the best element while its parent holds little more
// text than it does: a container wrapped in plain wrappers is the same
// container, and an article split over sibling elements is one.
func (c *container) widen(t *tree, best int) int {
	for {
		p := t.nodes[best].Parent
		if p < 0 || t.nodes[p].Tag == "body" || t.nodes[p].Tag == "html" {
			return best
		}
		own, all := c.stats[best].chars, c.stats[p].chars
		if own == 0 || (float64(all) > 1.15*float64(own) && !c.moreProse(best, p)) {
			if a := c.proseAbove(t, best); a >= 0 {
				best = a
				continue
			}
			return best
		}
		best = p
	}
}

// articleEnd returns the one <article> (or role=article) element inside
// the widened container best and the node after it, when that article
// holds the best-scoring element and nearly all the container's prose; -1
// and 0 otherwise. Widening climbed past the article into a page wrapper
// (Medium's id="root"), and what the wrapper adds after the article is its
// chrome: "More from", "Related reads" and sign-up boxes. What it holds
// before the article (a headline, a standfirst) stays. A container holding
// several articles is a list of them and stays whole.
func (c *container) articleEnd(t *tree, best int) (art, end int) {
	art = -1
	for i, last := best+1, c.subtreeEnd(t, best); i < last; i++ {
		if n := &t.nodes[i]; n.Tag != "article" && n.Role != "article" {
			continue
		}
		if art >= 0 {
			return -1, 0
		}
		art = i
		i = c.subtreeEnd(t, i) - 1
	}
	if art < 0 || !c.inside(t, c.core, art) {
		return -1, 0
	}
	if own, all := c.stats[art].prose, c.stats[best].prose; own < minContainerChars || float64(own) < narrowShare*float64(all) {
		return -1, 0
	}
	return art, c.subtreeEnd(t, art)
}

// subtreeEnd is the first node after element i's subtree: nodes come in
// document order, an element's descendants right after it.
func (c *container) subtreeEnd(t *tree, i int) int {
	end := i + 1
	for end < len(t.nodes) && c.depth[end] > c.depth[i] {
		end++
	}
	return end
}

// narrowShare is the least part of the container's prose its one article
// must hold for what follows it to be cut.
const narrowShare = 0.85

// proseAbove is the nearest ancestor of best below <body> that holds much
// more prose than best (moreProse), or -1: an article split over page-
// builder rows, where the wrappers in between add an image or a quote
// each and no single step up gains enough.
func (c *container) proseAbove(t *tree, best int) int {
	for a := t.nodes[best].Parent; a >= 0; a = t.nodes[a].Parent {
		if tag := t.nodes[a].Tag; tag == "body" || tag == "html" {
			return -1
		}
		if c.moreProse(best, a) {
			return a
		}
	}
	return -1
}

// moreProse reports whether parent p holds much more prose than its child
// best, with few links: an article whose paragraphs each sit in their own
// wrapper, where one wrapper scored best.
func (c *container) moreProse(best, p int) bool {
	own, all := c.stats[best].prose, c.stats[p].prose
	return float64(all) >= 1.5*float64(own) && all >= minContainerChars && c.linkDensity(p) < 0.25 && 2*all >= c.stats[p].chars
}

// holds reports whether element i lies in the container, one of its
// siblings or one of its recipe regions.
func (c *container) holds(t *tree, i int) bool {
	return c.inside(t, i, c.node) || c.insideAny(t, i, c.siblings) || c.insideAny(t, i, c.recipe)
}

// insideAny reports whether element i lies in one of the elements ancs.
func (c *container) insideAny(t *tree, i int, ancs []int) bool {
	for _, a := range ancs {
		if c.inside(t, i, a) {
			return true
		}
	}
	return false
}

// inside reports whether element i lies in (or is) element anc.
func (c *container) inside(t *tree, i, anc int) bool {
	if anc < 0 || i < 0 {
		return false
	}
	for i >= 0 && c.depth[i] >= c.depth[anc] {
		if i == anc {
			return true
		}
		i = t.nodes[i].Parent
	}
	return false
}

func describe(t *tree, i int) string {
	n := &t.nodes[i]
	s := "<" + n.Tag
	if id := strings.TrimSpace(n.Attrs["id"]); id != "" {
		s += " id=\"" + clip(id, 40) + "\""
	} else if cl := strings.TrimSpace(n.Attrs["class"]); cl != "" {
		s += " class=\"" + clip(cl, 40) + "\""
	}
	return s + ">"
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
