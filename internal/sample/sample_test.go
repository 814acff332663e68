package sample

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// rawClient follows no redirect and does not decode gzip, so tests see
// exactly what the site sent.
func rawClient() *http.Client {
	return &http.Client{
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       10 * time.Second,
	}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func get(t *testing.T, base, path string) response {
	t.Helper()
	resp, err := rawClient().Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return response{resp.StatusCode, resp.Header, body}
}

func newSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(Handler())
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestPagesAnswerWithTheirStatus(t *testing.T) {
	want := map[string]int{
		"/": 200, "/article.html": 200, "/docs.html": 200, "/hidden.html": 200, "/gzip.html": 200,
		"/latin1.html": 200, "/forbidden": 403, "/account": 302, "/members": 401, "/challenge": 503,
		"/app": 200, "/empty.html": 200, "/private/report.html": 200, "/text.txt": 200,
	}
	base := newSite(t)
	for _, p := range Pages() {
		status, ok := want[p]
		if !ok {
			t.Errorf("page %s has no expected status in this test", p)
			continue
		}
		if got := get(t, base, p).status; got != status {
			t.Errorf("GET %s: status %d, want %d", p, got, status)
		}
	}
}

func TestOtherRoutes(t *testing.T) {
	base := newSite(t)
	cases := []struct {
		path, header, value string
		status              int
	}{
		{"/login", "Content-Type", "text/html; charset=utf-8", 200},
		{"/account", "Location", "/login?next=/account", 302},
		{"/members", "Www-Authenticate", `Basic realm="members"`, 401},
		{"/challenge", "Cf-Mitigated", "challenge", 503},
		{"/forbidden", "Content-Type", "text/html; charset=utf-8", 403},
		{"/loop", "Location", "/loop2", 302},
		{"/loop2", "Location", "/loop", 302},
		{"/image.png", "Content-Type", "image/png", 200},
		{"/static/app.js", "Content-Type", "text/javascript; charset=utf-8", 200},
		{"/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=1", "Content-Length", "0", 200},
		{"/no/such/page", "Content-Type", "text/html; charset=utf-8", 404},
	}
	for _, c := range cases {
		r := get(t, base, c.path)
		if r.status != c.status || r.header.Get(c.header) != c.value {
			t.Errorf("GET %s: %d %s=%q, want %d %q", c.path, r.status, c.header, r.header.Get(c.header), c.status, c.value)
		}
	}
}

func TestIndexLinksResolve(t *testing.T) {
	base := newSite(t)
	index := get(t, base, "/").body
	links := regexp.MustCompile(`href="(/[^"]*)"`).FindAllSubmatch(index, -1)
	if len(links) < 15 {
		t.Fatalf("index links to %d paths", len(links))
	}
	for _, m := range links {
		p := string(m[1])
		if p == "/slow" || p == "/ratelimited" {
			continue // covered by their own tests; each costs time or state
		}
		if r := get(t, base, p); r.status == http.StatusNotFound {
			t.Errorf("index links to %s, which is not found", p)
		}
	}
}

func TestPageShapes(t *testing.T) {
	base := newSite(t)
	cases := map[string][]string{
		"/article.html": {`<main id="main-content"`, "<article", `<div class="cookie-banner" id="cookie-consent"`, ">Accept</button>", ">Reject</button>",
			"<aside", "<footer", "©", `"@type": "NewsArticle"`, `"@type": "FAQPage"`, "<figcaption>", "<blockquote", `alt="Rows of tea bushes`},
		"/docs.html":  {`<table`, "<thead>", `<th scope="col">`, `colspan="3"`, `<pre><code class="language-go">`, "<ol", `<details class="faq-panel">`, "<summary>"},
		"/login":      {"<title>Sign in</title>", `type="email"`, `type="password"`, `type="submit"`, "Sign in to continue reading"},
		"/challenge":  {"<title>Just a moment...</title>", "Checking your browser before accessing", `src="/cdn-cgi/challenge-platform/`},
		"/app":        {`<div id="root"></div>`, "<noscript>You need to enable JavaScript to run this app.</noscript>", `src="/static/runtime.js"`, `src="/static/app.js"`},
		"/forbidden":  {"Access denied by policy WEB-31"},
		"/empty.html": {"<body></body>"},
	}
	for p, wants := range cases {
		body := string(get(t, base, p).body)
		for _, w := range wants {
			if !strings.Contains(body, w) {
				t.Errorf("%s lacks %q", p, w)
			}
		}
	}
	docs := string(get(t, base, "/docs.html").body)
	for _, h := range []string{">Configuration</h3>", ">Examples</h3>"} {
		if n := strings.Count(docs, h); n != 2 {
			t.Errorf("docs has %d headings %q, want 2", n, h)
		}
	}
	if strings.Contains(docs, "<details open") {
		t.Error("docs' <details> is open")
	}
	if bytes.Contains(get(t, base, "/empty.html").body, []byte("<script")) {
		t.Error("empty.html has a script")
	}
}

func TestHiddenMarkers(t *testing.T) {
	base := newSite(t)
	src := string(get(t, base, "/hidden.html").body)
	if len(HiddenMarkers) < 10 {
		t.Fatalf("only %d markers", len(HiddenMarkers))
	}
	for _, m := range HiddenMarkers {
		if n := strings.Count(src, m); n != 1 {
			t.Errorf("marker %s appears %d times in /hidden.html, want 1", m, n)
		}
	}
	for _, p := range Pages() {
		if p == "/hidden.html" {
			continue
		}
		body := string(get(t, base, p).body)
		for _, m := range HiddenMarkers {
			if strings.Contains(body, m) {
				t.Errorf("marker %s appears in %s", m, p)
			}
		}
	}
	for _, w := range []string{"Ignore previous instructions", ".promo-note { display: none }", `class="promo-note"`, "<p hidden>", `class="sr-only"`} {
		if !strings.Contains(src, w) {
			t.Errorf("/hidden.html lacks %q", w)
		}
	}
}

func TestLatin1IsWindows1252(t *testing.T) {
	r := get(t, newSite(t), "/latin1.html")
	if ct := r.header.Get("Content-Type"); ct != "text/html; charset=windows-1252" {
		t.Errorf("Content-Type %q", ct)
	}
	if utf8.Valid(r.body) {
		t.Error("body is valid UTF-8; want windows-1252 bytes")
	}
	for _, b := range [][]byte{[]byte("Caf\xe9"), []byte("na\xefve"), []byte("4 \x80")} {
		if !bytes.Contains(r.body, b) {
			t.Errorf("body lacks windows-1252 bytes %q", b)
		}
	}
	text, err := charmap.Windows1252.NewDecoder().Bytes(r.body)
	if err != nil || !strings.Contains(string(text), "a pot of second flush costs 4 €") {
		t.Errorf("decoded body lacks the euro price (err %v)", err)
	}
}

func TestRateLimitedSequence(t *testing.T) {
	base := newSite(t)
	first := get(t, base, "/ratelimited")
	if first.status != http.StatusTooManyRequests || first.header.Get("Retry-After") != "1" {
		t.Fatalf("first: %d Retry-After %q", first.status, first.header.Get("Retry-After"))
	}
	for i := 0; i < 2; i++ {
		if r := get(t, base, "/ratelimited"); r.status != http.StatusOK {
			t.Errorf("request %d: %d, want 200", i+2, r.status)
		}
	}
	if r := get(t, newSite(t), "/ratelimited"); r.status != http.StatusTooManyRequests {
		t.Errorf("a fresh Handler answered %d first, want 429", r.status)
	}
}

func TestRobotsTxt(t *testing.T) {
	r := get(t, newSite(t), "/robots.txt")
	if string(r.body) != "User-agent: *\nDisallow: /private/\n" || r.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("robots.txt: %q (%s)", r.body, r.header.Get("Content-Type"))
	}
}

func TestGzipDecodes(t *testing.T) {
	r := get(t, newSite(t), "/gzip.html")
	if r.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", r.header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte("<h1>Brewing notes for the second flush</h1>")) {
		t.Errorf("decoded page: %.200s", page)
	}
}

func TestBigPage(t *testing.T) {
	r := get(t, newSite(t), "/big.html")
	if len(r.body) < 3<<20 {
		t.Fatalf("/big.html is %d bytes, want more than 3 MiB", len(r.body))
	}
	if !bytes.Equal(r.body, bigPage()) || !bytes.HasSuffix(r.body, []byte("</html>\n")) {
		t.Error("/big.html is not the deterministic page")
	}
}

func TestImageIsPNG(t *testing.T) {
	r := get(t, newSite(t), "/image.png")
	if _, err := png.Decode(bytes.NewReader(r.body)); err != nil {
		t.Fatal(err)
	}
}

func TestSlowHonoursTheRequestContext(t *testing.T) {
	base := newSite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/slow", nil)
	start := time.Now()
	_, err := http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v, want a deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestServe(t *testing.T) {
	url, shutdown, err := Serve("")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || strings.HasSuffix(url, "/") {
		t.Errorf("url %q", url)
	}
	if r := get(t, url, "/article.html"); r.status != 200 {
		t.Errorf("article: %d", r.status)
	}
	// A request waiting in /slow must not hold up shutdown.
	done := make(chan error, 1)
	go func() {
		resp, err := rawClient().Get(url + "/slow")
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	shutdown()
	shutdown() // idempotent
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("/slow still pending after shutdown")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown took %v", d)
	}
	if _, err := rawClient().Get(url + "/"); err == nil {
		t.Error("the site still answers after shutdown")
	}
}

func TestCheckAddr(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:0": true, "127.0.0.1:8080": true, "[::1]:0": true, "localhost:9000": true,
		":8080": false, "0.0.0.0:8080": false, "192.168.1.5:80": false, "[::]:0": false, "example.org:80": false, "127.0.0.1": false,
	} {
		if err := CheckAddr(addr); (err == nil) != ok {
			t.Errorf("CheckAddr(%q) = %v", addr, err)
		}
	}
	if _, _, err := Serve("0.0.0.0:0"); err == nil {
		t.Error("Serve listened on all interfaces")
	}
}
