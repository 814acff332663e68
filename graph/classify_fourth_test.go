package graph

import (
	"slices"
	"strings"
	"testing"
)

// Rules of issue 24's fourth pass, each measured on all five evaluation
// sets (docs/QUALITY.md).

// A short upper-case prefix before a class word ("SSpopup", a site's
// namespace) leaves the word readable: a hidden dialog's text is chrome.
// Long upper-case runs and camelCase split as before.
func TestPrefixedClassWords(t *testing.T) {
	for in, want := range map[string][]string{
		"SSpopup":      {"sspopup", "popup"},
		"NBcontainer":  {"nbcontainer", "container"},
		"HTMLParser":   {"htmlparser"},
		"siteFooter":   {"site", "footer"},
		"S popup":      {"s", "popup"},
		"SSpop_header": {"sspop", "pop", "header"},
	} {
		if got := classTokens(in); !slices.Equal(got, want) {
			t.Errorf("classTokens(%q) = %q, want %q", in, got, want)
		}
	}
	g := buildHTML(t, `<!doctype html><html><body><div><h1>Jobs in Leeds</h1><p>`+prose("listing")+`</p><p>`+prose("second")+`</p>
<div class="SSshadowing"><div class="SSpopup"><p>You have the maximum number of saved searches. Delete one of your other searches first.</p></div></div>
<p>`+prose("closing")+`</p></div></body></html>`)
	expectRoles(t, g, "content", "The listing", "The closing")
	expectRoles(t, g, "chrome", "You have the maximum")
}

// sectionFront is a page of linked teasers inside a wrapper whose id names
// an ad slot (id="outerAd" around all but the masthead): no article, so
// its teasers are its text; the masthead's menu in <nav> stays chrome.
func sectionFront() string {
	var teasers strings.Builder
	for _, s := range []string{"Twists in the tale of Peter's friend", "Beyond the realms of Moominland", "Nostalgia for a golden age", "Ghosts of writers past"} {
		teasers.WriteString(`<div class="absRow"><h3><a href="/r/` + s[:5] + `">` + s + `</a></h3><p><a href="/r/` + s[:5] + `">A review of a book about ` + s + `, and why it matters this winter.</a></p></div>`)
	}
	return `<!doctype html><html><body><nav><a href="/">Home</a> <a href="/jobs">Jobs</a> <a href="/cars">Cars</a></nav>
<div id="outerAd"><div id="main"><h1>Books</h1>` + teasers.String() + `</div></div></body></html>`
}

func TestSectionFrontOfLinkedTeasers(t *testing.T) {
	g := buildHTML(t, sectionFront())
	expectRoles(t, g, "content", "A review of a book about Twists", "A review of a book about Ghosts")
	expectRoles(t, g, "chrome", "Home")
	// With an article beside them, the same teasers are a teaser list.
	page := strings.Replace(sectionFront(), `<h1>Books</h1>`, `<h1>Books</h1><p>`+prose("review")+`</p><p>`+prose("second")+`</p>`, 1)
	g = buildHTML(t, page)
	expectRoles(t, g, "content", "The review")
	expectRoles(t, g, "chrome", "A review of a book about Twists")
}
