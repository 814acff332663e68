package normalize

import (
	"strings"
	"testing"
)

func TestVisibilityOnTheElement(t *testing.T) {
	tests := []struct {
		name, el     string
		reason, rule string
	}{
		{"display none", `<p id=t style="display:none">x</p>`, HiddenDisplay, `style="display:none"`},
		{"display none no space", `<p id=t style="color: red; display: NONE !important">x</p>`, HiddenDisplay, `style="display:none"`},
		{"empty declarations", `<p id=t style=";color:red;;display:none;">x</p>`, HiddenDisplay, `style="display:none"`},
		{"data url before", `<p id=t style="background:url(data:image/png;base64,AAAA);display:none">x</p>`, HiddenDisplay, `style="display:none"`},
		{"visibility hidden", `<p id=t style="visibility:hidden">x</p>`, HiddenVisibility, `style="visibility:hidden"`},
		{"visibility collapse", `<p id=t style="visibility: collapse">x</p>`, HiddenVisibility, `style="visibility:collapse"`},
		{"opacity 0", `<p id=t style="opacity:0">x</p>`, HiddenOpacity, `style="opacity:0"`},
		{"opacity 0.0", `<p id=t style="opacity:0.0">x</p>`, HiddenOpacity, `style="opacity:0.0"`},
		{"opacity 0%", `<p id=t style="opacity:0%">x</p>`, HiddenOpacity, `style="opacity:0%"`},
		{"opacity half", `<p id=t style="opacity:.5">x</p>`, "", ""},
		{"absolute left", `<p id=t style="position:absolute;left:-9999px">x</p>`, HiddenOffscreen, `style="position:absolute;left:-9999px"`},
		{"fixed top", `<p id=t style="position:fixed; top:-1000px">x</p>`, HiddenOffscreen, `style="position:fixed;top:-1000px"`},
		{"absolute right em", `<p id=t style="position:absolute;right:-100em">x</p>`, HiddenOffscreen, `style="position:absolute;right:-100em"`},
		{"absolute margin-left", `<p id=t style="position:absolute;margin-left:-5000px">x</p>`, HiddenOffscreen, `style="position:absolute;margin-left:-5000px"`},
		{"relative left is not offscreen", `<p id=t style="position:relative;left:-9999px">x</p>`, "", ""},
		{"left without position", `<p id=t style="left:-9999px">x</p>`, "", ""},
		{"absolute near", `<p id=t style="position:absolute;left:-20px">x</p>`, "", ""},
		{"text-indent", `<p id=t style="text-indent:-9999px">x</p>`, HiddenOffscreen, `style="text-indent:-9999px"`},
		{"clip rect spaces", `<p id=t style="position:absolute;clip:rect(0 0 0 0)">x</p>`, HiddenClip, `style="clip:rect(0 0 0 0)"`},
		{"clip rect commas", `<p id=t style="clip:rect(0,0,0,0)">x</p>`, HiddenClip, `style="clip:rect(0,0,0,0)"`},
		{"clip rect 1px", `<p id=t style="clip: rect(1px, 1px, 1px, 1px)">x</p>`, HiddenClip, `style="clip:rect(1px, 1px, 1px, 1px)"`},
		{"clip rect area", `<p id=t style="clip:rect(0, 100px, 50px, 0)">x</p>`, "", ""},
		{"clip-path inset", `<p id=t style="clip-path:inset(50%)">x</p>`, HiddenClip, `style="clip-path:inset(50%)"`},
		{"clip-path inset small", `<p id=t style="clip-path:inset(10%)">x</p>`, "", ""},
		{"clip-path circle", `<p id=t style="clip-path:circle(0)">x</p>`, HiddenClip, `style="clip-path:circle(0)"`},
		{"font-size 0", `<p id=t style="font-size:0">x</p>`, HiddenFontSize, `style="font-size:0"`},
		{"font-size 0px", `<p id=t style="font-size:0px">x</p>`, HiddenFontSize, `style="font-size:0px"`},
		{"font-size 0em", `<p id=t style="font-size:0em">x</p>`, HiddenFontSize, `style="font-size:0em"`},
		{"font-size 0%", `<p id=t style="font-size:0%">x</p>`, HiddenFontSize, `style="font-size:0%"`},
		{"font-size small", `<p id=t style="font-size:10px">x</p>`, "", ""},
		{"zero width", `<p id=t style="width:0;overflow:hidden">x</p>`, HiddenZeroSize, `style="width:0;overflow:hidden"`},
		{"1px height", `<p id=t style="height:1px;overflow:hidden">x</p>`, HiddenZeroSize, `style="height:1px;overflow:hidden"`},
		{"zero height visible overflow", `<p id=t style="height:0">x</p>`, "", ""},
		{"hidden attribute", `<p id=t hidden>x</p>`, HiddenAttr, "attribute hidden"},
		{"hidden until-found", `<p id=t hidden="until-found">x</p>`, HiddenAttr, `attribute hidden="until-found"`},
		{"hidden attribute shown by style", `<p id=t hidden style="display:block">x</p>`, "", ""},
		{"hidden input", `<input id=t type=hidden name=a value=b>`, HiddenInput, `input type="hidden"`},
		{"closed dialog", `<dialog id=t>x</dialog>`, HiddenDialog, "dialog without open"},
		{"open dialog", `<dialog id=t open>x</dialog>`, "", ""},
		{"sr-only", `<span id=t class="x sr-only">x</span>`, HiddenSROnly, `class="sr-only"`},
		{"visually-hidden", `<span id=t class="visually-hidden">x</span>`, HiddenSROnly, `class="visually-hidden"`},
		{"screen-reader-text", `<span id=t class="screen-reader-text">x</span>`, HiddenSROnly, `class="screen-reader-text"`},
		{"focusable skip link", `<a id=t href="#main" class="sr-only sr-only-focusable">skip</a>`, "", ""},
		{"sr-only-focusable alone", `<a id=t href="#main" class="sr-only-focusable">skip</a>`, "", ""},
		{"aria-hidden is not visual", `<span id=t aria-hidden="true">x</span>`, "", ""},
		{"plain", `<p id=t>x</p>`, "", ""},
		// Static same_color: the inline colour equals the inline background under it.
		{"same colour own style", `<p id=t style="color:#fff;background:#ffffff">x</p>`, HiddenSameColor, `style="color:#fff" on background #ffffff (its own inline style)`},
		{"same colour ancestor", `<div style="background-color:white"><span id=t style="color: rgb(255, 255, 255)">x</span></div>`, HiddenSameColor, `style="color:rgb(255, 255, 255)" on background #ffffff (the inline style of <div>)`},
		{"different colours", `<div style="background:#000"><span id=t style="color:#fff">x</span></div>`, "", ""},
		{"colour without a background", `<p id=t style="color:#fff">x</p>`, "", ""},
		{"translucent background", `<p id=t style="color:#fff;background:rgba(255,255,255,0.5)">x</p>`, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustNormalize(t, "<body>"+tc.el+"</body>")
			n := byID(t, r, "t")
			if n.Hidden != tc.reason || n.HiddenRule != tc.rule {
				t.Errorf("hidden = %q, %q; want %q, %q", n.Hidden, n.HiddenRule, tc.reason, tc.rule)
			}
		})
	}
}

func TestVisibilityFromStyleSheet(t *testing.T) {
	tests := []struct {
		name, css, el string
		reason, rule  string
	}{
		{"class", `.promo { display: none }`, `<div id=t class=promo>x</div>`, HiddenDisplay, ".promo { display: none }"},
		{"id", `#t{visibility:hidden}`, `<div id=t>x</div>`, HiddenVisibility, "#t { visibility: hidden }"},
		{"child combinator", `div > p.y { opacity: 0 }`, `<div><p id=t class=y>x</p></div>`, HiddenOpacity, "div > p.y { opacity: 0 }"},
		{"group", `.nope[, .a, .b{display:none}`, `<p id=t class=b>x</p>`, HiddenDisplay, ".b { display: none }"},
		{"offscreen pair", `.off{position:absolute;left:-10000px}`, `<p id=t class=off>x</p>`, HiddenOffscreen, ".off { position: absolute; left: -10000px }"},
		{"sr-only recipe", `.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`, `<p id=t class=vh>x</p>`, HiddenClip, ".vh { clip: rect(0 0 0 0) }"},
		{"media screen", `@media screen { .m { display:none } }`, `<p id=t class=m>x</p>`, HiddenDisplay, ".m { display: none }"},
		{"media all", `@media all { .m { display:none } }`, `<p id=t class=m>x</p>`, HiddenDisplay, ".m { display: none }"},
		{"media print", `@media print { .m { display:none } }`, `<p id=t class=m>x</p>`, "", ""},
		{"media width", `@media (max-width: 600px) { .m { display:none } }`, `<p id=t class=m>x</p>`, "", ""},
		{"hover", `.h:hover { display:none }`, `<p id=t class=h>x</p>`, "", ""},
		{"not hover", `.h:not(:hover) { display:none }`, `<p id=t class=h>x</p>`, "", ""},
		{"pseudo-element", `.b::before { display:none }`, `<p id=t class=b>x</p>`, "", ""},
		{"sibling combinator skipped", `.a ~ .b { display:none }`, `<p class=a>a</p><p id=t class=b>x</p>`, "", ""},
		{"adjacent sibling", `.a + .b { display:none }`, `<p class=a>a</p><p id=t class=b>x</p>`, HiddenDisplay, ".a + .b { display: none }"},
		{"inline shows", `.promo{display:none}`, `<div id=t class=promo style="display:block">x</div>`, "", ""},
		{"important beats inline", `.promo{display:none !important}`, `<div id=t class=promo style="display:block">x</div>`, HiddenDisplay, ".promo { display: none }"},
		{"inline important beats important", `.promo{display:none !important}`, `<div id=t class=promo style="display:block !important">x</div>`, "", ""},
		{"not hiding", `.a{color:red;display:block}`, `<p id=t class=a>x</p>`, "", ""},
		{"stray semicolons", `;.a{color:red;;};.b{display:none}`, `<p id=t class=b>x</p>`, HiddenDisplay, ".b { display: none }"},
		{"data url", `.a{background:url(data:image/png;base64,AA+/==)} .b{display:none}`, `<p id=t class=b>x</p>`, HiddenDisplay, ".b { display: none }"},
		{"at-rules before", `@charset "utf-8"; @import url(x.css); @font-face{font-family:x;src:url(x.woff)} .b{display:none}`, `<p id=t class=b>x</p>`, HiddenDisplay, ".b { display: none }"},
		{"comment", `/* .b{display:block} ; */ .b{display:none}`, `<p id=t class=b>x</p>`, HiddenDisplay, ".b { display: none }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustNormalize(t, "<head><style>"+tc.css+"</style></head><body>"+tc.el+"</body>")
			n := byID(t, r, "t")
			if n.Hidden != tc.reason || n.HiddenRule != tc.rule {
				t.Errorf("hidden = %q, %q; want %q, %q", n.Hidden, n.HiddenRule, tc.reason, tc.rule)
			}
			if r.Stats.StyleRules == 0 && !strings.HasPrefix(tc.css, "@media print") && !strings.HasPrefix(tc.css, "@media (") {
				t.Errorf("no style rules counted")
			}
		})
	}
}

func TestStyleElementMedia(t *testing.T) {
	for media, want := range map[string]string{"": HiddenDisplay, "screen": HiddenDisplay, "print": "", "(min-width: 1px)": ""} {
		r := mustNormalize(t, `<style media="`+media+`">.a{display:none}</style><p id=t class=a>x</p>`)
		if got := byID(t, r, "t").Hidden; got != want {
			t.Errorf("media %q: hidden = %q, want %q", media, got, want)
		}
	}
	r := mustNormalize(t, `<style type="text/less">.a{display:none}</style><p id=t class=a>x</p>`)
	if got := byID(t, r, "t").Hidden; got != "" {
		t.Errorf("non-CSS style block applied: %q", got)
	}
}

func TestInlineVerdictBeatsSheet(t *testing.T) {
	r := mustNormalize(t, `<style>.a{display:none}</style><p id=t class=a style="opacity:0">x</p>`)
	if n := byID(t, r, "t"); n.Hidden != HiddenOpacity {
		t.Errorf("hidden = %q, want the inline verdict", n.Hidden)
	}
}

func TestDetails(t *testing.T) {
	r := mustNormalize(t, `<details id=d><summary id=s>Q</summary>loose <p id=a>answer</p><summary id=s2>second</summary></details>`+
		`<details open id=o><summary>Q</summary><p id=b>open answer</p></details>`)
	if n := byID(t, r, "d"); n.Hidden != "" {
		t.Errorf("details itself hidden: %q", n.Hidden)
	}
	if n := byID(t, r, "s"); n.Hidden != "" {
		t.Errorf("first summary hidden: %q", n.Hidden)
	}
	for _, id := range []string{"a", "s2"} {
		if n := byID(t, r, id); n.Hidden != HiddenDetails || n.HiddenRule != "details without open" {
			t.Errorf("%s: hidden = %q %q", id, n.Hidden, n.HiddenRule)
		}
	}
	var loose Node
	for _, n := range r.Nodes {
		if n.Text == "loose " {
			loose = n
		}
	}
	if loose.Hidden != HiddenDetails {
		t.Errorf("text directly under closed details: hidden = %q", loose.Hidden)
	}
	if n := byID(t, r, "b"); n.Hidden != "" {
		t.Errorf("open details content hidden: %q", n.Hidden)
	}
}

func TestHiddenNotRepeatedOnDescendants(t *testing.T) {
	r := mustNormalize(t, `<div id=t style="display:none"><p id=c>child</p></div>`)
	if n := byID(t, r, "c"); n.Hidden != "" {
		t.Errorf("descendant repeats the verdict: %q", n.Hidden)
	}
}

func TestSecretValuesNeverKept(t *testing.T) {
	r := mustNormalize(t, `<form><input id=p type=PASSWORD value="hunter2secret"><input id=h type=hidden value="csrftokensecret">`+
		`<input id=q type=text value="visible"><button id=b value="go">Go</button></form>`)
	for _, id := range []string{"p", "h"} {
		if _, ok := byID(t, r, id).Attrs["value"]; ok {
			t.Errorf("%s keeps its value", id)
		}
	}
	if v := byID(t, r, "q").Attrs["value"]; v != "visible" {
		t.Errorf("text input value = %q", v)
	}
	if v := byID(t, r, "b").Attrs["value"]; v != "go" {
		t.Errorf("button value = %q", v)
	}
	line, err := Transform(t.Context(), captureLine(t, htmlCapture(`<input type=password value="hunter2secret"><input type="hidden" value=csrftokensecret>`)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(line), "hunter2secret") || strings.Contains(string(line), "csrftokensecret") {
		t.Errorf("secret in output: %s", line)
	}
}

// A loading-state hide on html or body (lifted by a script) is recorded,
// not applied; everything below body, and a page without scripts, keeps
// its verdicts.
func TestRootHideIsALoadingState(t *testing.T) {
	const script = `<script>document.body.style.visibility = "visible"</script>`
	tests := []struct {
		name, head, html, body string
		rootHidden             string // Doc.RootHidden; "" = hides as before
	}{
		{"body visibility", `<style>body { visibility: hidden }</style>` + script, ``, ``, "body: body { visibility: hidden }"},
		{"html opacity by class", `<style>.async-hide { opacity: 0 !important }</style>` + script, ` class="async-hide"`, ``, "html: .async-hide { opacity: 0 }"},
		{"body display inline", script, ``, ` style="display:none"`, `body: style="display:none"`},
		{"html and body", `<style>html{opacity:0} body{display:none}</style>` + script, ``, ``, "html: html { opacity: 0 }; body: body { display: none }"},
		{"no script: still hidden", `<style>body { visibility: hidden }</style>`, ``, ``, ""},
		{"offscreen body is not a loading state", `<style>body { position:absolute; left:-9999px }</style>` + script, ``, ``, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustNormalize(t, `<html`+tc.html+`><head>`+tc.head+`</head><body`+tc.body+`><p id=t>x</p><p id=h class=promo style="display:none">secret</p></body></html>`)
			if r.Doc.RootHidden != tc.rootHidden {
				t.Errorf("root_hidden = %q, want %q", r.Doc.RootHidden, tc.rootHidden)
			}
			rootHidden := false
			for _, n := range r.Nodes {
				if (n.Tag == "html" || n.Tag == "body") && n.Hidden != "" {
					rootHidden = true
				}
			}
			if rootHidden != (tc.rootHidden == "") {
				t.Errorf("html/body hidden = %v, want %v", rootHidden, tc.rootHidden == "")
			}
			if h := byID(t, r, "h"); h.Hidden != HiddenDisplay {
				t.Errorf("hidden paragraph below body: hidden = %q, want %q", h.Hidden, HiddenDisplay)
			}
		})
	}
}

// The wrapper of a whole page hidden until a script runs is a loading
// state too; a hidden part of a page that shows text of its own is not.
func TestPageWrapperHideIsALoadingState(t *testing.T) {
	const script = `<script>document.querySelector(".loading").className = ""</script>`
	article := strings.Repeat("A sentence of the article that the page shows once loaded. ", 12)
	tests := []struct {
		name, head, before string
		lifted             bool
	}{
		{"wrapper hidden", `<style>.loading { visibility: hidden }</style>` + script, ``, true},
		{"wrapper hidden inline", script, ``, true},
		{"no script", `<style>.loading { visibility: hidden }</style>`, ``, false},
		{"page shows text of its own", `<style>.loading { visibility: hidden }</style>` + script, `<p>` + article + `</p>`, false},
		{"wrapper without a loading name", `<style>#w { display: none }</style>` + script, `<p>Welcome</p>`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			style := ""
			if tc.name == "wrapper hidden inline" {
				style = ` style="visibility:hidden"`
			}
			class := " class=loading"
			if tc.name == "wrapper without a loading name" {
				class = ""
			}
			r := mustNormalize(t, `<html><head>`+tc.head+`</head><body>`+tc.before+`<div id=w`+class+style+`><p>`+article+`</p><p id=h style="display:none">secret</p></div></body></html>`)
			if got := byID(t, r, "w").Hidden == ""; got != tc.lifted {
				t.Errorf("wrapper shown = %v, want %v (root_hidden %q)", got, tc.lifted, r.Doc.RootHidden)
			}
			if got := r.Doc.RootHidden != ""; got != tc.lifted {
				t.Errorf("root_hidden = %q, want set = %v", r.Doc.RootHidden, tc.lifted)
			}
			if h := byID(t, r, "h"); h.Hidden != HiddenDisplay {
				t.Errorf("hidden paragraph in the wrapper: hidden = %q, want %q", h.Hidden, HiddenDisplay)
			}
		})
	}
}

// A zero font size hides only what inherits it: a descendant that sets an
// absolute size again shows, and the verdict moves to the rest.
func TestZeroFontSizeReset(t *testing.T) {
	const css = `<style>.row { font-size: 0 } .col { font-size: 16px }</style>`
	r := mustNormalize(t, css+`<div id=r class=row>stray<div id=c class=col>shown</div>`+
		`<div id=w><p id=d class=col>deep</p><p id=z>no size</p></div>`+
		`<span id=e style="font-size:1.2em">relative</span><span id=i style="font-size:14px">inline</span></div>`+
		`<div id=n class=row><p id=m>never reset</p></div>`)
	want := map[string]string{"r": "", "c": "", "w": "", "d": "", "i": "", "z": HiddenFontSize, "e": HiddenFontSize, "n": HiddenFontSize, "m": ""}
	for id, reason := range want {
		if got := byID(t, r, id).Hidden; got != reason {
			t.Errorf("#%s hidden = %q, want %q", id, got, reason)
		}
	}
	if z := byID(t, r, "z"); z.HiddenRule != ".row { font-size: 0 }" {
		t.Errorf("moved verdict rule = %q", z.HiddenRule)
	}
	for _, n := range r.Nodes {
		if n.Tag == textTag && n.Text == "stray" && n.Hidden != HiddenFontSize {
			t.Errorf("the zero-size element's own text: hidden = %q, want %q", n.Hidden, HiddenFontSize)
		}
	}
}

func TestAbsoluteSize(t *testing.T) {
	for v, want := range map[string]bool{
		"16px": true, "1rem": true, "12pt": true, "medium": true, "initial": true, "14px !important": true,
		"0": false, "0px": false, "1em": false, "100%": false, "inherit": false, "larger": false, "calc(1rem + 2px)": false,
	} {
		if got := absoluteSize(v); got != want {
			t.Errorf("absoluteSize(%q) = %v, want %v", v, got, want)
		}
	}
}
