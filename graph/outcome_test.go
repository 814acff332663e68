package graph

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

func TestOutcomes(t *testing.T) {
	long := strings.Repeat("Real prose about the subject of this page. ", 60)
	cases := []struct {
		name     string
		body     string
		mod      func(*capture.Record)
		status   string
		evidence string // substring of one evidence string
	}{
		{name: "ok", body: `<main><h1>Fine</h1><p>` + long + `</p></main>`, status: StatusOK},
		{name: "403", body: `<p>Access denied by policy WEB-31.</p>`, mod: func(c *capture.Record) { c.Status = 403 },
			status: StatusBlocked, evidence: "HTTP 403"},
		{name: "500", body: `<p>Oops</p>`, mod: func(c *capture.Record) { c.Status = 500 }, status: StatusBlocked, evidence: "HTTP 500"},
		{name: "robots", mod: func(c *capture.Record) {
			c.Status, c.Body = 0, ""
			c.Robots = &capture.Robots{URL: "http://example.test/robots.txt", Status: 200}
			c.Error = &capture.Error{Kind: capture.ErrRobots, Message: "disallowed"}
		}, status: StatusBlocked, evidence: "robots.txt"},
		{name: "refused", mod: func(c *capture.Record) {
			c.Status, c.Body = 0, ""
			c.Error = &capture.Error{Kind: capture.ErrConnect, Message: "connection refused"}
		}, status: StatusBlocked, evidence: "connection refused"},
		{name: "429", mod: func(c *capture.Record) {
			c.Status, c.Body = 429, ""
			c.Headers["retry-after"] = "120"
			c.Error = &capture.Error{Kind: capture.ErrRateLimited, Message: "still 429"}
		}, status: StatusBlocked, evidence: "Retry-After: 120"},
		{name: "cloudflare 403 challenge", body: `<html><head><title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></head><body><p>Checking your browser before accessing example.test.</p></body></html>`,
			mod: func(c *capture.Record) { c.Status = 403; c.Headers["cf-mitigated"] = "challenge" }, status: StatusChallenge, evidence: "cf-mitigated"},
		{name: "age gate", body: `<main><h1>Welcome</h1><p>Are you 18 or older?</p><button>Yes</button><button>No</button></main>`,
			status: StatusChallenge, evidence: "entry screen"},
		{name: "401", body: `<p>Unauthorized</p>`, mod: func(c *capture.Record) {
			c.Status = 401
			c.Headers["www-authenticate"] = `Basic realm="members"`
		}, status: StatusAuthRequired, evidence: "HTTP 401"},
		{name: "login redirect", body: `<h1>Sign in</h1><form><input name="email"><input type="password" name="pw"><button>Sign in</button></form>`,
			mod: func(c *capture.Record) {
				c.URL = "http://example.test/account"
				c.FinalURL = "http://example.test/login?next=/account"
				c.Redirects = []capture.Redirect{{URL: "http://example.test/account", Status: 302}}
			}, status: StatusAuthRequired, evidence: "login page"},
		{name: "spa shell", body: `<html><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript><script src="/app.js"></script></body></html>`,
			status: StatusSPAShell, evidence: `<div id="root">`},
		{name: "empty", body: `<html><body></body></html>`, status: StatusOK, evidence: "not rendered"},
		{name: "header login box beside a short article stays ok", body: `<header><form class="login"><input name="u"><input type="password" name="p"><button>Log in</button></form></header><main><article><h1>News</h1><p>A short article about the harbour, its boats and the people who mend their nets every morning before the tide turns.</p></article></main>`,
			status: StatusOK},
		{name: "login pop-up beside an article stays ok", body: `<div class="modal-login"><input type="password" name="p"></div><h1>News</h1><p>A short article about the harbour, its boats and the people who mend their nets.</p>`,
			status: StatusOK},
		{name: "log in to comment under an article stays ok", body: `<main><h1>News</h1><p>A short article about the harbour and its boats.</p><form><textarea name="c"></textarea></form><p>You must be logged in to post a comment.</p></main>`,
			status: StatusOK},
		{name: "recaptcha on a comment form stays ok", body: `<main><h1>News</h1><p>` + long[:600] + `</p><form><textarea name="c"></textarea><script src="https://www.google.com/recaptcha/api.js"></script></form></main>`,
			status: StatusOK},
		{name: "login form as the page stays auth_required", body: `<main><h1>Members</h1><p>Please log in to read this.</p><form><input name="u"><input type="password" name="p"><button>Log in</button></form></main>`,
			status: StatusAuthRequired, evidence: "password field"},
		{name: "captcha widget on a real page stays ok", body: `<main><h1>Contact</h1><p>` + long + `</p><form><input name="q"><script src="https://www.google.com/recaptcha/api.js"></script><button>Send</button></form></main>`,
			status: StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := captureOf(tc.body)
			if tc.mod != nil {
				tc.mod(c)
			}
			g := build(t, c)
			o := g.Outcome
			if o.Status != tc.status {
				t.Fatalf("status %s, want %s; evidence %q", o.Status, tc.status, o.Evidence)
			}
			if o.HTTPStatus != c.Status {
				t.Errorf("http_status %d, want %d", o.HTTPStatus, c.Status)
			}
			if tc.status == StatusOK {
				if ev := strings.Join(o.Evidence, "\n"); tc.evidence == "" && ev != "" || !strings.Contains(ev, tc.evidence) {
					t.Errorf("ok with evidence %q, want %q", o.Evidence, tc.evidence)
				}
				return
			}
			if len(o.Evidence) == 0 {
				t.Fatal("non-ok outcome with no evidence")
			}
			if !strings.Contains(strings.Join(o.Evidence, "\n"), tc.evidence) {
				t.Errorf("evidence %q lacks %q", o.Evidence, tc.evidence)
			}
			if len(o.BodyExcerpt) > 400 {
				t.Errorf("body_excerpt is %d bytes", len(o.BodyExcerpt))
			}
			if g.Guidance == "" {
				t.Error("no guidance")
			}
		})
	}
}

// TestEmptyStaticClaimsNoRender: empty_after_render says the page was
// rendered (ARTIFACT.md), so a static read of an empty document is ok,
// with evidence that says it is empty and was not rendered; guidance says
// there is nothing to quote. A rendered empty page is empty_after_render
// (TestRenderOutcomes).
func TestEmptyStaticClaimsNoRender(t *testing.T) {
	g := build(t, captureOf(`<html><head><title>Nothing</title></head><body><div></div></body></html>`))
	if g.Outcome.Status == StatusEmptyAfterRender {
		t.Fatalf("a static read claims a render: %+v", g.Outcome)
	}
	ev := strings.Join(g.Outcome.Evidence, " ")
	if g.Outcome.Status != StatusOK || !strings.Contains(ev, "no visible text") || !strings.Contains(ev, "not rendered") {
		t.Errorf("outcome %+v, want ok with evidence of an empty static read", g.Outcome)
	}
	if !strings.Contains(g.Guidance, "no prose to quote") {
		t.Errorf("guidance %q does not say the page carries no text", g.Guidance)
	}
}

// TestEntryScreenGaps: a challenge and a login wall are entry screens
// never passed, named in gaps[].
func TestEntryScreenGaps(t *testing.T) {
	for status, html := range map[string]string{
		StatusChallenge:    `<html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing example.com.</p><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></body></html>`,
		StatusAuthRequired: `<html><head><title>Sign in</title></head><body><h1>Sign in</h1><p>Sign in to continue reading.</p><form action="/login"><input name="e"><input type="password" name="p"></form></body></html>`,
	} {
		g := build(t, captureOf(html))
		if g.Outcome.Status != status {
			t.Errorf("fixture for %s reads as %s (%v)", status, g.Outcome.Status, g.Outcome.Evidence)
			continue
		}
		found := false
		for _, gap := range g.Gaps {
			found = found || gap.Kind == "entry_screen"
		}
		if !found {
			t.Errorf("%s: no entry_screen gap in %+v", status, g.Gaps)
		}
	}
}

// TestBodyExcerptOnlyOnError: a challenge or login wall served with 200 is
// not an error answer, so it carries no body_excerpt (ARTIFACT.md).
func TestBodyExcerptOnlyOnError(t *testing.T) {
	c := captureOf(`<html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing the site.</p><form action="/login"><input type="password" name="p"></form></body></html>`)
	c.Status = 200
	g := build(t, c)
	if g.Outcome.Status == StatusOK {
		t.Skipf("the fixture reads as ok (%v)", g.Outcome.Evidence)
	}
	if g.Outcome.BodyExcerpt != "" {
		t.Errorf("%s with HTTP 200 has body_excerpt %q", g.Outcome.Status, g.Outcome.BodyExcerpt)
	}
}

func TestBodyExcerptCapped(t *testing.T) {
	c := captureOf(`<p>` + strings.Repeat("é", 1000) + `</p>`)
	c.Status = 403
	g := build(t, c)
	if n := len(g.Outcome.BodyExcerpt); n == 0 || n > 400 {
		t.Fatalf("body_excerpt %d bytes", n)
	}
	if !strings.HasPrefix(g.Outcome.BodyExcerpt, "éé") || strings.ContainsRune(g.Outcome.BodyExcerpt, '\uFFFD') {
		t.Error("excerpt cut inside a rune")
	}
}

func TestPrecedenceNotes(t *testing.T) {
	// A 403 that is also a challenge reports challenge, and notes the 403.
	c := captureOf(`<title>Just a moment...</title><p>Checking your browser</p>`)
	c.Status = 403
	g := build(t, c)
	if g.Outcome.Status != StatusChallenge {
		t.Fatalf("status %s", g.Outcome.Status)
	}
	if !strings.Contains(strings.Join(g.Audit.Notes, "\n"), "also observed (blocked)") {
		t.Errorf("notes %q", g.Audit.Notes)
	}
}
