package graph

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/normalize"
)

// Rules of issue 24, each found on pages no rule was tuned on and kept only
// when all five evaluation sets agreed (docs/QUALITY.md).

// A long paragraph an author wrote twice stays twice; a gallery caption
// repeated in a slide's <div> still keeps only its first copy.
func TestRepeatedLongParagraphStays(t *testing.T) {
	long := strings.Repeat(prose("repeated")+" ", 2)
	g := buildHTML(t, `<!doctype html><html><body><article><h1>On rivers</h1><p>`+long+`</p><p>`+prose("middle")+`</p><p>`+long+`</p></article></body></html>`)
	if roles := rolesOf(g, strings.TrimSpace(long)); roles != "content,content" {
		t.Errorf("copies of a long <p> are %v, want content,content", roles)
	}
	caption := strings.Repeat("A long row of unsold cars sits in a dealer lot in the early morning, photographed from the road. ", 3)
	caption = strings.TrimSpace(caption)
	g = buildHTML(t, `<!doctype html><html><body><article><p>`+prose("first")+`</p><div class="slide"><div>`+caption+`</div></div><p>`+prose("second")+`</p><div class="slide"><div>`+caption+`</div></div></article></body></html>`)
	if roles := rolesOf(g, caption); roles != "content,chrome" {
		t.Errorf("copies of a long slide caption are %v, want content,chrome", roles)
	}
}

// A section whose id spells out its heading (documentation generators'
// anchors) is not chrome for a word in that id; a real share box is.
func TestHeadingAnchorIDIsNotAClassWord(t *testing.T) {
	g := buildHTML(t, `<!doctype html><html><body><div class="body"><h1>Evolve</h1><p>`+prose("intro")+`</p>
<div class="section" id="sharing-with-a-single-developer"><h2>Sharing with a single developer¶</h2><p>`+prose("section")+`</p></div>
<div class="section" id="social-links-2"><h2>Other things</h2><p>Follow us on the networks of the day, all of them, every single one.</p></div>
<p>`+prose("closing")+`</p></div></body></html>`)
	expectRoles(t, g, "content", "Sharing with a single developer", "The section")
	expectRoles(t, g, "chrome", "Follow us")
	for id, want := range map[string]bool{"setting-up-1": true, "setting-up-now": false, "setting": false} {
		tr := g0Tree(t, `<div id="`+id+`"><h3>Setting up</h3><p>text</p></div>`)
		for i := range tr.nodes {
			if tr.nodes[i].Attrs["id"] == id && headingAnchor(tr, i, id) != want {
				t.Errorf("id %q over \"Setting up\": heading anchor %v, want %v", id, !want, want)
			}
		}
	}
}

// g0Tree parses a fragment into the graph's element tree.
func g0Tree(t *testing.T, body string) *tree {
	t.Helper()
	n, err := normalize.Normalize(captureOf(`<!doctype html><html><body>` + body + `</body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	return newTree(n.Nodes)
}

// An article cut into like parts (a how-to's steps, each a short line and
// a photo) is one article: the parts beside the best-scoring one come with
// it, a teaser list beside them does not.
func TestLikeSiblingPartsJoinTheContainer(t *testing.T) {
	var steps strings.Builder
	for i, s := range []string{"Insert your plant into the hole.", "You can add various plants if you wish.", "Attach enough moss around it.", "Place the cloche over the oasis."} {
		steps.WriteString(`<div class="mod step"><div>Step ` + itoa(i+2) + `</div><p>` + s + `</p><figure><img src="/s` + itoa(i) + `.jpg" alt="step"></figure></div>`)
	}
	g := buildHTML(t, `<!doctype html><html><body><section><div class="mod step"><p>`+prose("first")+` `+prose("second")+`</p></div>
<div class="mod related"><h3>Other People Are Reading</h3><ul><li><a href="/a">Plant ideas for the winter</a></li><li><a href="/b">How to build a pond</a></li></ul></div>`+
		steps.String()+`</section></body></html>`)
	expectRoles(t, g, "content", "The first", "Insert your plant", "Place the cloche")
	expectRoles(t, g, "chrome", "Plant ideas")
}
