package graph

import (
	"strings"
	"testing"
)

// Rules of issue 24's second pass, each found in the per-page losses of
// the evaluation sets and kept only when all five agreed (docs/QUALITY.md).

// A short line before the article's first prose paragraph is its edge (a
// byline, a date) only when it does not sit between text the article
// keeps: between two of an article's short list items it is the article's.
func TestShortLineAmidItemsBeforeTheFirstParagraphStays(t *testing.T) {
	g := buildHTML(t, `<!doctype html><html><body><article><h1>Selling your home</h1><p>By Jane Doe</p>
<ul><li>Fast</li><li>For top dollar</li></ul>
<p>Most owners are unhappy with their agent</p>
<ul><li>Bang a sign into the lawn</li><li>Put an ad in the paper</li></ul>
<p>`+prose("first")+`</p><p>`+prose("second")+`</p></article></body></html>`)
	expectRoles(t, g, "content", "Most owners are unhappy", "Fast", "Bang a sign", "The first")
	expectRoles(t, g, "chrome", "By Jane Doe")
}

// A page that is nothing but links, with no region that claims them, reads
// as its links rather than as an empty page; links in a <nav> stay chrome.
func TestLinksOnlyPageKeepsItsLinks(t *testing.T) {
	g := buildHTML(t, `<!doctype html><html><body><a href="javascript:"><p>abc</p><p>def</p>ghi</a></body></html>`)
	expectRoles(t, g, "content", "abc", "def")
	g = buildHTML(t, `<!doctype html><html><body><nav><a href="/">Home</a> <a href="/about">About</a></nav><p><a href="/b">Another page</a></p></body></html>`)
	expectRoles(t, g, "chrome", "Home", "Another page")
}

// A long paragraph written twice in a row as text-only <div>s (no <p>)
// stays twice, like two such <p>s.
func TestRepeatedDivParagraphStays(t *testing.T) {
	long := strings.TrimSpace(strings.Repeat(prose("repeated")+" ", 2))
	g := buildHTML(t, `<!doctype html><html><body><article><h1>On rivers</h1><div>`+long+`</div><div>`+long+`</div></article></body></html>`)
	if roles := rolesOf(g, long); roles != "content,content" {
		t.Errorf("copies of a long text <div> are %v, want content,content", roles)
	}
}

// A photo credit with a © sign before a long caption is the caption, not
// a rights notice; a long line that opens with © and speaks of rights is.
func TestCopyrightSignBeforeACaptionIsNoRightsNotice(t *testing.T) {
	caption := "© Provided by Business Insider Inc Nintendo/Apple " + strings.Repeat("Nintendo and Apple shocked the world earlier this year with a new game for phones. ", 3)
	if isBoilerplate(caption) {
		t.Errorf("a long caption after a photo credit is read as a rights notice: %q", caption)
	}
	notice := "© 2022, Example News. This article is the copyrighted property of Example News. Written permission must be obtained before reprint in online or print media, and any reproduction without it is forbidden."
	if !isBoilerplate(notice) {
		t.Errorf("a long rights notice is not read as one: %q", notice)
	}
}

// A short headless table whose text is much of it links is the page's
// layout grid of menus; a table that heads its rows (an infobox) is data,
// however many of its cells link.
func TestLinkGridTableIsChrome(t *testing.T) {
	g := buildHTML(t, `<!doctype html><html><body><table><tr><td>
<table><tr><td>PRESCHOOL PROGRAMS BY TYPE -<a href="/a">Magnet preschools</a></td><td>K-8 PROGRAMS -<a href="/b">Academic centers</a> -<a href="/c">Classical schools</a></td></tr></table>
<p>`+prose("first")+`</p><p>`+prose("second")+`</p>
<table><tr><th>Founder</th><td><a href="/n">Netscape Communications</a></td></tr><tr><th>Industry</th><td><a href="/o">Open-source software</a></td></tr></table>
</td></tr></table></body></html>`)
	expectRoles(t, g, "chrome", "PRESCHOOL PROGRAMS")
	expectRoles(t, g, "content", "The first", "Founder")
}
