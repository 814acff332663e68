package graph

import (
	"strings"
	"testing"
)

// Rules of issue 24's fifth pass, each measured on all five evaluation
// sets (docs/BENCH.md).

// tocPage is an article whose table of contents links its own sections
// (href="#…"), beside a list of links to other pages.
func tocPage() string {
	return `<!doctype html><html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><div id="content"><h1>Rivers</h1>
<p>` + prose("opening") + `</p>
<ul class="contents"><li><a href="#history"><span>1</span> History</a></li><li><a href="#bridges"><span>2</span> Bridges and towns</a></li></ul>
<h2 id="history">History</h2><p>` + prose("history") + `</p>
<h2 id="bridges">Bridges and towns</h2><p>` + prose("bridges") + `</p>
<ul><li><a href="/other/page">Another page</a></li><li><a href="/more/pages">More pages</a></li></ul>
<p>` + prose("closing") + `</p></div></body></html>`
}

// A list of links into the page itself, inside the main content, is the
// article's table of contents (Readability keeps it; structure.py counts
// its items); a list of links to other pages stays a link list.
func TestTableOfContentsInsideTheArticle(t *testing.T) {
	g := buildHTML(t, tocPage())
	expectRoles(t, g, "content", "1 History", "2 Bridges and towns", "The history")
	expectRoles(t, g, "chrome", "Another page", "More pages", "Home")
	// The same entries linking to other pages are a menu.
	g = buildHTML(t, strings.NewReplacer(`href="#history"`, `href="/history"`, `href="#bridges"`, `href="/bridges"`).Replace(tocPage()))
	expectRoles(t, g, "chrome", "1 History", "2 Bridges and towns")
}

// One in-page link alone in a paragraph ("Continue reading the main
// story", skipping an ad) is not a table of contents.
func TestSkipLinkIsNotAContentsEntry(t *testing.T) {
	g := buildHTML(t, `<!doctype html><html><body><div id="content"><p>`+prose("first")+`</p>
<p><a href="#story-continues">Continue reading the main story</a></p><p id="story-continues">`+prose("second")+`</p></div></body></html>`)
	expectRoles(t, g, "content", "The first", "The second")
	expectRoles(t, g, "chrome", "Continue reading the main story")
}

// wrappedArticle is one <article> inside a page wrapper that also holds,
// after it, the site's "more from" teasers and a sign-up box.
func wrappedArticle() string {
	return `<!doctype html><html><body><div id="root"><div><h1>Profiling on production</h1>
<p>` + prose("standfirst") + `</p>
<article><section>` + paragraphs("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "last") + `</section></article>
</div><div><h2>More from the blog</h2><h4>Request tracing in practice</h4><h4>827</h4>
<div><h4>Discover the site</h4><p>Welcome to a place where words matter. On this site, smart voices and original ideas take center stage, with no ads in sight.</p></div></div></div></body></html>`
}

func paragraphs(tags ...string) string {
	var b strings.Builder
	for _, tag := range tags {
		b.WriteString("<p>" + prose(tag) + "</p>")
	}
	return b.String()
}

// What the page wrapper holds after the one article that holds the
// best-scoring text and nearly all the prose is the wrapper's chrome;
// what it holds before it (the standfirst) stays.
func TestAfterTheArticleInItsWrapper(t *testing.T) {
	g := buildHTML(t, wrappedArticle())
	expectRoles(t, g, "content", "The standfirst", "The first", "The last")
	expectRoles(t, g, "chrome", "More from the blog", "Request tracing", "Welcome to a place")
}
