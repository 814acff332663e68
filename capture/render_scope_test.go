package capture_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
)

// renderCapturer is a --tier render capturer of its own (a browser of its
// own), for servers on 127.0.0.1.
func renderCapturer(t *testing.T, set func(*capture.Options)) *capture.Capturer {
	t.Helper()
	needChromium(t)
	o := capture.DefaultOptions()
	o.AllowPrivate = true // the test servers are on 127.0.0.1 and reference nothing else
	o.Tier = capture.TierRender
	o.Concurrency = 1
	o.Browser.Settle = 3 * time.Second
	o.Browser.Timeout = 45 * time.Second // not under test: a loaded CI machine must not cut a read
	o.Browser.LaunchWait = time.Minute   // nor is this
	o.Browser.SweepSteps = 2
	if set != nil {
		set(&o)
	}
	cp := capture.New(o)
	t.Cleanup(cp.Close)
	if err := cp.Ready(); err != nil {
		t.Fatal(err)
	}
	return cp
}

// TestRenderUserAgentEveryRequest: every request the browser makes carries
// sieve's User-Agent — subresources, a script's fetch, and favicon.ico,
// which the browser asks for on its own (when it asks before the read ends:
// on a loaded machine it may not).
func TestRenderUserAgentEveryRequest(t *testing.T) {
	t.Parallel() // a browser of its own; mostly waits
	const ua = "sieve-ua-test/1.0 (+https://example.invalid/)"
	var mu sync.Mutex
	seen := map[string][]string{} // path → User-Agents
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path] = append(seen[r.URL.Path], r.UserAgent())
		mu.Unlock()
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, `<html><head><title>UA</title><script src="/app.js"></script></head><body><img src="/pixel.gif" alt="a pixel"><div id="app"></div></body></html>`)
		case "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			io.WriteString(w, `fetch("/api").then(r => r.text()).then(t => { document.getElementById("app").innerHTML = "<h1>Loaded</h1><p>" + t + "</p>"; });`)
		case "/api":
			io.WriteString(w, "The text a script fetched after the page had loaded.")
		case "/favicon.ico":
			w.Header().Set("Content-Type", "image/x-icon")
			w.Write([]byte{0, 0, 1, 0})
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cp := renderCapturer(t, func(o *capture.Options) { o.UserAgent = ua })
	rec := cp.Capture(context.Background(), capture.Target{URL: srv.URL + "/"})
	if rec.Tier != capture.TierRender || rec.Error != nil {
		t.Fatalf("tier %s error %+v render %+v", rec.Tier, rec.Error, rec.Render)
	}
	// favicon.ico is the browser's own request, made around the load: give
	// it a moment when the read ended first.
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		mu.Lock()
		n := len(seen["/favicon.ico"])
		mu.Unlock()
		if n > 0 {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range []string{"/", "/app.js", "/pixel.gif", "/api"} {
		if len(seen[p]) == 0 {
			t.Errorf("%s was not requested (requests: %v)", p, seen)
		}
	}
	if len(seen["/favicon.ico"]) == 0 {
		// the browser asks when it gets round to it: a slow machine may
		// have ended the read first (its User-Agent is checked when it came)
		t.Logf("favicon.ico was not requested before the read ended")
	}
	for p, uas := range seen {
		for _, got := range uas {
			if got != ua {
				t.Errorf("%s requested with User-Agent %q, want %q", p, got, ua)
			}
		}
	}
}

// TestRenderScopeStopsNavigation: under a crawl's scope, a page whose
// script navigates out of it — directly, or through an in-scope URL that
// redirects — is stopped before the browser requests the other host, and
// the read says so (out_of_scope), never the other host's page.
func TestRenderScopeStopsNavigation(t *testing.T) {
	t.Parallel() // a browser of its own; mostly waits
	var otherHits atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><p>The other host's page.</p></body></html>")
	}))
	defer other.Close()
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	leave := func(to string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<html><body><div id="app"></div><script>setTimeout(() => { location.href = %q; }, 50);</script></body></html>`, to)
		}
	}
	mux.HandleFunc("/robots.txt", http.NotFound)
	mux.HandleFunc("/direct", leave(other.URL+"/landing"))
	mux.HandleFunc("/via", leave("/go-oos"))
	mux.HandleFunc("/go-oos", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
	})
	scope := func(u string) error {
		if strings.HasPrefix(u, srv.URL+"/") {
			return nil
		}
		return errors.New("outside the crawl's scope (--scope host)")
	}
	cp := renderCapturer(t, nil)
	for _, path := range []string{"/direct", "/via"} {
		rec := cp.Capture(capture.WithScope(context.Background(), scope), capture.Target{URL: srv.URL + path})
		if rec.Error == nil || rec.Error.Kind != capture.ErrOutOfScope {
			t.Errorf("%s: error %+v, want %s (render %+v)", path, rec.Error, capture.ErrOutOfScope, rec.Render)
			continue
		}
		if !strings.Contains(rec.Error.Message, other.URL+"/landing") {
			t.Errorf("%s: message %q does not name the target", path, rec.Error.Message)
		}
		for _, n := range rec.DOM {
			if strings.Contains(n.Text, "other host's page") {
				t.Errorf("%s: the record holds the other host's page", path)
			}
		}
	}
	if n := otherHits.Load(); n != 0 {
		t.Errorf("the out-of-scope host got %d requests from the browser, want 0", n)
	}
}
