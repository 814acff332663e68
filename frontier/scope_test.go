package frontier_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
)

// outOfScopeHost is a second host (another port of 127.0.0.1) that counts
// every request it gets: a host scope seeded elsewhere must never reach it.
func outOfScopeHost(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch {
		case strings.HasSuffix(r.URL.Path, ".xml"):
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://%s/listed</loc></url></urlset>`, r.Host)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html><html><head><title>Elsewhere</title></head><body><main><p>The other host's text, which no artifact of the crawl may hold.</p></main></body></html>")
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestCrawlScopeRedirectsAndSitemaps(t *testing.T) {
	other, otherHits := outOfScopeHost(t)
	mux := http.NewServeMux()
	home := httptest.NewServer(mux)
	t.Cleanup(home.Close)
	page := func(title, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><html><head><title>%s</title></head><body><main><h1>%s</h1><p>%s</p></main></body></html>", title, title, body)
		}
	}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s/robots-sitemap.xml\nSitemap: %s/sitemap_index.xml\n", other.URL, home.URL)
	})
	mux.HandleFunc("/sitemap_index.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/index-child.xml</loc></sitemap><sitemap><loc>%s/sitemap.xml</loc></sitemap></sitemapindex>`, other.URL, home.URL)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/listed</loc></url></urlset>`, home.URL)
	})
	mux.HandleFunc("/go-oos", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/landing", http.StatusFound)
	})
	mux.HandleFunc("/listed", page("Listed", "A page the site's own sitemap lists, about the harvest."))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Home</title></head><body><main><h1>Home</h1><p>The home page, about the weather of the year.</p><p><a href="/go-oos">Moved</a></p></main></body></html>`)
	})

	out := t.TempDir()
	stdout, stderr, code := runCrawl(t, "--tier", "static", "--allow-private", "--no-evidence", "--out", out,
		"--progress", "none", home.URL+"/")
	if code != cliutil.ExitOutcome { // the page redirected out of scope is blocked
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if n := otherHits.Load(); n != 0 {
		t.Errorf("the out-of-scope host got %d requests (a redirect target, robots.txt sitemaps, sitemap-index entries), want 0", n)
	}
	outcomes, dirs := map[string]string{}, map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if err := schemas.ValidateRecord([]byte(l)); err != nil {
			t.Errorf("%v: %.200s", err, l)
		}
		outcomes[gjson.Get(l, "url").String()] = gjson.Get(l, "outcome").String()
		dirs[gjson.Get(l, "url").String()] = gjson.Get(l, "dir").String()
		if dir := gjson.Get(l, "dir").String(); dir != "" {
			md, _ := os.ReadFile(filepath.Join(dir, "index.md"))
			if bytes.Contains(md, []byte("other host's text")) {
				t.Errorf("%s stores the out-of-scope host's page", gjson.Get(l, "url"))
			}
		}
	}
	want := map[string]string{home.URL + "/": "ok", home.URL + "/listed": "ok", home.URL + "/go-oos": "blocked"}
	if fmt.Sprint(outcomes) != fmt.Sprint(want) {
		t.Errorf("outcomes %v, want %v", outcomes, want)
	}
	content, err := os.ReadFile(filepath.Join(dirs[home.URL+"/go-oos"], "content.json"))
	if err != nil {
		t.Fatal(err)
	}
	ev := gjson.GetBytes(content, "outcome.evidence").String()
	t.Logf("evidence: %s\nstderr: %s", ev, stderr)
	if !strings.Contains(ev, "redirected out of scope to "+other.URL+"/landing") {
		t.Errorf("the blocked redirect's evidence does not say where it led: %s", ev)
	}
	if !strings.Contains(ev, "not fetched: ") || strings.Contains(ev, "the fetch failed") {
		t.Errorf("an out-of-scope redirect is a page not fetched, not a failed fetch: %s", ev)
	}
	for _, sm := range []string{other.URL + "/robots-sitemap.xml", other.URL + "/index-child.xml"} {
		if !strings.Contains(stderr, "sitemap "+sm+": not requested: "+sm+" is outside the crawl's scope (--scope host)") {
			t.Errorf("stderr does not say the sitemap %s is out of scope:\n%s", sm, stderr)
		}
	}
}

// TestRecrawlKeepsContentOverEmptyRead: a re-read that answers 200 with an
// empty document (an ok read with no content) does not replace the page's
// artifact; it is kept aside like a failed re-read.
func TestRecrawlKeepsContentOverEmptyRead(t *testing.T) {
	var mu sync.Mutex
	body := `<!doctype html><html><head><title>Harvest</title></head><body><main><h1>Harvest</h1><p>The harvest of the year was good, and the weather held until the end of it.</p></main></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	out := t.TempDir()
	crawl := func(state string) string {
		t.Helper()
		stdout, stderr, code := runCrawl(t, "--tier", "static", "--allow-private", "--no-evidence", "--out", out,
			"--progress", "none", "--no-sitemaps", "--state", filepath.Join(out, state), srv.URL+"/")
		if code != 0 {
			t.Fatalf("crawl %s: exit %d\n%s", state, code, stderr)
		}
		return strings.TrimSpace(stdout)
	}
	first := crawl("one")
	md := filepath.Join(gjson.Get(first, "dir").String(), "index.md")
	before, err := os.ReadFile(md)
	if err != nil || !bytes.Contains(before, []byte("weather held")) {
		t.Fatalf("first crawl's index.md: %v\n%s", err, before)
	}

	mu.Lock()
	body = "<html><body></body></html>"
	mu.Unlock()
	l := crawl("two")
	if gjson.Get(l, "outcome").String() != "ok" || !gjson.Get(l, "reread.kept").Bool() || !gjson.Get(l, "reread.empty").Bool() ||
		gjson.Get(l, "reread.outcome").String() != "ok" || !strings.Contains(gjson.Get(l, "reread.evidence").String(), "no visible text") {
		t.Errorf("empty re-read record: %s", l)
	}
	if now, _ := os.ReadFile(md); !bytes.Equal(now, before) {
		t.Errorf("index.md replaced by an empty re-read:\n%s", now)
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(md), frontier.FileRereadFailed))
	if err != nil || !gjson.GetBytes(b, "empty").Bool() {
		t.Errorf("the empty re-read is not recorded beside the artifact: %v %s", err, b)
	}
}

// TestScopeCheckSite: a prefix or regex crawl still reads its sites'
// sitemaps (which lie outside the prefix), but not another host's; pages
// are checked against the scope itself.
func TestScopeCheckSite(t *testing.T) {
	seeds := []string{"https://www.example.co.uk/docs/"}
	cases := []struct {
		mode, url   string
		page, sitem bool
	}{
		{"host", "https://www.example.co.uk/sitemap.xml", true, true},
		{"host", "https://cdn.example.co.uk/sitemap.xml", false, false},
		{"site", "https://cdn.example.co.uk/sitemap.xml", true, true},
		{"site", "https://example.org/sitemap.xml", false, false},
		{"prefix", "https://www.example.co.uk/sitemap.xml", false, true},
		{"prefix", "https://www.example.co.uk/docs/a", true, true},
		{"prefix", "https://other.test/docs/sitemap.xml", false, false},
		{"regex", "https://www.example.co.uk/sitemap.xml", false, true},
		{"regex", "https://x.test/keep/1", true, true},
		{"regex", "https://x.test/sitemap.xml", false, false},
		{"any", "https://anything.test/sitemap.xml", true, true},
	}
	for _, c := range cases {
		s, err := frontier.NewScope(c.mode, seeds, nil, "/keep/")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Check(c.url) == nil; got != c.page {
			t.Errorf("%s scope: Check(%s) in = %v, want %v", c.mode, c.url, got, c.page)
		}
		if got := s.CheckSite(c.url) == nil; got != c.sitem {
			t.Errorf("%s scope: CheckSite(%s) in = %v, want %v", c.mode, c.url, got, c.sitem)
		}
	}
	s, _ := frontier.NewScope("prefix", seeds, []string{"https://docs.example.org/v2/"}, "")
	if s.CheckSite("https://docs.example.org/sitemap.xml") != nil {
		t.Error("a --prefix's host does not count for its sitemaps")
	}
	if err := s.Check("ftp://docs.example.org/v2/"); err == nil || !strings.Contains(err.Error(), "--scope prefix") {
		t.Errorf("Check of a non-http URL: %v", err)
	}
}
