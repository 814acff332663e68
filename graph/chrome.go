package graph

import (
	"strings"
	"unicode/utf8"
)

// zone is what an element's ancestry says about content vs chrome: the
// innermost chrome signal, and whether it lies inside the page's main
// content landmark.
type zone struct {
	node    int
	chrome  string // chrome kind, "" when no ancestor signals chrome
	signal  int    // the element that gave the chrome signal
	reason  string // the signal, for the block's reason
	byClass bool   // the signal is a class/id word, not a landmark or role
	// weak: a class/id word that prose under the element can outvote (a
	// region word, or any chrome word beside a content word)
	weak    bool
	main    bool // inside <main> / role=main
	article bool // inside <article> / role=article / itemprop=articleBody
}

// enter returns the zone of element i given its parent's zone z.
func (z zone) enter(t *tree, i int) zone {
	n := &t.nodes[i]
	z.node = i
	switch {
	case n.Tag == "main" || n.Role == "main":
		// The innermost signal wins: a main landmark inside a wrapper
		// with a chrome word ("left-navigation_page-wrapper") is content.
		z.main, z.chrome, z.reason, z.byClass, z.weak = true, "", "", false, false
	case n.Attrs["itemprop"] == "articleBody":
		z.article, z.chrome, z.reason, z.byClass, z.weak = true, "", "", false, false
	case n.Tag == "article" || n.Role == "article":
		z.article = true
	}
	if kind, why := landmarkChrome(n.Tag, n.Role, z.article || z.main); kind != "" {
		z.chrome, z.reason, z.signal, z.byClass, z.weak = kind, why, i, false, false
		return z
	}
	if n.Tag == "body" || n.Tag == "html" {
		return z // their classes name the page's template and state ("cookies-not-set"), not a region
	}
	if kind, tok, mixed := tokenChrome(chromeTokens(t, i)); kind != "" {
		mixed = mixed || kind == "ad" && modifierOnly(n.Attrs["class"], n.Attrs["id"], tok)
		// A class name is a weaker signal than a landmark: inside the main
		// article it only counts for kinds that never carry the article,
		// and a weak one never replaces a strong one from outside (a
		// "sidebar_tab" inside a cookie dialog is still the dialog's).
		weak := mixed || !strongInsideArticle[kind]
		if (!(z.article || z.main) || strongInsideArticle[kind]) && !(weak && z.chrome != "" && !z.weak) {
			z.chrome, z.reason, z.signal, z.byClass = kind, "class/id \""+tok+"\"", i, true
			z.weak = weak
		}
	}
	return z
}

// chromeTokens are the class/id words of element i that may name a region:
// all of them, but for an id that spells out the element's own heading (a
// section anchor, as documentation generators write
// id="sharing-with-a-single-developer" around "Sharing with a single
// developer"), which names the section and says nothing about its role.
func chromeTokens(t *tree, i int) []string {
	id := t.nodes[i].Attrs["id"]
	if !strings.ContainsAny(id, "-_") || !headingAnchor(t, i, id) {
		return t.tokens[i]
	}
	return appendClassTokens(nil, t.nodes[i].Attrs["class"])
}

// headingAnchor reports whether id's words are the words of element i's
// first child element, a heading (a trailing number, as in "setting-up-1",
// aside).
func headingAnchor(t *tree, i int, id string) bool {
	h := -1
	for _, c := range t.children[i] {
		if t.nodes[c].Tag != "#text" {
			h = c
			break
		}
	}
	if h < 0 || t.nodes[h].Level == 0 {
		return false
	}
	head := appendClassTokensRunes(nil, strings.ToLower(t.textOf(h)))
	words := appendClassTokens(nil, strings.ToLower(id))
	if n := len(words); n > 2 && isDigits(words[n-1]) {
		words = words[:n-1]
	}
	if len(words) < 2 || len(words) != len(head) {
		return false
	}
	for k := range words {
		if words[k] != head[k] {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// modifierOnly reports that word appears in the class list only as a BEM
// modifier and not in the id. For ad words that is a weak signal,
// outvoted by prose: "TestReport__Section--Ads" is a section variant that
// hosts ad slots, not an ad ("list--related", by contrast, is a related
// list, so other kinds keep their strength).
func modifierOnly(class, id, word string) bool {
	if strings.Contains(strings.ToLower(id), word) {
		return false
	}
	l := strings.ToLower(class)
	found := false
	for rest := l; ; {
		j := strings.Index(rest, word)
		if j < 0 {
			return found
		}
		end := j + len(word)
		if end < len(rest) && isLowerASCII(rest[end]) {
			rest = rest[end:]
			continue
		}
		if !strings.HasSuffix(rest[:j], "--") {
			return false
		}
		found, rest = true, rest[end:]
	}
}

// landmarkChrome maps landmark elements and ARIA roles to chrome kinds.
// header and footer inside an article or main belong to it.
func landmarkChrome(tag, role string, inContent bool) (kind, why string) {
	switch {
	case tag == "nav" || role == "navigation":
		return "navigation", "inside <nav>/role=navigation"
	case role == "banner" || (tag == "header" && !inContent):
		return "header", "inside page <header>/role=banner"
	case role == "contentinfo" || (tag == "footer" && !inContent):
		return "footer", "inside page <footer>/role=contentinfo"
	case tag == "aside" || role == "complementary":
		return "sidebar", "inside <aside>/role=complementary"
	case role == "search" || tag == "search":
		return "search", "inside role=search"
	case role == "dialog" || role == "alertdialog":
		return "overlay", "inside role=dialog"
	}
	return "", ""
}

// chromeWords maps class/id words to chrome kinds.
var chromeWords = map[string]string{
	"nav": "navigation", "navbar": "navigation", "navigation": "navigation", "menu": "navigation",
	"breadcrumb": "navigation", "breadcrumbs": "navigation", "pagination": "navigation", "pager": "navigation",
	"skip": "navigation", "toc": "navigation",
	"header": "header", "masthead": "header", "topbar": "header",
	"footer": "footer", "colophon": "footer", "copyright": "footer",
	"sidebar": "sidebar", "widget": "sidebar", "widgets": "sidebar", "rail": "sidebar",
	"cookie": "cookie_banner", "cookies": "cookie_banner", "consent": "cookie_banner", "gdpr": "cookie_banner",
	"share": "share", "sharing": "share", "social": "share", "sharebar": "share",
	"related": "related", "recommended": "related", "popular": "related", "trending": "related",
	"comments": "comments", "comment": "comments", "disqus": "comments",
	"ad": "ad", "ads": "ad", "advert": "ad", "advertisement": "ad", "sponsor": "ad", "sponsored": "ad",
	"promo": "ad", "dfp": "ad", "banner": "header",
	"newsletter": "promo", "subscribe": "promo", "signup": "promo", "cta": "promo",
	"modal": "overlay", "popup": "overlay", "overlay": "overlay",
	"byline": "byline", "author": "byline", "authors": "byline", "bio": "byline", "authorbox": "byline",
	"meta": "meta", "postmeta": "meta", "tags": "meta", "categories": "meta", "taxonomy": "meta",
	"credit": "credit", "credits": "credit", "likes": "share", "sharedaddy": "share",
}

// strongInsideArticle are kinds a class name may assign even inside the
// main article: nobody wraps article prose in a cookie banner.
var strongInsideArticle = map[string]bool{
	"cookie_banner": true, "share": true, "ad": true, "comments": true, "related": true,
	"overlay": true, "promo": true, "byline": true, "meta": true, "credit": true,
}

// contentWords neutralise a chrome word in the same class list
// ("article-header", "post-footer-content" are still about the article).
var contentWords = map[string]bool{
	"article": true, "content": true, "post": true, "entry": true, "story": true, "body": true, "main": true, "text": true,
}

// compoundPrefixes are strong chrome words that also name chrome when a
// class runs them together with more words ("relatedpoststitle",
// "commentslist", "newsletterbox"). Only words no content word begins
// with: "comment" would take "commentary", "share" "shareholders".
var compoundPrefixes = []string{"related", "comments", "newsletter", "cookie", "consent", "sharing", "social"}

// compoundChrome is the kind a compound class word names by its prefix.
func compoundChrome(w string) (kind, prefix string) {
	for _, p := range compoundPrefixes {
		if len(w) > len(p) && strings.HasPrefix(w, p) {
			if k, ok := chromeWords[p]; ok {
				return k, p
			}
		}
	}
	return "", ""
}

// tokenChrome is the chrome kind a class/id list names; a strong kind
// (what sits beside the prose) wins over a region word in the same list
// ("zone-widget cta-letter" is a promo). A content word neutralises the
// kinds that name page regions ("article-header") but not the strong ones
// ("post-tags", "entry-share", "article-comments").
func tokenChrome(tokens []string) (kind, tok string, mixed bool) {
	content := false
	for _, w := range tokens {
		content = content || contentWords[w]
	}
	for _, w := range tokens {
		if k, ok := chromeWords[w]; ok && strongInsideArticle[k] {
			return k, w, content
		}
	}
	for _, w := range tokens {
		if k, p := compoundChrome(w); k != "" {
			return k, p, content
		}
	}
	if content {
		return "", "", false
	}
	for _, w := range tokens {
		if k, ok := chromeWords[w]; ok {
			return k, w, false
		}
	}
	return "", "", false
}

// classify decides content vs chrome for every block and says why. With a
// main-content container (classify.go) the container decides; without one
// the landmark rules alone do. It returns the container (node -1 for none).
func (b *builder) classify(mainShare float64) container {
	c := b.findContainer()
	if b.pdf {
		// A PDF has no site chrome around one article: every page is the
		// document, so no page section is picked as the main content
		// (running headers and footers are marked by normalize and decided
		// by their zone, like any block).
		c.node = -1
	}
	inProse, allProse := 0, 0
	for i := range b.blocks {
		d := &b.blocks[i]
		if c.node < 0 {
			d.Role, d.Chrome, d.Reason = decideWrapped(&c, d, mainShare)
			if b.pdf && d.Role == "content" && d.Reason == noSignal {
				d.Reason = "a page of the PDF (every page is the document)"
			}
			continue
		}
		d.Role, d.Chrome, d.Reason = b.decideIn(&c, d)
		recipe := len(c.recipe) > 0 && c.inRecipe(b.t, d.node)
		if recipe {
			if b.inRecipe == nil {
				b.inRecipe = make([]bool, len(b.blocks))
			}
			b.inRecipe[i] = true
		}
		if isProse(d) {
			if d.Role == "content" && !recipe {
				inProse += utf8.RuneCountInString(d.Text)
			}
			if role, _, _ := decide(d, mainShare); role == "content" {
				allProse += utf8.RuneCountInString(d.Text)
			}
		}
	}
	if c.node >= 0 {
		b.keepLede(&c)
	}
	// Like trafilatura's fallback: a container that holds little of the
	// prose the landmark rules would keep picked a fragment (a teaser, a
	// caption box); the landmark rules decide instead.
	if c.node >= 0 && inProse < fallbackChars && allProse >= 2*inProse+proseMinChars {
		for i := range b.blocks {
			d := &b.blocks[i]
			d.Role, d.Chrome, d.Reason = decide(d, mainShare)
		}
	} else if c.node >= 0 {
		b.besideColumn(&c)
	}
	b.trimRails(&c)
	b.textSignals()
	b.keepLinksOnly(&c)
	return c
}

// decideWrapped is decide, but a class/id chrome word on an element that
// wraps nearly the whole page (wrapsPage) says nothing about the blocks
// under it, as decideIn has it with a container.
func decideWrapped(c *container, d *draft, mainShare float64) (role, kind, reason string) {
	if !c.wrapsPage(d.zone) {
		return decide(d, mainShare)
	}
	z := d.zone
	d.zone.chrome = ""
	role, kind, reason = decide(d, mainShare)
	d.zone = z
	return role, kind, reason
}

// keepLinksOnly keeps the blocks dropped only for being links when the
// rules keep next to nothing and no region signal claims them: a page
// that is nothing but links (one link wrapped around its paragraphs, a
// section front of linked teasers) reads as those links, not as an empty
// page. Beside a region (a <nav>) only sentence-long links count, not a
// menu's one- or two-word items. A chrome word on an element that wraps
// nearly the whole page (wrapsPage) claims nothing.
func (b *builder) keepLinksOnly(c *container) {
	kept, regions := 0, false
	for i := range b.blocks {
		d := &b.blocks[i]
		regions = regions || d.zone.chrome != "" && !c.wrapsPage(d.zone)
		if d.Role == "content" && d.Type != TypeHeading {
			if kept += utf8.RuneCountInString(d.Text); kept >= linksOnlyMaxChars {
				return
			}
		}
	}
	for i := range b.blocks {
		d := &b.blocks[i]
		if !linkDropped(d) || d.zone.chrome != "" && !c.wrapsPage(d.zone) || regions && len(strings.Fields(d.Text)) < teaserMinWords {
			continue
		}
		d.Role, d.Chrome, d.Reason = "content", "", "the page holds next to nothing but links and no chrome signal: its links are its text"
	}
}

// teaserMinWords is the fewest words of a linked teaser, beside a region
// signal, that the links-only rule keeps.
const teaserMinWords = 4

// linksOnlyMaxChars is the content text below which a page counts as
// holding nothing but links.
const linksOnlyMaxChars = 200

// linkDropped reports whether a block was dropped for its links alone: a
// run of link text, or a teaser of a list of them.
func linkDropped(d *draft) bool {
	return d.Chrome == "link_list" || d.Chrome == "related" || d.Chrome == "teaser"
}

// fallbackChars is the prose below which a container's pick is checked
// against the landmark rules.
const fallbackChars = 1000

// decideIn labels a block against the main-content container.
func (b *builder) decideIn(c *container, d *draft) (role, kind, reason string) {
	z := d.zone
	if !c.holds(b.t, d.node) {
		if z.chrome != "" {
			return "chrome", z.chrome, z.reason
		}
		return "chrome", "outside_content", "outside the main content " + c.desc
	}
	// A chrome word on an element that wraps the best-scoring container
	// (a "menu-push" page wrapper) is outvoted by the text inside it, and
	// so is a weak one (a page-builder "widget", a "header" div) on an
	// element inside the container that holds prose, and one on an element
	// that wraps nearly the whole page.
	if z.chrome != "" && !c.inside(b.t, c.core, z.signal) && !c.outvoted(z) && !c.wrapsPage(z) {
		return "chrome", z.chrome, z.reason
	}
	if kind, why := blockChrome(d, b.base); kind != "" {
		return "chrome", kind, why
	}
	if f := b.formAround(d.node); f >= 0 && !c.inside(b.t, c.core, f) {
		return "chrome", "form", "inside a <form> within the content (a comment or signup form)"
	}
	if c.tailFrom > 0 && d.node >= c.tailFrom && !c.inside(b.t, d.node, c.article) && !c.insideAny(b.t, d.node, c.siblings) {
		return "chrome", "outside_content", "after the article, in the page wrapper around it"
	}
	return "content", "", "inside the main content " + c.desc
}

// blockChrome is what a block's own text says: a short run of links, a
// layout grid of links (linkTable), or a copyright line.
func blockChrome(d *draft, base string) (kind, reason string) {
	chars := utf8.RuneCountInString(d.Text)
	if chars > 0 && d.Type != TypeHeading && !(d.Type == TypeListItem && inPageLinks(d, base)) {
		density := float64(d.linkChars) / float64(chars)
		if density >= 0.7 && chars < 300 || linkTable(d, density, chars) {
			return "link_list", "mostly link text (" + ratio(density) + ")"
		}
	}
	if isBoilerplate(d.Text) {
		return "footer", "boilerplate line (copyright/rights notice)"
	}
	return "", ""
}

// inPageLinks reports whether every link of a block points into the page
// itself (href="#History", resolved against the page's URL base). A list
// item of such links inside the main content is an entry of the article's
// table of contents, which leads nowhere else, not a menu of other pages
// (a lone "Continue reading" paragraph that skips an ad is not an entry).
func inPageLinks(d *draft, base string) bool {
	page, _, _ := strings.Cut(base, "#")
	n := 0
	for _, in := range d.Inline {
		if in.Kind != InlineLink {
			continue
		}
		doc, frag, ok := strings.Cut(in.Href, "#")
		if !ok || frag == "" || doc != "" && doc != page {
			return false
		}
		n++
	}
	return n > 0
}

// linkTable reports whether a table block is a page's layout grid of
// menus: short, its text much of it links, and no header cells. A data
// table (an infobox, a list of releases) heads its columns or rows.
func linkTable(d *draft, density float64, chars int) bool {
	return d.Type == TypeTable && density >= linkTableDensity && chars < linkTableMaxChars && !headedTable(d)
}

// The link density from which a short headless table is a grid of menus
// (a menu of a few words per link carries labels between its links).
const (
	linkTableDensity  = 0.45
	linkTableMaxChars = 600
)

// headedTable reports whether a table has header cells.
func headedTable(d *draft) bool {
	for _, row := range d.Rows {
		for _, c := range row {
			if c.Header {
				return true
			}
		}
	}
	return false
}

func decide(d *draft, mainShare float64) (role, kind, reason string) {
	z := d.zone
	if z.chrome != "" {
		if d.Type == TypeHeading && d.Level == 1 && z.chrome == "header" {
			return "content", "", "page heading (h1) in the page header"
		}
		return "chrome", z.chrome, z.reason
	}
	if mainShare >= 0.5 && !z.main {
		if d.Type == TypeHeading && d.Level == 1 {
			return "content", "", "page heading (h1)"
		}
		return "chrome", "outside_main", "outside <main>, which holds most of the text"
	}
	chars := utf8.RuneCountInString(d.Text)
	if chars > 0 && d.Type != TypeHeading {
		density := float64(d.linkChars) / float64(chars)
		inContent := z.main || z.article
		if (!inContent && density >= 0.7 && chars < 300) || (inContent && density >= 0.95 && d.Type == TypeListItem && chars < 120) {
			return "chrome", "link_list", "mostly link text (" + ratio(density) + ")"
		}
	}
	if isBoilerplate(d.Text) && !z.article {
		return "chrome", "footer", "boilerplate line (copyright/rights notice)"
	}
	switch {
	case z.article:
		return "content", "", "inside the article"
	case z.main:
		return "content", "", "inside <main>"
	}
	return "content", "", noSignal
}

// formAround returns the nearest <form> element around node i, or -1.
func (b *builder) formAround(i int) int {
	for ; i >= 0; i = b.t.nodes[i].Parent {
		if b.t.nodes[i].Tag == "form" {
			return i
		}
	}
	return -1
}

// rightsReserved is the rights notice in the languages of the pages sieve
// meets most.
var rightsReserved = []string{
	"all rights reserved", "alle rechte vorbehalten", "tous droits réservés", "todos los derechos reservados",
	"tutti i diritti riservati", "wszelkie prawa zastrzeżone", "alle rechten voorbehouden", "todos os direitos reservados",
}

// isBoilerplate is a rights notice: a line of up to 200 characters that
// carries one, or up to 400 that opens with it and speaks of rights ("©
// 2022, Site. This article is the copyrighted property of …"; a photo's
// "© Provided by Agency" before a long caption is the caption).
func isBoilerplate(s string) bool {
	n := utf8.RuneCountInString(s)
	if n > 400 {
		return false
	}
	l := strings.ToLower(s)
	if n > 200 {
		return strings.HasPrefix(l, "copyright ") || strings.HasPrefix(l, "©") && speaksOfRights(l)
	}
	if strings.Contains(l, "©") || strings.HasPrefix(l, "copyright ") {
		return true
	}
	for _, p := range rightsReserved {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// speaksOfRights reports whether lower-cased text l names copyright or
// a rights notice beyond its © sign.
func speaksOfRights(l string) bool {
	if strings.Contains(l, "copyright") || strings.Contains(l, "rights") {
		return true
	}
	for _, p := range rightsReserved {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

func ratio(f float64) string {
	p := int(f*100 + 0.5)
	return itoa(p) + "% of its text is links"
}

// ledeGap is how many blocks may separate a lede from the content's first
// block: a headline, a byline, a date, an image.
const ledeGap = 6

// keepLede keeps the prose paragraphs just before the main content, in the
// container's parent, that no chrome signal claims: the standfirst beside
// the element that holds the article's body. A block with a chrome signal
// of its own ends the search; an image's caption is not a lede.
func (b *builder) keepLede(c *container) {
	first := -1
	for i := range b.blocks {
		if b.blocks[i].Role == "content" {
			first = i
			break
		}
	}
	for k := first - 1; k >= 0 && k >= first-ledeGap; k-- {
		d := &b.blocks[k]
		if d.Chrome != "outside_content" {
			return
		}
		if isProse(d) && !b.inFigure(d.node) && c.inside(b.t, d.node, b.t.nodes[c.node].Parent) {
			d.Role, d.Chrome, d.Reason = "content", "", "lede just before the main content"
		}
	}
}

// inFigure reports whether element i lies in a <figure> or <figcaption>:
// an image's caption, not a lede.
func (b *builder) inFigure(i int) bool {
	for ; i >= 0; i = b.t.nodes[i].Parent {
		if tag := b.t.nodes[i].Tag; tag == "figure" || tag == "figcaption" {
			return true
		}
	}
	return false
}

// noSignal is the reason of a block no rule said anything about.
const noSignal = "text block with no chrome signal"
