package capture

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/jsonl"
)

func robotsServer(t *testing.T, robots string, robotsHits, pageHits *atomic.Int32) string {
	t.Helper()
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsHits.Add(1)
			fmt.Fprint(w, robots)
			return
		}
		pageHits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>page</p>")
	}))
	return srv.URL
}

func TestRobotsDisallow(t *testing.T) {
	var robotsHits, pageHits atomic.Int32
	base := robotsServer(t, "User-agent: *\nDisallow: /nothing\n\nUser-agent: sieve\nDisallow: /private\n", &robotsHits, &pageHits)
	c := newCapturer(t, testOptions())
	var wg sync.WaitGroup
	recs := make([]Record, 4)
	for i := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			recs[i] = captureURL(t, c, base+"/private/page")
		}()
	}
	wg.Wait()
	for _, rec := range recs {
		wantError(t, rec, ErrRobots)
		if rec.Status != 0 || rec.Robots == nil || rec.Robots.Allowed || rec.Robots.Status != 200 || rec.Robots.URL != base+"/robots.txt" {
			t.Errorf("status %d robots %+v", rec.Status, rec.Robots)
		}
		if !strings.Contains(rec.Error.Message, "robots.txt") || rec.Timing.Attempts != 0 {
			t.Errorf("error %q attempts %d", rec.Error.Message, rec.Timing.Attempts)
		}
	}
	if pageHits.Load() != 0 {
		t.Errorf("the disallowed page was fetched %d times", pageHits.Load())
	}
	rec := captureURL(t, c, base+"/public")
	wantOK(t, rec)
	if rec.Robots == nil || !rec.Robots.Allowed || rec.Robots.Ignored {
		t.Errorf("robots = %+v", rec.Robots)
	}
	if robotsHits.Load() != 1 {
		t.Errorf("robots.txt fetched %d times, want once per process", robotsHits.Load())
	}
}

func TestIgnoreRobots(t *testing.T) {
	var robotsHits, pageHits atomic.Int32
	base := robotsServer(t, "User-agent: *\nDisallow: /\n", &robotsHits, &pageHits)
	o := testOptions()
	o.IgnoreRobots = true
	rec := captureURL(t, newCapturer(t, o), base+"/page")
	wantOK(t, rec)
	if rec.Robots == nil || !rec.Robots.Ignored || robotsHits.Load() != 0 || pageHits.Load() != 1 || rec.Trace.Robots {
		t.Errorf("robots %+v, robots.txt hits %d, page hits %d, trace.robots %v", rec.Robots, robotsHits.Load(), pageHits.Load(), rec.Trace.Robots)
	}
}

func TestRobotsServerErrorDisallows(t *testing.T) {
	var pageHits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		pageHits.Add(1)
	}))
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/page")
	wantError(t, rec, ErrRobots)
	if rec.Robots.Status != 500 || pageHits.Load() != 0 {
		t.Errorf("robots %+v page hits %d", rec.Robots, pageHits.Load())
	}
}

func TestCrawlDelayPacesHost(t *testing.T) {
	var g gauge
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: sieve\nCrawl-delay: 0.3\n")
			return
		}
		g.enter()
		g.leave()
	}))
	c := newCapturer(t, testOptions())
	for i := 0; i < 3; i++ {
		wantOK(t, captureURL(t, c, fmt.Sprintf("%s/p%d", srv.URL, i)))
	}
	wantSpan(t, &g, 3, 600*time.Millisecond)
}

func TestRetryAfterThenOK(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if hits.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, "<p>finally</p>")
	}))
	start := time.Now()
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/")
	wantOK(t, rec)
	if rec.Status != 200 || rec.Timing.Attempts != 2 || hits.Load() != 2 {
		t.Errorf("status %d attempts %d hits %d", rec.Status, rec.Timing.Attempts, hits.Load())
	}
	if d := time.Since(start); d < 950*time.Millisecond {
		t.Errorf("retried after %v, before Retry-After: 1", d)
	}
}

func TestRateLimitedForever(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", r.URL.Query().Get("after"))
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, "slow down")
	}))
	o := testOptions()
	o.IgnoreRobots = true
	c := newCapturer(t, o)

	rec := captureURL(t, c, srv.URL+"/?after=0")
	wantError(t, rec, ErrRateLimited)
	if rec.Status != 429 || rec.Timing.Attempts != 3 || hits.Load() != 3 || rec.Body != "slow down" {
		t.Errorf("status %d attempts %d hits %d body %q", rec.Status, rec.Timing.Attempts, hits.Load(), rec.Body)
	}
	if !strings.Contains(rec.Error.Message, "Retry-After") || rec.Headers["retry-after"] != "0" {
		t.Errorf("message %q headers %v", rec.Error.Message, rec.Headers)
	}

	hits.Store(0)
	rec = captureURL(t, c, srv.URL+"/?after=3600")
	wantError(t, rec, ErrRateLimited)
	if rec.Timing.Attempts != 1 || hits.Load() != 1 || !strings.Contains(rec.Error.Message, "max-retry-wait") {
		t.Errorf("a Retry-After beyond --max-retry-wait was waited for: attempts %d, %q", rec.Timing.Attempts, rec.Error.Message)
	}
}

func TestRateLimitedWithoutRetryAfterBacksOff(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	o := testOptions()
	o.IgnoreRobots = true
	o.MaxRetryWait = 50 * time.Millisecond
	rec := captureURL(t, newCapturer(t, o), srv.URL+"/")
	wantError(t, rec, ErrRateLimited)
	if rec.Timing.Attempts != 3 || hits.Load() != 3 || !strings.Contains(rec.Error.Message, "no Retry-After") {
		t.Errorf("attempts %d hits %d message %q", rec.Timing.Attempts, hits.Load(), rec.Error.Message)
	}
}

func TestServiceUnavailable(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		if r.URL.Path == "/plain" {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if n == 1 {
			w.Header().Set("Retry-After", time.Now().UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	o := testOptions()
	o.IgnoreRobots = true
	c := newCapturer(t, o)
	rec := captureURL(t, c, srv.URL+"/dated")
	wantOK(t, rec)
	if rec.Status != 200 || rec.Timing.Attempts != 2 {
		t.Errorf("503 with an HTTP-date Retry-After: status %d attempts %d", rec.Status, rec.Timing.Attempts)
	}
	rec = captureURL(t, c, srv.URL+"/plain")
	wantOK(t, rec) // a 503 is an answer, not a fetch failure
	if rec.Status != 503 || rec.Timing.Attempts != 1 {
		t.Errorf("503 without Retry-After: status %d attempts %d", rec.Status, rec.Timing.Attempts)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"7", 7 * time.Second, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
	}
	for _, c := range cases {
		got, ok := retryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestPerHostLimit(t *testing.T) {
	var g gauge
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.enter()
		defer g.leave()
		time.Sleep(150 * time.Millisecond)
	}))
	o := testOptions()
	o.IgnoreRobots = true
	o.Concurrency = 8
	o.PerHost = 2
	c := newCapturer(t, o)
	var in bytes.Buffer
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&in, "%s/p%d\n", srv.URL, i)
	}
	var out bytes.Buffer
	if _, err := jsonl.Run(context.Background(), &in, &out, nil, c.Stage()); err != nil {
		t.Fatal(err)
	}
	if most, starts := g.snapshot(); most != 2 || len(starts) != 8 {
		t.Errorf("%d handlers ran at once (want 2, the per-host limit), %d requests", most, len(starts))
	}
}

func TestDelayBetweenRequestStarts(t *testing.T) {
	var g gauge
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.enter(); g.leave() }))
	o := testOptions()
	o.IgnoreRobots = true
	o.PerHost = 3
	o.Delay = 150 * time.Millisecond
	c := newCapturer(t, o)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); wantOK(t, captureURL(t, c, fmt.Sprintf("%s/p%d", srv.URL, i))) }()
	}
	wg.Wait()
	wantSpan(t, &g, 3, 300*time.Millisecond)
}

func TestLoopbackRefusedByDefault(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	o := testOptions()
	o.AllowPrivate = false
	rec := captureURL(t, newCapturer(t, o), srv.URL+"/")
	wantError(t, rec, ErrPrivate)
	if hits.Load() != 0 || rec.Trace.AllowPrivate {
		t.Errorf("%d requests reached the loopback server", hits.Load())
	}
}

func TestRedirectToDeniedAddress(t *testing.T) {
	var deniedHits atomic.Int32
	inner := serveOn(t, "127.0.0.2:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { deniedHits.Add(1) }))
	outer := serve(t, http.RedirectHandler(inner.URL+"/secret", http.StatusFound))
	o := testOptions()
	o.AllowPrivate = false
	c := newCapturer(t, o)
	// Allow the first hop's address, deny the redirect target's: the check
	// must run on the address each hop resolves to.
	allowed := netip.MustParseAddr("127.0.0.1")
	c.deny = func(a netip.AddrPort) bool { return a.Addr() != allowed }
	rec := captureURL(t, c, outer.URL+"/start")
	wantError(t, rec, ErrPrivate)
	if len(rec.Redirects) != 1 || rec.Redirects[0].URL != outer.URL+"/start" || rec.FinalURL != inner.URL+"/secret" {
		t.Errorf("redirects %v final %q", rec.Redirects, rec.FinalURL)
	}
	if deniedHits.Load() != 0 {
		t.Errorf("the denied address was reached %d times", deniedHits.Load())
	}
}

func TestDeniedAddr(t *testing.T) {
	denied := []string{"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
		"100.64.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "ff02::1",
		"::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:c0a8:101::1"}
	allowed := []string{"93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "64:ff9b::5db8:d822"}
	for _, s := range denied {
		if !deniedAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s allowed, want denied", s)
		}
	}
	for _, s := range allowed {
		if deniedAddr(netip.MustParseAddr(s)) {
			t.Errorf("%s denied, want allowed", s)
		}
	}
}

// wantSpan checks that n requests arrived and that the first and last
// arrived at least span apart. The server sees each start with some
// scheduling jitter, so single gaps are not compared.
func wantSpan(t *testing.T, g *gauge, n int, span time.Duration) {
	t.Helper()
	_, starts := g.snapshot()
	if len(starts) != n {
		t.Fatalf("%d requests, want %d", len(starts), n)
	}
	if got := starts[n-1].Sub(starts[0]); got < span-60*time.Millisecond {
		t.Errorf("%d requests arrived within %v, want them paced over %v", n, got, span)
	}
}
