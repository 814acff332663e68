package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/normalize"
)

// Rules that keep real content the container decision would lose: an
// article split over page-builder rows, a quoted sentence at the article's
// end, page-state classes on <body>, the line that opens a final list, a
// recipe's ingredient and step boxes, and the lede beside the body.

// long is a paragraph that scores well: long, with commas.
func long(w string) string {
	return "The " + w + " paragraph runs on, with commas, clauses, asides, and a list of towns, rivers, bridges and roads, so that it reads as running prose and scores its wrapper."
}

func TestRecallRules(t *testing.T) {
	cases := []struct {
		name    string
		doc     string
		content []string // text prefixes that must be content
		chrome  []string // and chrome
	}{{
		name: "an article split over page-builder rows widens to the element that holds its prose",
		doc: `<div class="top"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="entry"><div class="row"><div class="col"><div class="inner"><div class="txt"><p>` + long("first") + `</p><p>` + long("second") + `</p><p>` + long("third") + `</p></div>
<p>Photo: Agency</p><p>Click to enlarge</p><p>Image 1 of 4</p><p>Gallery view</p><p>Credits and sources</p><p>Picture: archive</p></div></div></div>
<div class="row"><div class="col"><p>` + prose("fourth") + `</p></div><div class="col"><p>Quote card</p></div></div>
<div class="row"><div class="col"><p>` + prose("fifth") + `</p></div></div></div>
<div class="foot"><a href="/imprint">Imprint</a></div>`,
		content: []string{"The first", "The fourth", "The fifth"},
		chrome:  []string{"Imprint"},
	}, {
		name:    "a quoted sentence after the last paragraph is a sentence, not an edge line",
		doc:     `<article><p>` + prose("first") + `</p><p>` + prose("second") + `</p><p>„Wir kommen wieder.“</p><p>“武汉肯定能过关。”</p><p>Tags: rivers</p></article>`,
		content: []string{"„Wir kommen", "“武汉"},
		chrome:  []string{"Tags:"},
	}, {
		name:    "a chrome word in the body's classes is page state, not a region",
		doc:     `<body class="page cookies-not-set"><div><h2>Opening hours</h2><p>Monday to Friday, nine to five.</p></div></body>`,
		content: []string{"Opening hours", "Monday to Friday"},
	}, {
		name:    "the line that opens a list the content ends with stays",
		doc:     `<article><p>` + prose("first") + `</p><p>` + prose("second") + `</p><div class="aside-line"><p>Filed under trees</p></div><p>The reasons are:</p><ul><li>its age</li><li>its health</li><li>its safety</li></ul></article>`,
		content: []string{"The reasons are:", "its age"},
		chrome:  []string{"Filed under trees"},
	}, {
		name:    "a lede beside the element that holds the body is content",
		doc:     `<nav><a href="/">Home</a></nav><div class="story"><h1>Rivers and towns</h1><div class="teaser"><p>` + prose("lede") + `</p></div><div class="body"><p>` + long("first") + `</p><p>` + long("second") + `</p><p>` + long("third") + `</p></div></div>`,
		content: []string{"The lede", "The first"},
		chrome:  []string{"Home"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.doc
			if !strings.HasPrefix(doc, "<body") {
				doc = "<body>" + doc + "</body>"
			}
			g := buildHTML(t, "<!doctype html><html>"+doc+"</html>")
			for _, p := range tc.content {
				if r := roleOf(t, g, p); r != "content" {
					t.Errorf("%q is %s, want content", p, r)
				}
			}
			for _, p := range tc.chrome {
				if r := roleOf(t, g, p); r != "chrome" {
					t.Errorf("%q is %s, want chrome", p, r)
				}
			}
		})
	}
}

func TestCaptionBeforeTheBodyIsNoLede(t *testing.T) {
	g := buildHTML(t, `<!doctype html><html><body><div class="story"><figure><img src="a.jpg" alt=""><figcaption>`+prose("caption")+`</figcaption></figure>
<div class="body"><p>`+long("first")+`</p><p>`+long("second")+`</p><p>`+long("third")+`</p></div></div></body></html>`)
	for _, b := range g.Blocks {
		if strings.HasPrefix(b.Text, "The caption") && b.Type == TypeParagraph && b.Role != "chrome" {
			t.Errorf("the caption's text is %s (%s), want chrome", b.Role, b.Reason)
		}
	}
	if r := roleOf(t, g, "The first"); r != "content" {
		t.Errorf("the body is %s, want content", r)
	}
}

// recipePage is a recipe whose introduction wins the container score and
// whose ingredients and steps sit in boxes of their own.
func recipePage(head, ingredients, steps string) string {
	return `<!doctype html><html><head>` + head + `</head><body><nav><a href="/">Home</a> <a href="/recipes">Recipes</a></nav>
<div class="page"><div class="intro"><p>` + long("first") + `</p><p>` + long("second") + `</p></div>
<div class="aside-box"><div class="box">` + ingredients + `</div></div>
<div class="teasers"><ul><li><a href="/a">Another cake</a></li><li><a href="/b">More cakes</a></li></ul></div>
<div class="panel"><div class="box">` + steps + `</div></div></div>
<footer><p>Contact the kitchen</p></footer></body></html>`
}

const (
	stepOne = "Mix the flour and the sugar in a bowl and rub in the butter until crumbly."
	stepTwo = "Press the dough into the tin and bake for forty minutes until golden."
)

func TestRecipeRegionsFromMicrodata(t *testing.T) {
	g := buildHTML(t, recipePage("",
		`<table><tr itemprop="recipeIngredient"><td>125 g</td><td>flour</td></tr><tr itemprop="recipeIngredient"><td>65 g</td><td>sugar</td></tr></table><p>Serves four</p>`,
		`<div itemprop="recipeInstructions"><p>`+stepOne+`</p><p>`+stepTwo+`</p></div>`))
	expectRoles(t, g, "content", "The first", "125 g", "Mix the flour", "Press the dough")
	expectRoles(t, g, "chrome", "Another cake", "Contact the kitchen")
}

func TestRecipeRegionsFromJSONLD(t *testing.T) {
	ld := `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Cake",
"recipeIngredient":["125 g Flour","65 g Sugar","65 g Butter"],
"recipeInstructions":[{"@type":"HowToStep","text":"` + stepOne + `"},{"@type":"HowToStep","text":"` + stepTwo + `"}]}</script>`
	g := buildHTML(t, recipePage(ld,
		`<ul><li>125 g Flour</li><li>65 g Sugar</li><li>65 g Butter</li></ul>`,
		`<ol><li>`+stepOne+`</li><li>`+stepTwo+`</li></ol>`))
	expectRoles(t, g, "content", "The first", "125 g Flour", "65 g Butter", "Mix the flour", "Press the dough")
	expectRoles(t, g, "chrome", "Another cake", "Contact the kitchen")
}

// TestRecipeHostileBounded: twenty JSON-LD recipes (normalize keeps 20
// scripts of up to 256 KB) of 8,000 ingredients and 4,000 steps each, over
// a page of 10,000 blocks, are matched in bounded work: the texts read are
// capped.
func TestRecipeHostileBounded(t *testing.T) {
	var ld strings.Builder
	for s := 0; s < 20; s++ {
		ld.WriteString(`<script type="application/ld+json">{"@type":"Recipe","recipeIngredient":[`)
		for i := 0; i < 8000; i++ {
			if i > 0 {
				ld.WriteByte(',')
			}
			fmt.Fprintf(&ld, `"item %d"`, i)
		}
		ld.WriteString(`],"recipeInstructions":"`)
		for i := 0; i < 4000; i++ {
			fmt.Fprintf(&ld, `Stir the pot %d times, slowly.\n`, i)
		}
		ld.WriteString(`"}</script>`)
	}
	var items strings.Builder
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&items, "<li>item %d of the list</li><p>Stir the pot %d times, slowly.</p>", i, i)
	}
	n, err := normalize.Normalize(captureOf(`<!doctype html><html><head>` + ld.String() + `</head><body><article><p>` + prose("first") + `</p><ul>` + items.String() + `</ul></article></body></html>`))
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Doc.JSONLD) != 20 {
		t.Fatalf("%d JSON-LD scripts kept, want 20", len(n.Doc.JSONLD))
	}
	steps, ingredients := recipeTexts(n.Doc.JSONLD)
	if len(steps) > maxRecipeTexts || len(ingredients) > maxRecipeTexts {
		t.Errorf("read %d steps and %d ingredients, want at most %d each", len(steps), len(ingredients), maxRecipeTexts)
	}
	if g := Build(n); len(g.Blocks) < 10000 {
		t.Errorf("%d blocks, want the 10,000 items and lines and more", len(g.Blocks))
	}
}
