package graph

import (
	"strings"
	"testing"
)

// prose is a paragraph long enough to count as an article's running text.
func prose(tag string) string {
	return "The " + tag + " paragraph tells a long story about rivers, bridges and the towns between them, with enough words to read as prose, not a label."
}

// roleOf returns the role of the first block whose text starts with prefix.
func roleOf(t *testing.T, g *Record, prefix string) string {
	t.Helper()
	for _, b := range g.Blocks {
		if strings.HasPrefix(b.Text, prefix) {
			return b.Role
		}
	}
	t.Fatalf("no block starts with %q", prefix)
	return ""
}

func TestClassifierRules(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		content []string // text prefixes that must be content
		chrome  []string // and chrome
	}{{
		name: "main inside a wrapper named for navigation is content",
		body: `<div class="left-navigation_page-wrapper"><ul class="menu"><li><a href="/a">Home</a></li><li><a href="/b">News</a></li></ul>
<main><p>` + prose("first") + `</p><p>` + prose("second") + `</p></main></div>`,
		content: []string{"The first", "The second"},
		chrome:  []string{"Home"},
	}, {
		name: "a cookie dialog with more text than the article is not the container",
		body: `<div class="cookie-consent-wrap" role="dialog"><p>` + prose("cookie one") + `</p><p>` + prose("cookie two") + `</p><p>` + prose("cookie three") + `</p></div>
<div><p>` + prose("first") + `</p><p>` + prose("second") + `</p></div>`,
		content: []string{"The first", "The second"},
		chrome:  []string{"The cookie one"},
	}, {
		name: "paragraphs each in their own wrapper widen the container to all of them",
		body: `<div class="feed"><div class="card"><div><p>` + prose("first") + `</p></div></div><div class="card"><div><p>` + prose("second") + `</p></div></div>
<div class="card"><div><p>` + prose("third, longer, with commas, clauses, and asides, that make it score best,") + `</p></div></div><div class="card"><div><p>` + prose("fourth") + `</p></div></div></div>
<footer><p>Contact us</p></footer>`,
		content: []string{"The first", "The second", "The third", "The fourth"},
		chrome:  []string{"Contact us"},
	}, {
		name: "loose text beside block elements scores its own container",
		body: `<div class="top"><a href="/">Home</a></div><div class="col"><div class="txt"><p>Dateline: Monday</p>` + prose("loose") + `<br><br>` + prose("second loose") + `<img src="x.png" alt=""></div></div>
<div class="footer-x"><p>Rua Walter 1111, Barra do Rio, phone 555-0100, open Monday to Friday from nine to five, closed on holidays and weekends.</p></div>`,
		content: []string{"The loose", "The second loose"},
	}, {
		name: "a page-builder widget class does not outvote prose, a share class beside it does",
		body: `<div class="elementor-widget-container"><p>` + prose("first") + `</p><p>` + prose("second") + `</p></div>
<div class="sharedaddy"><p>Share this: Twitter, Facebook</p></div>`,
		content: []string{"The first", "The second"},
		chrome:  []string{"Share this"},
	}, {
		name: "repeated captions, bare URLs, forms and rights notices inside the article are chrome",
		body: `<article><p>https://example.test/news/article-123.html</p><p>` + prose("first") + `</p>
<figure><figcaption>A long row of unsold cars sits in a dealer lot in the early morning, photographed from the road.</figcaption></figure>
<p>` + prose("second") + `</p>
<figure><figcaption>A long row of unsold cars sits in a dealer lot in the early morning, photographed from the road.</figcaption></figure>
<p>` + prose("third") + `</p><form><p>Time limit is exhausted. Please reload the page.</p><input name="q"></form>
<p>Materiał chroniony prawem autorskim - wszelkie prawa zastrzeżone.</p></article>`,
		content: []string{"The first", "The second", "The third", "A long row"},
		chrome:  []string{"https://example.test", "Time limit", "Materiał"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := buildHTML(t, "<!doctype html><html><head><title>T</title></head><body>"+c.body+"</body></html>")
			for _, p := range c.content {
				if r := roleOf(t, g, p); r != "content" {
					t.Errorf("%q is %s, want content", p, r)
				}
			}
			for _, p := range c.chrome {
				if r := roleOf(t, g, p); r != "chrome" {
					t.Errorf("%q is %s, want chrome", p, r)
				}
			}
			if t.Failed() {
				for _, b := range g.Blocks {
					t.Logf("%s %-7s %.50q %s", b.ID, b.Role, b.Text, b.Reason)
				}
			}
		})
	}
}

func TestRepeatedCaptionKeepsFirstCopy(t *testing.T) {
	caption := "A long row of unsold cars sits in a dealer lot in the early morning, photographed from the road."
	g := buildHTML(t, `<!doctype html><html><body><article><p>`+prose("first")+`</p><figure><figcaption>`+caption+`</figcaption></figure><p>`+prose("second")+`</p><figure><figcaption>`+caption+`</figcaption></figure></article></body></html>`)
	var roles []string
	for _, b := range g.Blocks {
		if b.Text == caption {
			roles = append(roles, b.Role)
		}
	}
	if strings.Join(roles, ",") != "content,chrome" {
		t.Errorf("caption copies are %v, want the first content and the second chrome", roles)
	}
}
