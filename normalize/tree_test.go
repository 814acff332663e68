package normalize

import (
	"strings"
	"testing"
)

func TestRolesPathsLevels(t *testing.T) {
	r := mustNormalize(t, `<body>
<header id=hdr>site</header>
<nav id=nav><ul id=ul><li id=li1>a</li><li id=li2>b</li></ul></nav>
<main id=main>
  <article id=art><header id=ahdr>in article</header><h1 id=h1>Title</h1><footer id=aftr>f</footer></article>
  <p id=p1>one</p><div>x</div><p id=p2>two <a id=link href="/x">l</a> <a id=anchor name=x>n</a></p>
  <div id=rh role="heading" aria-level="3">pseudo</div>
  <div id=rh0 role=heading>pseudo</div>
  <h2 id=h2l aria-level="9">deep</h2>
  <h3 id=tab role="tab button">tab</h3>
  <form id=form><button id=btn>b</button><search id=srch></search></form>
  <table id=tbl><tr><td>c</td></tr></table>
  <figure id=fig><img id=img src="a.png" alt=" A "></figure>
  <aside id=aside><footer id=asftr>x</footer></aside>
  <ol id=ol></ol><dialog id=dlg open></dialog>
</main>
<footer id=ftr>bottom</footer>
</body>`)
	tests := []struct {
		id, path, role string
		level          int
	}{
		{"hdr", "html/body/header", "banner", 0},
		{"nav", "html/body/nav", "navigation", 0},
		{"ul", "html/body/nav/ul", "list", 0},
		{"li1", "html/body/nav/ul/li", "listitem", 0},
		{"li2", "html/body/nav/ul/li[2]", "listitem", 0},
		{"main", "html/body/main", "main", 0},
		{"art", "html/body/main/article", "article", 0},
		{"ahdr", "html/body/main/article/header", "", 0},
		{"aftr", "html/body/main/article/footer", "", 0},
		{"h1", "html/body/main/article/h1", "heading", 1},
		{"p1", "html/body/main/p", "", 0},
		{"p2", "html/body/main/p[2]", "", 0},
		{"link", "html/body/main/p[2]/a", "link", 0},
		{"anchor", "html/body/main/p[2]/a[2]", "", 0},
		{"rh", "html/body/main/div[2]", "heading", 3},
		{"rh0", "html/body/main/div[3]", "heading", 2},
		{"h2l", "html/body/main/h2", "heading", 6},
		{"tab", "html/body/main/h3", "tab", 0},
		{"form", "html/body/main/form", "form", 0},
		{"btn", "html/body/main/form/button", "button", 0},
		{"srch", "html/body/main/form/search", "search", 0},
		{"tbl", "html/body/main/table", "table", 0},
		{"fig", "html/body/main/figure", "figure", 0},
		{"img", "html/body/main/figure/img", "img", 0},
		{"aside", "html/body/main/aside", "complementary", 0},
		{"asftr", "html/body/main/aside/footer", "", 0},
		{"ol", "html/body/main/ol", "list", 0},
		{"dlg", "html/body/main/dialog", "dialog", 0},
		{"ftr", "html/body/footer", "contentinfo", 0},
	}
	for _, tc := range tests {
		n := byID(t, r, tc.id)
		if n.Path != tc.path || n.Role != tc.role || n.Level != tc.level {
			t.Errorf("%s: path %q role %q level %d; want %q %q %d", tc.id, n.Path, n.Role, n.Level, tc.path, tc.role, tc.level)
		}
	}
	if got := byID(t, r, "img").Attrs; got["src"] != "https://example.test/dir/a.png" || got["alt"] != "A" {
		t.Errorf("img attrs = %v", got)
	}
	if got := byID(t, r, "link").Attrs["href"]; got != "https://example.test/x" {
		t.Errorf("href = %q", got)
	}
	tbody := r.Nodes[byID(t, r, "tbl").ID+1]
	if tbody.Path != "html/body/main/table/tbody" {
		t.Errorf("implied tbody path = %q", tbody.Path)
	}
}

func TestWhitespaceAndPre(t *testing.T) {
	r := mustNormalize(t, "<body><p id=a>  Hello,\n\t  <b>big</b>\u00a0world\u200b!  </p>\n\n<div>   </div>"+
		"<pre id=pre>  line 1\r\n    line 2\u00ad</pre><textarea id=ta>\n  keep   this\n</textarea><p>caf\u0065\u0301</p></body>")
	var texts []Node
	for _, n := range r.Nodes {
		if n.Tag == textTag {
			texts = append(texts, n)
		}
	}
	want := []struct {
		text string
		pre  bool
	}{
		{" Hello, ", false}, {"big", false}, {" world! ", false}, {" ", false}, {" ", false},
		{"  line 1\n    line 2", true}, {"  keep   this\n", true}, {"café", false},
	}
	if len(texts) != len(want) {
		t.Fatalf("text nodes: %q", allText(r))
	}
	for i, w := range want {
		if texts[i].Text != w.text || texts[i].Pre != w.pre {
			t.Errorf("text %d = %q pre=%v; want %q pre=%v", i, texts[i].Text, texts[i].Pre, w.text, w.pre)
		}
	}
}

func TestNeverText(t *testing.T) {
	r := mustNormalize(t, `<html><head><title>T</title><style>.s{color:red} STYLETEXT</style><script>SCRIPTTEXT()</script>
<noscript><link rel=stylesheet href=x.css></noscript><meta name=description content=METATEXT></head>
<body><script>var x = "SCRIPTTEXT2";</script><style>BODYSTYLE{}</style><template><p>TEMPLATETEXT</p></template>
<noscript><p>Please enable JavaScript</p><script>NOSCRIPTSCRIPT</script></noscript>
<!-- COMMENTTEXT --><svg><text>SVGTEXT</text><title>svg title</title></svg><math><mi>MATHTEXT</mi></math>
<iframe>IFRAMETEXT</iframe><canvas>CANVASTEXT</canvas><video src=v.mp4>VIDEOTEXT<source src=v.webm></video>
<p>visible</p></body></html>`)
	text := allText(r)
	for _, bad := range []string{"STYLETEXT", "SCRIPTTEXT", "SCRIPTTEXT2", "BODYSTYLE", "TEMPLATETEXT", "Please enable", "NOSCRIPTSCRIPT",
		"COMMENTTEXT", "SVGTEXT", "svg title", "MATHTEXT", "IFRAMETEXT", "VIDEOTEXT", "METATEXT"} {
		if strings.Contains(text, bad) {
			t.Errorf("%q became text: %s", bad, text)
		}
	}
	// A closed canvas's fallback is text, marked as such (issue 12).
	for _, n := range r.Nodes {
		if n.Text == "CANVASTEXT" && n.Source != SourceCanvas {
			t.Errorf("canvas fallback text has source %q", n.Source)
		}
	}
	if !strings.Contains(text, "visible") || !strings.Contains(text, "T|") {
		t.Errorf("missing page text: %s", text)
	}
	if got := strings.Join(r.Doc.Noscript, "|"); got != "Please enable JavaScript" {
		t.Errorf("noscript = %q", got)
	}
	tags := map[string]int{}
	for _, n := range r.Nodes {
		tags[n.Tag]++
	}
	for _, tag := range []string{"script", "style", "template", "noscript", "meta", "link", "mi", "text"} {
		if tags[tag] != 0 {
			t.Errorf("%s became a node", tag)
		}
	}
	for _, tag := range []string{"svg", "math", "iframe", "canvas", "video", "source", "title"} {
		if tags[tag] != 1 {
			t.Errorf("%s: %d nodes, want 1", tag, tags[tag])
		}
	}
	for _, n := range r.Nodes {
		if n.Tag == "svg" && n.Attrs["title"] != "svg title" {
			t.Errorf("svg title attr = %q", n.Attrs["title"])
		}
	}
	if r.Stats.SkippedNodes == 0 {
		t.Error("no skipped nodes counted")
	}
}

func TestMicrodataMetaIsANode(t *testing.T) {
	r := mustNormalize(t, `<body><div itemscope itemtype="https://schema.org/Product"><meta id=m itemprop=sku content=" 123 "><span id=s content=nope>x</span></div></body>`)
	if got := byID(t, r, "m").Attrs["content"]; got != "123" {
		t.Errorf("itemprop meta content = %q", got)
	}
	if _, ok := byID(t, r, "s").Attrs["content"]; ok {
		t.Error("content kept on an element without itemprop")
	}
}

func TestAttributesCappedAndFiltered(t *testing.T) {
	long := strings.Repeat("é", 3000)
	r := mustNormalize(t, `<p id=t title="`+long+`" data-testid=x onclick="evil()" style="color:red" aria-label=" L ">x</p>`+
		`<img id=i srcset="small.png 1x, big.png 2x"><a id=j href="javascript:void(0)">j</a><a id=m href="mailto:a@b.c">m</a>`)
	n := byID(t, r, "t")
	if len(n.Attrs["title"]) > maxAttrBytes || !strings.HasPrefix(long, n.Attrs["title"]) || len(n.Attrs["title"]) < maxAttrBytes-2 {
		t.Errorf("title capped to %d bytes", len(n.Attrs["title"]))
	}
	for _, k := range []string{"data-testid", "onclick", "style"} {
		if _, ok := n.Attrs[k]; ok {
			t.Errorf("%s kept", k)
		}
	}
	if n.Attrs["aria-label"] != "L" {
		t.Errorf("aria-label = %q", n.Attrs["aria-label"])
	}
	if got := byID(t, r, "i").Attrs["srcset"]; got != "https://example.test/dir/small.png" {
		t.Errorf("srcset = %q", got)
	}
	if got := byID(t, r, "j").Attrs["href"]; got != "javascript:void(0)" {
		t.Errorf("javascript href = %q", got)
	}
	if got := byID(t, r, "m").Attrs["href"]; got != "mailto:a@b.c" {
		t.Errorf("mailto href = %q", got)
	}
}

func TestDocFacts(t *testing.T) {
	r := mustNormalize(t, `<!doctype html><html lang=" de-CH "><head>
<title>  The
  Title </title><title>second</title>
<base href="https://cdn.example.test/base/">
<link rel="alternate canonical" href="/canon?a=1">
<meta name="Description" content=" A page ">
<meta name="description" content="second wins not">
<meta property="og:title" content="OG">
<meta name="twitter:card" content="summary">
<meta http-equiv="refresh" content="5; url=/next">
<meta name="viewport" content="width=device-width">
<script type="application/ld+json"> {"@type":"Article"} </script>
<script type="application/ld+json; charset=utf-8">{"@type":"FAQPage"}</script>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate.js"></script>
<script>window._cf_chl_opt = {}; grecaptcha.render();</script>
<script id="__NEXT_DATA__" type="application/json">{"props":{}}</script>
</head><body ng-version="17.0.0"><a id=a href="rel">x</a></body></html>`)
	d := r.Doc
	if d.Title != "The Title" || d.Lang != "de-CH" {
		t.Errorf("title %q lang %q", d.Title, d.Lang)
	}
	if d.Base != "https://cdn.example.test/base/" || d.Canonical != "https://cdn.example.test/canon?a=1" {
		t.Errorf("base %q canonical %q", d.Base, d.Canonical)
	}
	if got := byID(t, r, "a").Attrs["href"]; got != "https://cdn.example.test/base/rel" {
		t.Errorf("href against base = %q", got)
	}
	wantMeta := map[string]string{"description": "A page", "og:title": "OG", "twitter:card": "summary", "refresh": "5; url=/next"}
	if len(d.Meta) != len(wantMeta) {
		t.Errorf("meta = %v", d.Meta)
	}
	for k, v := range wantMeta {
		if d.Meta[k] != v {
			t.Errorf("meta %s = %q, want %q", k, d.Meta[k], v)
		}
	}
	if len(d.JSONLD) != 2 || d.JSONLD[0] != `{"@type":"Article"}` || d.JSONLD[1] != `{"@type":"FAQPage"}` {
		t.Errorf("jsonld = %q", d.JSONLD)
	}
	s := d.Scripts
	if s.Count != 3 || s.InlineBytes != len(`window._cf_chl_opt = {}; grecaptcha.render();`)+len(`{"props":{}}`) {
		t.Errorf("scripts count %d inline %d", s.Count, s.InlineBytes)
	}
	if len(s.External) != 1 || s.External[0] != "https://cdn.example.test/cdn-cgi/challenge-platform/h/b/orchestrate.js" {
		t.Errorf("external = %q", s.External)
	}
	want := []string{"challenge-platform", "_cf_chl_opt", "recaptcha", "__NEXT_DATA__", "ng-version"}
	if strings.Join(s.Markers, ",") != strings.Join(want, ",") {
		t.Errorf("markers = %q, want %q", s.Markers, want)
	}
}

func TestLangFromHeader(t *testing.T) {
	c := htmlCapture(`<p>x</p>`)
	c.Headers["content-language"] = "fr-CA, en"
	r, err := Normalize(c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Doc.Lang != "fr-CA" {
		t.Errorf("lang = %q", r.Doc.Lang)
	}
	if r.Doc.Base != "" {
		t.Errorf("base without <base> = %q", r.Doc.Base)
	}
}

func TestLimitsOnDocFacts(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 80; i++ {
		b.WriteString(`<script src="/s.js"></script><script type="application/ld+json">{}</script>`)
	}
	r := mustNormalize(t, b.String())
	if len(r.Doc.Scripts.External) != maxExternal || r.Doc.Scripts.Count != 80 || len(r.Doc.JSONLD) != maxJSONLD {
		t.Errorf("external %d count %d jsonld %d", len(r.Doc.Scripts.External), r.Doc.Scripts.Count, len(r.Doc.JSONLD))
	}
}
