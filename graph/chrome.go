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
	main    bool   // inside <main> / role=main
	article bool   // inside <article> / role=article / itemprop=articleBody
}

// enter returns the zone of element i given its parent's zone z.
func (z zone) enter(t *tree, i int) zone {
	n := &t.nodes[i]
	z.node = i
	switch {
	case n.Tag == "main" || n.Role == "main":
		z.main = true
	case n.Tag == "article" || n.Role == "article" || n.Attrs["itemprop"] == "articleBody":
		z.article = true
	}
	if kind, why := landmarkChrome(n.Tag, n.Role, z.article || z.main); kind != "" {
		z.chrome, z.reason, z.signal = kind, why, i
		return z
	}
	if kind, tok := tokenChrome(t.tokens[i]); kind != "" {
		// A class name is a weaker signal than a landmark: inside the main
		// article it only counts for kinds that never carry the article.
		if !(z.article || z.main) || strongInsideArticle[kind] {
			z.chrome, z.reason, z.signal = kind, "class/id \""+tok+"\"", i
		}
	}
	return z
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
	"newsletter": "promo", "subscribe": "promo", "signup": "promo",
	"modal": "overlay", "popup": "overlay", "overlay": "overlay",
}

// strongInsideArticle are kinds a class name may assign even inside the
// main article: nobody wraps article prose in a cookie banner.
var strongInsideArticle = map[string]bool{
	"cookie_banner": true, "share": true, "ad": true, "comments": true, "related": true,
	"overlay": true, "promo": true,
}

// contentWords neutralise a chrome word in the same class list
// ("article-header", "post-footer-content" are still about the article).
var contentWords = map[string]bool{
	"article": true, "content": true, "post": true, "entry": true, "story": true, "body": true, "main": true, "text": true,
}

func tokenChrome(tokens []string) (kind, tok string) {
	for _, w := range tokens {
		if contentWords[w] {
			return "", ""
		}
	}
	for _, w := range tokens {
		if k, ok := chromeWords[w]; ok {
			return k, w
		}
	}
	return "", ""
}

// classify decides content vs chrome for every block and says why. With a
// main-content container (classify.go) the container decides; without one
// the landmark rules alone do.
func (b *builder) classify(mainShare float64) {
	c := b.findContainer()
	for i := range b.blocks {
		d := &b.blocks[i]
		if c.node < 0 {
			d.Role, d.Chrome, d.Reason = decide(d, mainShare)
			continue
		}
		d.Role, d.Chrome, d.Reason = b.decideIn(&c, d)
	}
	b.textSignals()
}

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
	// (a "menu-push" page wrapper) is outvoted by the text inside it.
	if z.chrome != "" && !c.inside(b.t, c.core, z.signal) {
		return "chrome", z.chrome, z.reason
	}
	if kind, why := blockChrome(d); kind != "" {
		return "chrome", kind, why
	}
	return "content", "", "inside the main content " + c.desc
}

// blockChrome is what a block's own text says: a short run of links, or a
// copyright line.
func blockChrome(d *draft) (kind, reason string) {
	chars := utf8.RuneCountInString(d.Text)
	if chars > 0 && d.Type != TypeHeading {
		density := float64(d.linkChars) / float64(chars)
		if density >= 0.7 && chars < 300 {
			return "link_list", "mostly link text (" + ratio(density) + ")"
		}
	}
	if isBoilerplate(d.Text) {
		return "footer", "boilerplate line (copyright/rights notice)"
	}
	return "", ""
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
	return "content", "", "text block with no chrome signal"
}

func isBoilerplate(s string) bool {
	if utf8.RuneCountInString(s) > 200 {
		return false
	}
	l := strings.ToLower(s)
	return strings.Contains(l, "©") || strings.Contains(l, "all rights reserved") || strings.HasPrefix(l, "copyright ")
}

func ratio(f float64) string {
	p := int(f*100 + 0.5)
	return itoa(p) + "% of its text is links"
}
