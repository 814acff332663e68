package graph

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sieve-dev/sieve/normalize"
)

// owner is the block-level element whose text is being collected.
type owner struct {
	node    int
	typ     string
	level   int
	ordered bool
}

// builder walks the node tree once and emits blocks, links, actions,
// media, latent entries and gaps in document order. Positions of the
// non-block items are recorded as the number of blocks emitted before them,
// so sections can be assigned once the blocks are known.
type builder struct {
	t        *tree
	base     string          // final URL, for external-link decisions
	jsonld   []string        // the page's JSON-LD blocks, for recipe regions
	pdf      bool            // read from a PDF: every page is the document (classify)
	inRecipe []bool          // blocks in a recipe region (recipe.go): no edge trimming
	spans    []span          // per element, the blocks under it (blockSpans)
	similar  map[int]int32   // per element looked at, its similar siblings (similarSiblings)
	weights  map[int]float64 // per element looked at, its classWeight (classWeightOf)
	blocks   []draft
	slab     []Block // the drafts' blocks: blocks[i].Block is &slab[i]
	links    []posLink
	actions  []posAction
	media    []posMedia
	latent   []posLatent
	gaps     []Gap
	labels   map[int]string // form field element → label text
	labelEls map[int]bool   // label elements that label a field
	budget

	buf       strings.Builder
	bufLinks  int       // chars of link text in buf
	linkRuns  []pending // link text in buf: chars at the offset of its first letter
	bufOwner  owner
	bufMedia  []pending   // media collected while buf was open (index into media)
	pendLinks []pending   // links collected while buf was open (index into links)
	inline    []rawInline // inline code and links of the open run
	runs      int         // runs flushed so far: tells a span whether its run is still open
	owners    []owner
	zones     []zone
	listDepth int
	inQuote   int
	inForm    int
	inLink    int
}

// draft is a block before ids, sections and roles are final. Its Block
// lives in the builder's slab, at its own index, so the finished blocks
// are the slab itself and never a second copy of the page (issue 17).
type draft struct {
	*Block
	node      int
	zone      zone
	linkChars int
}

// pending is an item tied to the open text run at byte offset off of buf:
// a link or media entry (n is its index) or a piece of link text (n is its
// length in characters). The offset picks the paragraph of the run it
// belongs to when the run splits at a blank line.
type pending struct{ n, off int }

type posLink struct {
	Link
	pos   int
	block int // index into blocks or -1
	zone  zone
}

type posAction struct {
	Action
	pos   int
	block int
	zone  zone
}

type posMedia struct {
	Media
	pos   int
	block int
	zone  zone
}

type posLatent struct {
	Latent
	pos    int
	parent int
	more   []byte // text merged after Text ("\n"-led pieces), joined once in finishRefs
}

func (b *builder) run() {
	b.reserve()
	b.collectLabels()
	b.owners = []owner{{node: -1, typ: TypeParagraph}}
	b.zones = []zone{{}}
	for _, r := range b.t.roots {
		b.walk(r)
	}
	b.flush()
	if len(b.blocks) > b.maxBlocks {
		b.blocks = b.blocks[:b.maxBlocks]
	}
	b.cutRefs()
}

// reserve makes room for the blocks: about one per text node, up to the
// budget. Growing the slice by appends copied every draft (some 340
// bytes) five times over on a long page.
func (b *builder) reserve() {
	n := 0
	for i := range b.t.nodes {
		if b.t.nodes[i].Tag == "#text" {
			n++
		}
	}
	b.blocks = make([]draft, 0, min(n, b.maxBlocks)+1)
	b.slab = make([]Block, min(n, b.maxBlocks)+1)
}

// block is a fresh Block for the draft at index i (len(b.blocks)): the
// slab's slot i, the slab grown (and every draft pointed at the new one)
// when it is full.
func (b *builder) block(i int) *Block {
	if i >= len(b.slab) {
		grown := make([]Block, max(2*len(b.slab), i+1, 16))
		copy(grown, b.slab)
		b.slab = grown
		for k := range b.blocks {
			b.blocks[k].Block = &b.slab[k]
		}
	}
	b.slab[i] = Block{}
	return &b.slab[i]
}

func (b *builder) zone() zone { return b.zones[len(b.zones)-1] }

func (b *builder) owner() owner { return b.owners[len(b.owners)-1] }

func (b *builder) walk(i int) {
	t := b.t
	n := &t.nodes[i]
	if n.Hidden != "" {
		b.addLatent(i)
		return
	}
	if n.Tag == "#text" {
		b.write(n.Text)
		return
	}
	z := b.zone().enter(t, i)
	b.zones = append(b.zones, z)
	defer func() { b.zones = b.zones[:len(b.zones)-1] }()

	switch n.Tag {
	case "br":
		if b.buf.Len() == 0 {
			b.bufOwner = b.owner() // a run may open with a <br>: it is this element's
		}
		b.buf.WriteByte('\n')
		return
	case "a":
		b.walkLink(i)
		return
	case "code":
		b.walkCode(i)
		return
	case "img", "picture", "video", "audio", "iframe", "embed", "object", "canvas":
		b.walkMedia(i)
		return
	case "input", "select", "textarea", "button":
		b.walkControl(i)
		return
	case "head", "option", "datalist", "svg", "math", "map", "area", "source", "track", "rt", "rp":
		// rt and rp: a ruby's readings (furigana) annotate its base text; in
		// the text flow they would split every annotated word.
		return
	case "label":
		if b.inForm > 0 && b.labelsField(i) {
			return
		}
	case "pre", "listing", "xmp", "plaintext":
		b.codeBlock(i)
		return
	case "table":
		if b.dataTable(i) {
			b.tableBlock(i)
			return
		}
	}
	if n.Attrs["role"] == "button" {
		b.walkControl(i)
		return
	}
	if inlineTags[n.Tag] {
		b.children(i)
		return
	}
	b.walkBlock(i)
}

func (b *builder) children(i int) {
	carried := false
	for _, c := range b.t.children[i] {
		b.walk(c)
		if !carried {
			if z, ok := b.headingZone(i, c); ok {
				b.zones, carried = append(b.zones, z), true
			}
		}
	}
	if carried {
		b.zones = b.zones[:len(b.zones)-1]
	}
}

// headsChrome are the chrome kinds a heading's class extends to what
// follows it.
var headsChrome = map[string]bool{"related": true, "comments": true, "share": true, "promo": true}

// headingZone returns the zone a heading's own class gives what follows
// it in its parent: under <h3 class="related-posts-title"> the teasers
// that follow are the related posts, though their wrapper says nothing.
// Only kinds that head a section of their own count (a byline or meta
// class on a headline says nothing of the paragraphs after it), and only
// where the parent is not chrome already.
func (b *builder) headingZone(parent, c int) (zone, bool) {
	n := &b.t.nodes[c]
	if n.Hidden != "" || !(headingTag(n.Tag) || n.Role == "heading") || b.zone().chrome != "" {
		return zone{}, false
	}
	z := b.zone().enter(b.t, c)
	if z.signal != c || z.weak || !headsChrome[z.chrome] {
		return zone{}, false
	}
	z.node = parent
	return z, true
}

// walkBlock handles a block-level element: it closes the current run,
// opens its own, walks its children and closes it again.
func (b *builder) walkBlock(i int) {
	n := &b.t.nodes[i]
	b.flush()
	o := b.ownerFor(i)
	switch n.Tag {
	case "ul", "ol", "menu", "dir":
		b.listDepth++
		defer func() { b.listDepth-- }()
	case "blockquote":
		b.inQuote++
		defer func() { b.inQuote-- }()
	case "form":
		b.inForm++
		defer func() { b.inForm--; b.formAction(i) }()
	case "details":
		defer b.detailsGap(i)
	}
	b.owners = append(b.owners, o)
	b.children(i)
	b.flush()
	b.owners = b.owners[:len(b.owners)-1]
}

// ownerFor decides the block type text directly inside element i gets.
func (b *builder) ownerFor(i int) owner {
	n := &b.t.nodes[i]
	parent := b.owner()
	o := owner{node: i, typ: TypeParagraph}
	switch {
	case n.Level > 0 && (headingTag(n.Tag) || n.Role == "heading"):
		o.typ, o.level = TypeHeading, n.Level
	case n.Tag == "li":
		o.typ, o.level = TypeListItem, max(b.listDepth, 1)
		o.ordered = b.orderedList(i)
	case parent.typ == TypeListItem:
		o = parent
		o.node = i
	case b.inQuote > 0:
		o.typ = TypeQuote
	}
	return o
}

func headingTag(tag string) bool {
	return len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6'
}

func (b *builder) orderedList(li int) bool {
	p := b.t.nodes[li].Parent
	return p >= 0 && b.t.nodes[p].Tag == "ol"
}

func (b *builder) write(s string) {
	if b.buf.Len() == 0 {
		b.bufOwner = b.owner()
	}
	off := b.buf.Len()
	b.buf.WriteString(s)
	if b.inLink > 0 {
		t := strings.TrimLeft(s, " \n")
		if n := utf8.RuneCountInString(strings.TrimRight(t, " \n")); n > 0 {
			b.bufLinks += n
			b.linkRuns = append(b.linkRuns, pending{n: n, off: off + len(s) - len(t)})
		}
	}
}

// flush turns the open text run into blocks: one per paragraph break.
// Each paragraph gets its own link characters, links and media, so one
// <p> of several paragraphs split by <br><br> is not read as all links
// because one of them is a link list.
func (b *builder) flush() {
	raw := b.buf.String()
	o := b.bufOwner
	linkChars, runs := b.bufLinks, b.linkRuns
	b.buf.Reset()
	b.bufLinks, b.linkRuns = 0, b.linkRuns[:0]
	spans := b.inline
	b.inline, b.runs = b.inline[:0], b.runs+1
	text := cleanInline(raw)
	links, media := b.pendLinks, b.bufMedia
	b.pendLinks, b.bufMedia = nil, nil
	if text == "" {
		return
	}
	if o.typ == TypeHeading || !strings.Contains(text, "\n\n") {
		first := b.emit(o, text, min(linkChars, utf8.RuneCountInString(text)))
		b.tieToBlocks(links, media, first, nil)
		b.placeInline(raw, []string{text}, first, spans)
		return
	}
	parts := strings.Split(text, "\n\n")
	breaks := paragraphBreaks(raw)
	chars := make([]int, len(parts))
	for _, r := range runs {
		chars[partAt(breaks, r.off)] += r.n
	}
	first := len(b.blocks)
	for k, p := range parts {
		b.emit(o, p, min(chars[k], utf8.RuneCountInString(p)))
	}
	b.tieToBlocks(links, media, first, breaks)
	b.placeInline(raw, parts, first, spans)
}

// tieToBlocks sets the block of the links and inline media of a text run
// whose paragraphs became blocks first, first+1, … (breaks as from
// paragraphBreaks; nil for one block).
func (b *builder) tieToBlocks(links, media []pending, first int, breaks []int) {
	for _, l := range links {
		b.links[l.n].block = first + partAt(breaks, l.off)
	}
	for _, m := range media {
		if b.media[m.n].block < 0 {
			b.media[m.n].block = first + partAt(breaks, m.off)
		}
	}
}

// paragraphBreaks returns the byte offsets in raw where the blank-line
// breaks that cleanInline keeps begin: runs of spaces and newlines with
// two or more newlines, with text before and after them.
func paragraphBreaks(raw string) []int {
	var out []int
	for i := 0; i < len(raw); {
		if raw[i] != ' ' && raw[i] != '\n' {
			i++
			continue
		}
		j, newlines := i, 0
		for ; j < len(raw) && (raw[j] == ' ' || raw[j] == '\n'); j++ {
			if raw[j] == '\n' {
				newlines++
			}
		}
		if newlines >= 2 && i > 0 && j < len(raw) {
			out = append(out, i)
		}
		i = j
	}
	return out
}

// partAt is the index of the paragraph holding byte offset off: the number
// of breaks that begin before it.
func partAt(breaks []int, off int) int {
	k := 0
	for k < len(breaks) && breaks[k] < off {
		k++
	}
	return k
}

func (b *builder) emit(o owner, text string, linkChars int) int {
	if len(b.blocks) >= b.maxBlocks {
		// Over the block budget: the one block past it is scratch space
		// for the callers, overwritten by the next and dropped by run.
		b.cutBlocks++
		b.blocks = b.blocks[:b.maxBlocks]
	}
	d := draft{Block: b.block(len(b.blocks)), node: o.node, zone: b.zone(), linkChars: linkChars}
	if o.node >= 0 {
		d.zone = b.zoneAt(o.node)
	}
	d.Type, d.Level, d.Text, d.Ordered = o.typ, o.level, text, o.ordered
	if o.typ != TypeHeading && o.typ != TypeListItem {
		d.Level = 0
	}
	if o.node >= 0 {
		n := &b.t.nodes[o.node]
		d.Source, d.Path = n.Source, n.Path
	} else {
		d.Source = "static"
	}
	b.blocks = append(b.blocks, d)
	return len(b.blocks) - 1
}

// zoneAt returns the zone of the owner element: the zone stack entry that
// was pushed when it was entered. Owners are always on the stack while
// their text is flushed, except for the root owner.
func (b *builder) zoneAt(node int) zone {
	for k := len(b.zones) - 1; k >= 0; k-- {
		if b.zones[k].node == node {
			return b.zones[k]
		}
	}
	return b.zone()
}

func (b *builder) walkLink(i int) {
	n := &b.t.nodes[i]
	href := n.Attrs["href"]
	start, run := b.buf.Len(), b.runs
	firstRun := len(b.linkRuns)
	b.inLink++
	b.children(i)
	b.inLink--
	if !linkHref(href) {
		return
	}
	b.addInline(InlineLink, start, run, href)
	text := cleanInline(b.buf.String()[min(start, b.buf.Len()):])
	if text == "" {
		text = firstNonEmpty(n.Attrs["aria-label"], n.Attrs["title"], b.imgAlt(i))
	}
	l := posLink{pos: len(b.blocks), block: -1, zone: b.zone()}
	l.Text, l.Href, l.Rel = text, href, n.Attrs["rel"]
	l.External = external(b.base, href)
	b.links = append(b.links, l)
	if b.buf.Len() > 0 {
		off := start
		if firstRun < len(b.linkRuns) {
			off = b.linkRuns[firstRun].off
		}
		b.pendLinks = append(b.pendLinks, pending{n: len(b.links) - 1, off: off})
	}
}

func (b *builder) imgAlt(i int) string {
	for _, c := range b.t.children[i] {
		if b.t.nodes[c].Tag == "img" {
			return b.t.nodes[c].Attrs["alt"]
		}
	}
	return ""
}

// addLatent records the text under a hidden element as one latent entry.
func (b *builder) addLatent(i int) {
	n := &b.t.nodes[i]
	text := b.t.rawText(i)
	if n.Tag == "#text" {
		text = strings.TrimSpace(n.Text)
	}
	if text == "" {
		return
	}
	parent := n.Parent
	if k := len(b.latent) - 1; k >= 0 {
		last := &b.latent[k]
		if last.parent == parent && last.Reason == n.Hidden && last.pos == len(b.blocks) && b.buf.Len() == 0 {
			last.more = append(append(last.more, '\n'), text...)
			mergeLatentPlace(b.t, i, &last.Latent)
			return
		}
	}
	if len(b.latent) >= b.maxLatent {
		b.cutLatent++
		return
	}
	l := posLatent{pos: len(b.blocks), parent: parent}
	l.Trust, l.Text, l.Reason, l.Rule = TrustMarker, text, n.Hidden, n.HiddenRule
	l.Path = n.Path
	if l.Path == "" && parent >= 0 {
		l.Path = b.t.nodes[parent].Path
	}
	pdfLatentPlace(b.t, i, &l.Latent)
	b.latent = append(b.latent, l)
}

func (b *builder) detailsGap(i int) {
	if b.t.attr(i, "open") != "" || !b.hasHiddenChild(i) {
		return
	}
	label := ""
	for _, c := range b.t.children[i] {
		if b.t.nodes[c].Tag == "summary" {
			label = b.t.textOf(c)
			break
		}
	}
	if label == "" {
		label = "details"
	}
	b.gaps = append(b.gaps, Gap{Label: label, Kind: "collapsed_panel",
		Reason: "closed <details> panel: a static read does not open it; its text is quarantined in latent[]"})
}

func (b *builder) hasHiddenChild(i int) bool {
	for _, c := range b.t.children[i] {
		if b.t.nodes[c].Hidden == normalize.HiddenDetails {
			return true
		}
	}
	return false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

func atoiDefault(s string, d int) int {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return d
	}
	return v
}
