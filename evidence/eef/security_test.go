package eef

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

// webGraph reads body as the served HTML of https://shop.example.test/.
func webGraph(t *testing.T, body string) *graph.Record {
	t.Helper()
	n, err := normalize.Normalize(&capture.Record{
		Record: "capture", SchemaVersion: "1.0", URL: "https://shop.example.test/", FinalURL: "https://shop.example.test/",
		Tier: "static", Status: 200, Headers: map[string]string{"content-type": "text/html"}, ContentType: "text/html",
		Body: body, BodyBytes: int64(len(body)),
		Timing: capture.Timing{StartedAt: "2026-01-02T03:04:05Z"},
		Trace:  capture.Trace{SieveVersion: "test", Tier: "static", Libraries: []version.Library{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph.Build(n)
}

// TestWebSecurityInventory: a web page's security report counts its
// scripts (inline and external), frames, forms, event handlers,
// javascript: URLs, resources from other sites and meta refreshes, with a
// finding for each kind (a meta refresh to another site a warning).
func TestWebSecurityInventory(t *testing.T) {
	rec := webGraph(t, `<html><head><title>Shop</title>
<meta http-equiv="refresh" content="10;url=https://phish.example.net/login">
<script>track()</script><script src="https://cdn.example.org/lib.js"></script>
<link rel="stylesheet" href="https://fonts.example.org/f.css"></head>
<body onload="boot()"><h1>Shop</h1><p>Items for sale, every day of the week.</p>
<a href="javascript:buy()" onclick="buy()">Buy</a>
<img src="/logo.png" alt="logo"><iframe src="https://ads.example.org/"></iframe>
<div hidden><form action="/x"><input name="q"></form></div>
</body></html>`)
	b, files := build(t, rec)
	validateBundle(t, files)
	line, err := codec.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.ValidateRecord(line); err != nil {
		t.Errorf("graph record with its security inventory: %v", err)
	}
	inv := b.Security.Inventory
	got := fmt.Sprintf("scripts %v inline %v external %v handlers %v js_urls %v external_resources %v refreshes %v iframes %d forms %d",
		deref(inv.Scripts), deref(inv.InlineScripts), deref(inv.ExternalScripts), deref(inv.EventHandlers),
		deref(inv.JavaScriptURLs), deref(inv.ExternalResources), deref(inv.MetaRefreshes), inv.Iframes, inv.Forms)
	want := "scripts 2 inline 1 external 1 handlers 2 js_urls 1 external_resources 3 refreshes 1 iframes 1 forms 1"
	if got != want {
		t.Errorf("inventory\n got %s\nwant %s", got, want)
	}
	var codes []string
	for _, f := range b.Security.Findings {
		codes = append(codes, f.Code+"/"+f.Severity)
	}
	for _, c := range []string{"scripts/info", "event_handlers/info", "javascript_url/warning", "meta_refresh/warning", "external_resources/info", "iframe/info"} {
		if !slicesContains(codes, c) {
			t.Errorf("no %s finding among %v", c, codes)
		}
	}
	for _, f := range b.Security.Findings {
		if f.Code == FindingMetaRefresh && f.Evidence.URI != "https://phish.example.net/login" {
			t.Errorf("meta refresh evidence %+v", f.Evidence)
		}
		if f.Code == FindingExternalResources && f.Evidence.Text != "cdn.example.org fonts.example.org ads.example.org" {
			t.Errorf("external resources evidence %+v", f.Evidence)
		}
	}
	for _, l := range b.Security.Limits {
		if l.Code == "scripts_not_counted" {
			t.Errorf("limit %+v on a page whose markup was read", l)
		}
	}
}

// TestWebSecurityNoInventory: without the markup inventory (a graph
// record from before it, or a page that navigated away from the served
// HTML) scripts stays null and a limit says why.
func TestWebSecurityNoInventory(t *testing.T) {
	rec := webGraph(t, `<p>text</p>`)
	rec.Security = nil
	b, _ := build(t, rec)
	if b.Security.Inventory.Scripts != nil || len(b.Security.Limits) != 1 || b.Security.Limits[0].Code != "scripts_not_counted" {
		t.Errorf("inventory %+v limits %+v", b.Security.Inventory, b.Security.Limits)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestChunksCarrySecurityWarnings: every chunk of a document whose
// security report holds a finding of severity warning or above carries
// one security_findings warning naming them (SPEC.md §4.8); a document
// with info findings only carries none. BuildLean's chunk lines are
// Build's (TestBuildLeanWritesBuildsFiles), so both paths are held.
func TestChunksCarrySecurityWarnings(t *testing.T) {
	for _, c := range []struct {
		name string
		rec  *graph.Record
		want string // "" for no warning
	}{
		{"hidden", load(t, "hidden"), "(highest: high): f0001 hidden_text, f0002 prompt_injection_like_hidden_text"},
		{"javascript-url", webGraph(t, `<html><body><h1>Shop</h1><p>Items for sale, every day of the week.</p><a href="javascript:buy()">Buy</a></body></html>`),
			"1 security findings of severity warning or above (highest: warning): f0001 javascript_url;"},
		{"info-only", webGraph(t, `<html><body><h1>Shop</h1><p>Items for sale, every day of the week.</p><script>track()</script></body></html>`), ""},
	} {
		b, files := build(t, c.rec)
		validateBundle(t, files)
		if len(b.Chunks) == 0 {
			t.Fatalf("%s: no chunks", c.name)
		}
		for _, ch := range b.Chunks {
			var got []Warning
			for _, w := range ch.Warnings {
				if w.Code == WarningSecurityFindings {
					got = append(got, w)
				}
			}
			switch {
			case c.want == "" && len(got) != 0:
				t.Errorf("%s: chunk %s warns %+v", c.name, ch.ChunkID, got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0].Message, c.want)):
				t.Errorf("%s: chunk %s warnings %+v, want one %s containing %q", c.name, ch.ChunkID, ch.Warnings, WarningSecurityFindings, c.want)
			}
		}
	}
}
