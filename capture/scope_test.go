package capture

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// scopeSites serves an in-scope host that redirects /go-oos to a second
// host (another port of 127.0.0.1), which counts every request it gets.
func scopeSites(t *testing.T) (in, out string, outHits *atomic.Int64) {
	t.Helper()
	outHits = &atomic.Int64{}
	other := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		outHits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><p>The other host's text.</p></body></html>"))
	}))
	home := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/go-oos":
			http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
		case "/go-in":
			http.Redirect(w, r, "/page", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body><p>In scope.</p></body></html>"))
		}
	}))
	return home.URL, other.URL, outHits
}

// hostScope admits the URLs of prefix only, as sieve crawl's --scope host does.
func hostScope(prefix string) func(string) error {
	return func(u string) error {
		if strings.HasPrefix(u, prefix+"/") {
			return nil
		}
		return errors.New("outside the crawl's scope (--scope host)")
	}
}

func TestCaptureScopeStopsRedirectOutOfScope(t *testing.T) {
	in, out, outHits := scopeSites(t)
	c := newCapturer(t, testOptions())
	ctx := WithScope(context.Background(), hostScope(in))

	rec := c.Capture(ctx, Target{URL: in + "/go-oos"})
	validateRecord(t, "capture", rec)
	wantError(t, rec, ErrOutOfScope)
	if !strings.Contains(rec.Error.Message, "redirected out of scope to "+out+"/landing") {
		t.Errorf("message %q does not name the target", rec.Error.Message)
	}
	if rec.Body != "" || len(rec.Redirects) != 1 || rec.Redirects[0].Status != http.StatusFound {
		t.Errorf("body %q, redirects %+v", rec.Body, rec.Redirects)
	}
	if n := outHits.Load(); n != 0 {
		t.Errorf("the out-of-scope host got %d requests (robots.txt included), want 0", n)
	}

	// A redirect that stays in scope is followed.
	rec = c.Capture(ctx, Target{URL: in + "/go-in"})
	wantOK(t, rec)
	if rec.FinalURL != in+"/page" {
		t.Errorf("final URL %s", rec.FinalURL)
	}
	// The target itself out of scope: not requested.
	rec = c.Capture(ctx, Target{URL: out + "/direct"})
	wantError(t, rec, ErrOutOfScope)
	if !strings.HasPrefix(rec.Error.Message, "not requested: "+out+"/direct") {
		t.Errorf("message %q", rec.Error.Message)
	}
	// Without a scope (plain sieve-capture) the redirect is followed.
	rec = c.Capture(context.Background(), Target{URL: in + "/go-oos"})
	wantOK(t, rec)
	if outHits.Load() == 0 {
		t.Error("without a scope the redirect was not followed")
	}
}

func TestFetchScope(t *testing.T) {
	in, out, outHits := scopeSites(t)
	c := newCapturer(t, testOptions())
	ctx := WithScope(context.Background(), hostScope(in))
	for _, u := range []string{in + "/go-oos", out + "/sitemap.xml"} {
		f := c.Fetch(ctx, u)
		if f.Err == nil || f.Err.Kind != ErrOutOfScope || f.Body != nil {
			t.Errorf("Fetch(%s): err %+v, %d bytes", u, f.Err, len(f.Body))
		}
	}
	if f := c.Fetch(ctx, in+"/go-in"); f.Err != nil || f.Status != http.StatusOK {
		t.Errorf("in-scope fetch: %+v", f.Err)
	}
	if n := outHits.Load(); n != 0 {
		t.Errorf("the out-of-scope host got %d requests, want 0", n)
	}
}
