package normalize

import (
	"reflect"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/schemas"
)

// TestSecurityInventory counts what a page's markup holds that bears on
// trust: scripts that run (inline and external, data blocks left out),
// frames, forms, on* attributes, javascript: URLs, the URLs the page loads
// and which of them are on another site, and meta refreshes.
func TestSecurityInventory(t *testing.T) {
	page := `<!doctype html><html><head>
<meta http-equiv="refresh" content="5; URL='https://evil.example.net/landing'">
<meta http-equiv="Refresh" content="30">
<link rel="stylesheet" href="/site.css"><link rel="canonical" href="https://cdn.example.org/x">
<link rel="icon" href="https://cdn.example.org/favicon.ico">
<script>var a = 1;</script>
<script src="https://tracker.example.org/t.js"></script>
<script type="module" src="/app.js"></script>
<script type="application/json">{"not": "run"}</script>
<script type="application/ld+json">{"@type": "Thing"}</script>
</head><body onload="init()">
<p onclick="go()" onmouseover="hover()">Hello</p>
<img src="https://images.example.org/a.png" onerror="steal()"><img src="/local.png"><img src="data:image/png;base64,AAAA">
<a href="javascript:void(0)">nothing</a><a href="https://www.example.test/same">same site</a>
<iframe src="https://ads.example.org/frame"></iframe>
<div style="display:none"><form action="/login"><input type="password" name="pw"></form><iframe src="/inner"></iframe></div>
<svg onload="svgInit()"><script>alert(1)</script></svg>
</body></html>`
	r := mustNormalize(t, page)
	// the schema wants what a real capture has (the helper leaves it out)
	v := *r
	v.Capture.Timing.StartedAt = "2026-01-02T03:04:05Z"
	v.Capture.Trace = capture.Trace{SieveVersion: "test", Tier: "static", Libraries: []version.Library{}}
	if line, err := codec.Marshal(&v); err != nil {
		t.Fatal(err)
	} else if err := schemas.ValidateRecord(line); err != nil {
		t.Errorf("normalized record: %v", err)
	}
	s := r.Doc.Security
	if s == nil {
		t.Fatal("no security inventory")
	}
	want := Security{
		InlineScripts: 2, ExternalScripts: 2, Iframes: 2, Forms: 1,
		EventHandlers: 5, HandlerNames: []string{"onload", "onclick", "onmouseover", "onerror"},
		JavaScriptURLs: 1,
		// site.css, favicon, t.js, app.js, three images but the data: one, two frames
		Resources: 8, ExternalResources: 4,
		ExternalHosts: []string{"cdn.example.org", "tracker.example.org", "images.example.org", "ads.example.org"},
		MetaRefresh: []MetaRefresh{
			{Delay: 5, URL: "https://evil.example.net/landing", External: true},
			{Delay: 30},
		},
	}
	if !reflect.DeepEqual(*s, want) {
		t.Errorf("inventory\n got %+v\nwant %+v", *s, want)
	}
}

// TestSecurityInventoryEmptyPage: an HTML page without any of it still
// says so (zero counts, not an absent inventory).
func TestSecurityInventoryEmptyPage(t *testing.T) {
	r := mustNormalize(t, `<p>plain</p>`)
	if s := r.Doc.Security; s == nil || s.InlineScripts+s.ExternalScripts+s.Resources+s.EventHandlers != 0 {
		t.Errorf("inventory %+v, want zero counts", s)
	}
}

func TestMetaRefreshForms(t *testing.T) {
	for content, want := range map[string]MetaRefresh{
		"0;url=/next":              {Delay: 0, URL: "https://example.test/next"},
		"3 , URL = '/a b'":         {Delay: 3, URL: "https://example.test/a%20b"},
		"2.5; https://other.test/": {Delay: 2, URL: "https://other.test/", External: true},
		"":                         {},
	} {
		r := mustNormalize(t, `<meta http-equiv="refresh" content="`+content+`">`)
		got := r.Doc.Security.MetaRefresh
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: got %+v, want %+v", content, got, want)
		}
	}
}

func TestIsJavaScriptURL(t *testing.T) {
	for v, want := range map[string]bool{
		"javascript:void(0)": true, " JavaScript:x": true, "java\tscript:x": true, "jav\nascript:": true,
		"javascript": false, "https://x/javascript:": false, "": false, "vbscript:x": false,
	} {
		if isJavaScriptURL(v) != want {
			t.Errorf("isJavaScriptURL(%q) = %v", v, !want)
		}
	}
}
