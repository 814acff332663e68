package render

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
)

// distillFile reads page (an HTML document) from a local file through the
// real chain — capture (static), normalize, graph — and returns the graph.
func distillFile(t *testing.T, page string) *graph.Record {
	t.Helper()
	path := filepath.Join(t.TempDir(), "docs", "page.html")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := capture.DefaultOptions()
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	tg, err := capture.ParseTarget([]byte(path))
	if err != nil {
		t.Fatal(err)
	}
	c := cp.Capture(context.Background(), tg)
	if c.Error != nil {
		t.Fatal(c.Error.Message)
	}
	n, err := normalize.Normalize(&c)
	if err != nil {
		t.Fatal(err)
	}
	return graph.Build(n)
}

// article wraps body in a page whose article is long enough to be read as
// content.
func article(body string) string {
	return `<!doctype html><html><head><title>Install guide | Example</title></head><body>
<header><nav><a href="/">Home</a> <a href="/about.html">About</a></nav></header>
<main><article><h1>Install guide</h1>` + body + `
<p>The rest of the guide explains each step in turn, with the commands to run and what they print, so that a reader can follow along.</p>
</article></main><footer><p>© 2026 Example</p></footer></body></html>`
}

// wantLines checks that every line of want is a line of md.
func wantLines(t *testing.T, md string, want ...string) {
	t.Helper()
	lines := strings.Split(md, "\n")
	for _, w := range want {
		found := false
		for _, l := range lines {
			found = found || l == w
		}
		if !found {
			t.Errorf("no line %q in\n%s", w, md)
		}
	}
}

// TestMarkdownInlineCode: inline code keeps its backticks in every
// rendering; code holding backticks gets a longer fence (CommonMark 6.1).
func TestMarkdownInlineCode(t *testing.T) {
	g := distillFile(t, article(`<p>Run <code>apt-get install foo</code>, then <code>echo `+"`x`"+`</code> and <code>`+"``"+`</code>.</p>
<h2>The <code>--base-url</code> flag</h2>`))
	want := "Run `apt-get install foo`, then `` echo `x` `` and ` `` `."
	wantLines(t, string(ContentMarkdown(g, false)), want, "### The `--base-url` flag")
	wantLines(t, string(Markdown(g)), want, "### The `--base-url` flag")
}

// TestMarkdownLinkOccurrence: a link lands on the occurrence of its text
// the page links, not the first one.
func TestMarkdownLinkOccurrence(t *testing.T) {
	g := distillFile(t, strings.Replace(article(`<p>Users of Debian derivatives should follow the instructions for <a href="https://example.org/debian">Debian</a>.</p>`),
		"<head>", `<head><base href="https://example.org/guide/">`, 1))
	want := "Users of Debian derivatives should follow the instructions for [Debian](https://example.org/debian)."
	wantLines(t, string(ContentMarkdown(g, false)), want)
	wantLines(t, string(Markdown(g)), want)
}

// TestMarkdownTableCells: links in cells stay links, a cell that is an
// image (in a link or not) keeps the image's description.
func TestMarkdownTableCells(t *testing.T) {
	g := distillFile(t, strings.Replace(article(`<table><thead><tr><th>Platform</th><th>Supported</th></tr></thead><tbody>
<tr><td><a href="linux.html">Linux</a></td><td><a href="linux.html#ok"><img src="yes.png" alt="yes"></a></td></tr>
<tr><td>Windows</td><td><img src="no.png" alt="no"></td></tr></tbody></table>`),
		"<head>", `<head><base href="https://example.org/guide/">`, 1))
	md := string(ContentMarkdown(g, false))
	wantLines(t, md, "| [Linux](https://example.org/guide/linux.html) | [yes](https://example.org/guide/linux.html#ok) |", "| Windows | no |")
}

// TestMarkdownRelativeLinks: a file read without --base-url keeps its
// relative links, relative to the file, and its images.
func TestMarkdownRelativeLinks(t *testing.T) {
	g := distillFile(t, article(`<p>See <a href="setup.html">the setup page</a> and <a href="../faq/index.html#q1">the FAQ</a>.</p>
<p>Downloads grew every month this year, on every platform, as the chart below shows; the figures come from the mirrors' logs.</p>
<figure><img src="img/chart.png" alt="Downloads by month"><figcaption>Figure 1</figcaption></figure>`))
	md := string(ContentMarkdown(g, false))
	wantLines(t, md, "See [the setup page](setup.html) and [the FAQ](../faq/index.html#q1).", "![Downloads by month](img/chart.png)")
	if strings.Contains(md, "file:") {
		t.Errorf("a file: URL in\n%s", md)
	}
}

// TestMarkdownNestedLists: nested lists keep their nesting.
func TestMarkdownNestedLists(t *testing.T) {
	g := distillFile(t, article(`<ol><li>Download<ul><li>the <code>.deb</code> for Debian</li><li>the <a href="https://example.org/rpm">RPM</a></li></ul></li><li>Install</li></ol>`))
	md := string(ContentMarkdown(g, false))
	wantLines(t, md, "1. Download", "   - the `.deb` for Debian", "   - the [RPM](https://example.org/rpm)", "2. Install")
}

// idComment is a block id comment of MarkdownBlocks: after a list item's
// text, or on a line of its own before any other block.
var idComment = regexp.MustCompile(`(?m) <!-- b_[0-9]+( chrome(: [A-Za-z0-9_]+)?)? -->$|^<!-- b_[0-9]+( chrome(: [A-Za-z0-9_]+)?)? -->\n`)

// TestMCPSectionsEqualIndex: the MCP tools' rendering of a section
// (MarkdownBlocks, block ids aside) is index.md's rendering of it, for
// every golden graph.
func TestMCPSectionsEqualIndex(t *testing.T) {
	for name, path := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			rec := loadRecord(t, path)
			index := string(Markdown(rec))
			content := blocksView(rec)
			var blocks []graph.Block
			for _, b := range rec.Blocks {
				if b.Role == "content" {
					blocks = append(blocks, b)
				}
			}
			checked := 0
			for _, sec := range rec.Sections {
				var in []graph.Block
				for _, b := range blocks {
					if b.SectionID == sec.ID {
						in = append(in, b)
					}
				}
				if len(in) == 0 {
					continue
				}
				got := idComment.ReplaceAllString(MarkdownBlocks(rec, in), "")
				if !strings.Contains(index, got) || !strings.HasPrefix(got, "<!-- section: "+safeID(sec.ID)+" -->\n") {
					t.Errorf("section %s: MCP rendering\n%s\nis not index.md's:\n%s", sec.ID, got, index)
				}
				checked++
			}
			if want := content.blocksMD(blocks, mdOpts{sections: true, forms: true}); !strings.Contains(index, want) {
				t.Errorf("index.md does not hold its content as blocksMD writes it")
			}
			t.Logf("%d sections", checked)
		})
	}
}

// TestMCPRowspan: a rowspan table renders in the MCP tools' rendering as
// in index.md, the spanned cell's place kept.
func TestMCPRowspan(t *testing.T) {
	rows := [][]graph.Cell{
		{{Text: "Fruit", Header: true}, {Text: "Kind", Header: true}, {Text: "2024", Header: true}, {Text: "2025", Header: true}},
		{{Text: "Apples and pears", Rowspan: 2}, {Text: "Apples"}, {Text: "30"}, {Text: "41"}},
		{{Text: "Pears"}, {Text: "40"}, {Text: "52"}},
	}
	got := MarkdownBlocks(nil, []graph.Block{{ID: "b_000", Type: graph.TypeTable, Rows: rows, Role: "content", SectionID: "s_intro"}})
	wantLines(t, got, "| | Pears | 40 | 52 |")
}

// TestMarkdownHeadline: the page's own <h1>, in an article header beside
// a byline (which a static read marks chrome), is in the Markdown; a
// site-name <h1> that is a link is not.
func TestMarkdownHeadline(t *testing.T) {
	page := `<!doctype html><html><head><title>Why the sky is blue - The Daily Example</title></head><body>
<header class="site-header"><h1><a href="/">The Daily Example</a></h1><nav><a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<div class="content"><article>
<header class="article-header"><h1 class="headline">Why the sky is blue, explained</h1><p class="byline">By Jane Doe, 3 March 2024</p></header>
<p>Sunlight reaches the atmosphere and is scattered in every direction by the gases and particles in the air. Blue light is scattered more than other colours because it travels as shorter, smaller waves.</p>
<p>This is why we see a blue sky most of the time. Closer to the horizon the sky fades to a lighter blue or white, because the light has passed through more air.</p>
</article></div><footer>© 2024</footer></body></html>`
	md := string(ContentMarkdown(distillFile(t, page), false))
	wantLines(t, md, "# Why the sky is blue - The Daily Example", "## Why the sky is blue, explained")
	if strings.Contains(md, "Daily Example]") || strings.Count(md, "The Daily Example") != 1 {
		t.Errorf("the site name is a heading:\n%s", md)
	}
}

// TestMarkdownSamePageLinks: a link to a place on the page itself is its
// text (the Markdown has no anchors); a link to another page stays a link.
func TestMarkdownSamePageLinks(t *testing.T) {
	g := distillFile(t, article(`<h2><a href="#setup">Setup</a></h2><p>Read <a href="page.html#faq">the FAQ</a> first, then <a href="other.html#faq">the other FAQ</a>.</p>`))
	wantLines(t, string(ContentMarkdown(g, false)), "### Setup", "Read the FAQ first, then [the other FAQ](other.html#faq).")
}
