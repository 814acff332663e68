package graph

import (
	"strings"
	"testing"
)

func TestPrecisionRules(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		content []string // text prefixes that must be content
		chrome  []string // and chrome
	}{{
		name: "a heading over a link list is chrome on a page without prose",
		body: `<div id="page"><ul><li><a href="/a">Home</a></li><li><a href="/b">Recent changes</a></li></ul>
<h2>Calls after the basic step</h2><ul><li><a href="/c">La Cucaracha</a></li><li><a href="/d">Barrea</a></li></ul>
<h2>Figures</h2><ul><li>Enchufla: the leader turns the follower under the arm</li><li>Dile que no: the couple changes sides</li>
<li>Vacilala: the follower turns twice</li><li>Exhibela: the leader shows the follower</li></ul>
<table><tr><td>Enchufla</td><td>1</td></tr><tr><td>Dile que no</td><td>2</td></tr><tr><td>Vacilala</td><td>3</td></tr><tr><td>Exhibela</td><td>4</td></tr></table></div>`,
		content: []string{"Figures", "Enchufla: the leader"},
		chrome:  []string{"Calls after the basic step", "La Cucaracha"},
	}, {
		name: "a sentence-long heading before the byline is the lede, not chrome",
		body: `<article><h2>Risks and side effects come not only with medicines but also with the political measures taken against a pandemic.</h2>
<p class="author"><a href="/a">Christoph Ritter</a></p><aside><h2>Read also</h2><p>A teaser of another story.</p></aside><p>` + prose("first") + `</p><p>` + prose("second") + `</p></article>`,
		content: []string{"Risks and side effects", "The first"},
	}, {
		name: "a short line between two chrome blocks is chrome",
		body: `<article><p>` + prose("first") + `</p><p>` + prose("second") + `</p><ul>
<li><a href="/x">No right to idleness on the government bench</a></li><li><div>Press release by Katja K.</div></li>
<li><a href="/y">Permanent construction site</a></li><li><div>In the words of Katja K.</div></li>
<li><a href="/z">End the continuity of terror</a></li></ul><p>` + prose("third") + `</p></article>`,
		content: []string{"The first", "The second", "The third"},
		chrome:  []string{"Press release by", "In the words of"},
	}, {
		name:    "a short line between images is not between chrome blocks",
		body:    `<article><p>` + prose("first") + `</p><img src="a.png" alt="[image]"><p>This is what it looks like on our blog:</p><img src="b.png" alt="[image]"><p>` + prose("second") + `</p></article>`,
		content: []string{"The first", "This is what it looks like", "The second"},
	}, {
		name: "a figure caption between chrome blocks stays",
		body: `<article><p>` + prose("first") + `</p><p><a href="/fb">Share on Facebook</a></p><figure><img src="a.png" alt=""><figcaption>Rust on the western shore of the lake</figcaption></figure>
<p class="credit">Photo: A. Gardener</p><p>` + prose("second") + `</p></article>`,
		content: []string{"The first", "Rust on the western shore", "The second"},
		chrome:  []string{"Share on Facebook", "Photo: A."},
	}, {
		name: "the heading of a box of links inside the article is chrome",
		body: `<article><p>` + prose("first") + `</p><div class="box"><h4>Read also</h4><ul><li><a href="/a">May I move my witch hazel?</a></li>
<li><a href="/b">Is witch hazel poisonous?</a></li></ul></div><p>` + prose("second") + `</p>
<div><h4>Flowers</h4><p>` + prose("third") + `</p></div></article>`,
		content: []string{"The first", "The second", "Flowers", "The third"},
		chrome:  []string{"Read also", "May I move"},
	}, {
		name: "a sentence-long heading in a box of chrome is a lede",
		body: `<article><div class="head"><h2>The facelift went well beyond the usual measures, so we took the car out for a long test drive this week.</h2>
<p class="author">By the editors</p></div><p>` + prose("first") + `</p><p>` + prose("second") + `</p></article>`,
		content: []string{"The facelift", "The first"},
	}, {
		name: "a linked heading after the last paragraph is a teaser's title",
		body: `<article><p>` + prose("first") + `</p><p>` + prose("second") + `</p>
<div><h3><a href="/other">The good must not come at the cost of the just</a></h3><p>Moral theologians criticise the model.</p></div></article>`,
		content: []string{"The first", "The second"},
		chrome:  []string{"The good must not"},
	}, {
		name: "a label ending in a colon over chrome is chrome, over content it stays",
		body: `<article><p>` + prose("first") + `</p><p>Also interesting:</p><p><a href="/a">Twenty thousand dream jobs in tech</a></p>
<p>` + prose("second") + `</p><p>The recipe needs:</p><ul><li>two eggs</li><li>one cup of flour</li></ul><p>` + prose("third") + `</p></article>`,
		content: []string{"The first", "The second", "The recipe needs", "two eggs"},
		chrome:  []string{"Also interesting", "Twenty thousand"},
	}, {
		name: "a teaser card inside the article is chrome; a post whose title links its permalink is not",
		body: `<div class="post"><a href="/post"><img src="p.png" alt="A photo"></a><h2><a href="/post">Our trip to the coast</a></h2><p>` + prose("first") + `</p><p>` + prose("second") + `</p>
<div class="box"><p>Further information</p><div class="card"><h2><a href="/faq">What you need to know</a></h2><p>The virus spreads. What must be done now? Answers to many questions. <a href="/faq">more</a></p></div></div>
<p>` + prose("third") + `</p></div>`,
		content: []string{"Our trip to the coast", "The first", "The third"},
		chrome:  []string{"What you need to know", "The virus spreads"},
	}, {
		name: "a small tail after the comments is chrome; a Comments button mid-article cuts nothing",
		body: `<div class="post"><p>` + prose("first") + `</p><p>` + prose("second") + `</p><p>` + prose("third") + `</p><p class="comments">Comments</p><p>` + prose("fourth") + `</p>
<div class="comments"><h3>2 comments</h3><p>Anna says: thank you for this fine tutorial, it helped me a lot with my thesis and my plots.</p><p>Ben says: same here, thanks!</p></div>
<p>I am the author. On this website I provide statistics tutorials as well as code in R and Python, with videos.</p></div>`,
		content: []string{"The first", "The fourth"},
		chrome:  []string{"Anna says", "I am the author"},
	}, {
		name: "a short line in a box of chrome is chrome, a figure caption beside its credit stays",
		body: `<article><p>` + prose("first") + `</p><div class="box"><p>Most read</p><ol><li><a href="/a">Will the lights go out soon?</a></li><li><a href="/b">Solar power for your own roof</a></li></ol></div>
<p>` + prose("second") + `</p><figure><img src="x.png" alt=""><figcaption><p>The hazel in winter</p><p class="credit">Photo: A. Gardener</p></figcaption></figure><p>` + prose("third") + `</p></article>`,
		content: []string{"The first", "The second", "The hazel in winter"},
		chrome:  []string{"Most read", "Will the lights"},
	}, {
		name: "a card of heading, summary and a read-more link after the article starts is chrome",
		body: `<main><p>` + prose("first") + `</p><p>` + prose("second") + `</p><h2>More on climate</h2>
<div class="card"><h3>Packaging waste and the climate crisis</h3><p>Oil companies swap one evil for another.</p><p><a href="/waste">Learn more</a></p></div>
<div class="card"><h3>What is Overshoot Day?</h3><p>The day humanity has used up a year of resources.</p><p><a href="/overshoot">Learn more</a></p></div></main>`,
		content: []string{"The first", "The second"},
		chrome:  []string{"More on climate", "Packaging waste", "Oil companies", "What is Overshoot"},
	}, {
		name: "a heading and its dek above the article's first paragraph are no card",
		body: `<article><div class="head"><h2>Layoffs begin today</h2><p>The chairman wrote to the staff on Monday.</p><p><a href="/print">Print</a></p></div>
<p>` + prose("first") + `</p><p>` + prose("second") + `</p></article>`,
		content: []string{"Layoffs begin today", "The first"},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := buildHTML(t, `<!doctype html><html><body>`+c.body+`</body></html>`)
			for _, p := range c.content {
				if r := textRoleOf(t, g, p); r != "content" {
					t.Errorf("%q is %s, want content", p, r)
				}
			}
			for _, p := range c.chrome {
				if r := textRoleOf(t, g, p); r != "chrome" {
					t.Errorf("%q is %s, want chrome", p, r)
				}
			}
		})
	}
}

// textRoleOf is roleOf over text blocks only: an image's description may
// repeat its caption.
func textRoleOf(t *testing.T, g *Record, prefix string) string {
	t.Helper()
	for _, b := range g.Blocks {
		if b.Type != TypeMedia && strings.HasPrefix(b.Text, prefix) {
			return b.Role
		}
	}
	t.Fatalf("no text block starts with %q", prefix)
	return ""
}
