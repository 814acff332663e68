package graph

// Rails: a carousel, a "more videos" strip or a related-content list is a
// run of similar siblings (one tag and class each), every one a card (a
// heading or a thumbnail) with a link and little else, the whole run
// mostly link text. The article's
// own lists do not look like that: their items are sentences, not links.
// Judged by structure alone, never by class names, so that a rail inside
// the main-content container (above the article, where it passes every
// other test) goes to the chrome with its label ("(15 Videos)").

// minRailItems is the fewest similar linked items that make a rail.
const minRailItems = 5

// railMinLinkDensity is the least share of link text in a rail.
const railMinLinkDensity = 0.5

// trimRails marks the content blocks of every rail as chrome.
func (b *builder) trimRails(c *container) {
	judged := make(map[int]bool)
	for i := range b.blocks {
		d := &b.blocks[i]
		if d.Role != "content" || d.node < 0 || d.linkChars == 0 {
			continue
		}
		rail := b.railAround(c, d.node, judged)
		if rail < 0 {
			continue
		}
		box := b.railBox(c, rail)
		for k := range b.blocks {
			if e := &b.blocks[k]; e.Role == "content" && c.inside(b.t, e.node, box) {
				e.Role, e.Chrome, e.Reason = "chrome", "related", "in a run of similar linked items (a carousel or related-content rail)"
			}
		}
	}
}

// railAround is the rail that element i is an item of (the items'
// parent), or -1. judged remembers parents already looked at.
func (b *builder) railAround(c *container, i int, judged map[int]bool) int {
	t := b.t
	for a, level := i, 0; a >= 0 && level < 4; a, level = t.nodes[a].Parent, level+1 {
		p := t.nodes[a].Parent
		if p < 0 || judged[p] {
			continue
		}
		judged[p] = true
		if b.similarSiblings(a) >= minRailItems && b.isRail(c, p, a) {
			return p
		}
	}
	return -1
}

// isRail: the similar items under p carry links, hold no prose paragraph
// and are mostly link text; item is one of them.
func (b *builder) isRail(c *container, p, item int) bool {
	t := b.t
	tag, class := t.nodes[item].Tag, t.nodes[item].Attrs["class"]
	chars, links, items := 0, 0, 0
	for _, s := range t.children[p] {
		if t.nodes[s].Tag != tag || t.nodes[s].Attrs["class"] != class {
			continue
		}
		st := c.stats[s]
		if st.linkChars == 0 || st.prose > 0 || !b.card(s) {
			return false
		}
		chars, links, items = chars+int(st.chars), links+int(st.linkChars), items+1
	}
	return items >= minRailItems && float64(links) >= railMinLinkDensity*float64(chars)
}

// railBox widens a rail to the box around it while that box adds only a
// label (a heading like "(15 Videos)", a "More" line) and no prose.
func (b *builder) railBox(c *container, rail int) int {
	t := b.t
	box := rail
	for p := t.nodes[box].Parent; p >= 0; p = t.nodes[p].Parent {
		extra := int(c.stats[p].chars - c.stats[box].chars)
		if c.stats[p].prose > c.stats[box].prose || extra > edgeMaxChars {
			break
		}
		box = p
	}
	return box
}

// card reports whether element i holds a heading or an image, looking at
// no more than cardMaxNodes elements.
func (b *builder) card(i int) bool {
	t := b.t
	stack := []int{i}
	for seen := 0; len(stack) > 0 && seen < cardMaxNodes; seen++ {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if tag := t.nodes[n].Tag; headingTag(tag) || tag == "img" || tag == "picture" {
			return true
		}
		stack = append(stack, t.children[n]...)
	}
	return false
}

// cardMaxNodes bounds the elements looked at per card.
const cardMaxNodes = 64
