package frontier_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/frontier/sitetest"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
)

// TestMain runs `sieve crawl` as a real process when the crawl tests
// re-execute the test binary (SIEVE_CRAWL_MAIN=1), so signals reach it.
func TestMain(m *testing.M) {
	if os.Getenv("SIEVE_CRAWL_MAIN") == "1" {
		app := cliutil.App("sieve crawl", frontier.CrawlCommand(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
		os.Exit(cliutil.Main(app, append([]string{"sieve crawl"}, os.Args[1:]...)))
	}
	os.Exit(m.Run())
}

// pagesPerHost sizes the test site: 3 hosts × (pages + orphans + 2); set
// SIEVE_CRAWL_PAGES=1650 for the 5,000-page site.
func pagesPerHost() int {
	if v := os.Getenv("SIEVE_CRAWL_PAGES"); v != "" {
		var n int
		fmt.Sscan(v, &n)
		if n > 0 {
			return n
		}
	}
	return 400
}

func crawlArgs(s *sitetest.Site, out string, delay time.Duration, extra ...string) []string {
	// --fail-on none: these tests read the crawl, not its exit for blocked
	// pages (robots.txt's /private/secret); firsthour_crawl.txtar has that.
	args := []string{"--tier", "static", "--allow-private", "--no-evidence", "--out", out, "--fail-on", "none",
		"--delay", delay.String(), "--per-host", "2", "--concurrency", "8", "--timeout", "60s"}
	args = append(args, extra...)
	for _, h := range s.Hosts {
		args = append(args, "http://"+h+"/")
	}
	return args
}

// runCrawl runs sieve crawl in-process.
func runCrawl(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCrawlTB(t, args...)
}

func runCrawlTB(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	app := cliutil.App("sieve crawl", frontier.CrawlCommand(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	code = cliutil.Main(app, append([]string{"sieve crawl"}, args...))
	return o.String(), e.String(), code
}

// artifacts returns the URLs of the artifact lines of out, sorted, and
// fails on a line that is neither an artifact nor an interrupted error.
func artifacts(t *testing.T, out string) []string {
	t.Helper()
	var urls []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if err := schemas.ValidateRecord([]byte(l)); err != nil {
			t.Errorf("%v: %.200s", err, l)
		}
		switch gjson.Get(l, "record").String() {
		case "artifact":
			if o := gjson.Get(l, "outcome").String(); o != "ok" && !(o == "blocked" && strings.Contains(l, "/private/")) {
				t.Errorf("%s: outcome %s", gjson.Get(l, "url"), o)
			}
			urls = append(urls, gjson.Get(l, "url").String())
		case "error":
			if !strings.HasPrefix(gjson.Get(l, "error").String(), "interrupted") {
				t.Errorf("error record: %s", l)
			}
		default:
			t.Errorf("unexpected line: %.200s", l)
		}
	}
	sort.Strings(urls)
	return urls
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	seen := map[string]int{}
	for _, u := range got {
		seen[u]++
	}
	var dup, missing, extra []string
	for u, n := range seen {
		if n > 1 {
			dup = append(dup, u)
		}
	}
	w := map[string]bool{}
	for _, u := range want {
		w[u] = true
		if seen[u] == 0 {
			missing = append(missing, u)
		}
	}
	for u := range seen {
		if !w[u] {
			extra = append(extra, u)
		}
	}
	if len(dup)+len(missing)+len(extra) > 0 {
		t.Errorf("%s: %d pages, want %d; duplicated %d %.5q, missing %d %.5q, not wanted %d %.5q",
			what, len(got), len(want), len(dup), dup, len(missing), missing, len(extra), extra)
	}
}

// checkServerLog checks the site's access log: robots.txt once per host,
// nothing under /private/, every page fetched at most maxPerPage times, and
// request starts to one host (robots.txt aside, which capture fetches
// outside the host's turn) spaced by the delay.
func checkServerLog(t *testing.T, s *sitetest.Site, delay time.Duration, maxPerPage, runs int) {
	t.Helper()
	byHost := map[string][]time.Time{}
	count := map[string]int{}
	for _, h := range s.Hits() {
		count[h.Host+h.Path]++
		if strings.HasPrefix(h.Path, "/private/") {
			t.Errorf("robots.txt disallows %s, fetched anyway", h.Path)
		}
		if h.Path != "/robots.txt" {
			byHost[h.Host] = append(byHost[h.Host], h.At)
		}
	}
	for _, h := range s.Hosts {
		if n := count[h+"/robots.txt"]; n != runs {
			t.Errorf("%s: robots.txt fetched %d times, want once per run (%d)", h, n, runs)
		}
	}
	for k, n := range count {
		if n > maxPerPage && !strings.HasSuffix(k, "/robots.txt") {
			t.Errorf("%s fetched %d times", k, n)
		}
	}
	for host, ts := range byHost {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		var gaps []time.Duration
		for i := 1; i < len(ts); i++ {
			gaps = append(gaps, ts[i].Sub(ts[i-1]))
		}
		sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
		if len(gaps) == 0 {
			continue
		}
		span := ts[len(ts)-1].Sub(ts[0])
		// Single gaps carry scheduling jitter at the server: the smallest
		// may shrink a little, the median and the whole span may not.
		if med := gaps[len(gaps)/2]; med < delay*9/10 {
			t.Errorf("%s: median gap between requests %v, want >= %v", host, med, delay)
		}
		// Capture reserves each request's start delay after the previous
		// one's; a request whose goroutine wakes late (a loaded machine)
		// arrives closer to the next, so single gaps and short windows
		// carry that jitter. Fifty consecutive requests cannot arrive in
		// less than 49 delays, less the jitter of the two ends, unless the
		// pacing itself is broken (as with one gate per worker process).
		const k = 50
		minWin := time.Duration(1 << 62)
		for i := 0; i+k-1 < len(ts); i++ {
			minWin = min(minWin, ts[i+k-1].Sub(ts[i]))
		}
		if len(ts) >= k && minWin < (k-1)*delay-25*time.Millisecond {
			t.Errorf("%s: %d requests within %v, delay %v", host, k, minWin, delay)
		}
		if want := time.Duration(len(gaps)) * delay * 95 / 100; span < want {
			t.Errorf("%s: %d requests within %v, want them paced over %v", host, len(ts), span, want)
		}
		t.Logf("%s: %d requests over %v, smallest gap %v, median %v, shortest %d in a row %v", host, len(ts), span.Round(time.Millisecond), gaps[0], gaps[len(gaps)/2], k, minWin)
	}
}

func TestCrawlFindsEveryPageOncePolitely(t *testing.T) {
	n := pagesPerHost()
	s := newSite(t, 3, n, n/10)
	out := t.TempDir()
	delay := 10 * time.Millisecond
	stdout, stderr, code := runCrawl(t, crawlArgs(s, out, delay, "--progress", "plain", "--progress-every", "1s")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	sameSet(t, "artifact lines", artifacts(t, stdout), s.Want())
	checkServerLog(t, s, delay, 1, 1)
	for _, want := range []string{fmt.Sprintf("sieve crawl: %d targets: %d ok, 3 blocked\n", len(s.Want()), len(s.Want())-3), " pages read in ", "12 sitemaps and feeds read"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, tail(stderr))
		}
	}
	if !strings.Contains(stderr, "/s, ") {
		t.Errorf("no progress line on stderr:\n%s", tail(stderr))
	}
	// The state: every page done once.
	done, err := os.ReadFile(filepath.Join(out, ".crawl", frontier.FileDone))
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, l := range strings.Split(strings.TrimSpace(string(done)), "\n") {
		_, u, _ := strings.Cut(l, "\t")
		urls = append(urls, u)
	}
	sameSet(t, "done.tsv", urls, s.Want())

	// The same command again reads nothing: the crawl is complete.
	before := len(s.Hits())
	stdout, stderr, code = runCrawl(t, crawlArgs(s, out, delay, "--no-sitemaps")...)
	if code != 0 || stdout != "" {
		t.Errorf("re-run of a finished crawl: exit %d, %d bytes out\n%s", code, len(stdout), stderr)
	}
	if n := len(s.Hits()) - before; n > 3 {
		t.Errorf("re-run of a finished crawl made %d requests", n)
	}
}

func newSite(t *testing.T, hosts, pages, orphans int) *sitetest.Site {
	t.Helper()
	s, err := sitetest.New(hosts, pages, orphans)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// lockedBuffer is a bytes.Buffer a process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

func TestCrawlResumesAfterSIGTERM(t *testing.T) {
	n := pagesPerHost()
	s := newSite(t, 3, n, n/10)
	out := t.TempDir()
	delay := 5 * time.Millisecond
	args := crawlArgs(s, out, delay, "--progress", "none")
	total := len(s.Want())

	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SIEVE_CRAWL_MAIN=1")
	var o1, e1 lockedBuffer
	cmd.Stdout, cmd.Stderr = &o1, &e1
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		time.Sleep(50 * time.Millisecond)
		if strings.Count(o1.String(), "\n") >= total/3 || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != cliutil.ExitInterrupted {
		t.Fatalf("after SIGTERM: %v, want exit %d\n%s", err, cliutil.ExitInterrupted, tail(e1.String()))
	}
	first := artifacts(t, o1.String())
	if len(first) == 0 || len(first) >= total {
		t.Fatalf("SIGTERM came after %d of %d pages: the test did not interrupt a crawl", len(first), total)
	}

	stdout, stderr, code := runCrawl(t, args...)
	if code != 0 {
		t.Fatalf("resumed crawl: exit %d\n%s", code, tail(stderr))
	}
	if !strings.Contains(stderr, "sieve crawl: resuming ") {
		t.Errorf("the second run did not say it resumed:\n%s", tail(stderr))
	}
	second := artifacts(t, stdout)
	sameSet(t, "artifact lines of both runs", append(first, second...), s.Want())
	// Pages in flight at the signal may be fetched once more; no other.
	checkServerLog(t, s, delay, 2, 2)
	t.Logf("first run wrote %d pages, the resumed run %d", len(first), len(second))
}

func TestRecrawlKeepsGoodArtifact(t *testing.T) {
	s := newSite(t, 1, 3, 0)
	out := t.TempDir()
	args := func(state string) []string {
		return crawlArgs(s, out, 0, "--quiet", "--retries", "0", "--state", filepath.Join(out, state))
	}
	if _, stderr, code := runCrawl(t, args("one")...); code != 0 || stderr != "" {
		t.Fatalf("first crawl, --quiet: exit %d, stderr:\n%s", code, stderr)
	}
	home := filepath.Join(out, strings.ReplaceAll(s.Hosts[0], ":", "_"))
	entries, _ := filepath.Glob(filepath.Join(home, "*", "index.md"))
	if len(entries) != 6 {
		t.Fatalf("first crawl wrote %d index.md, want 6: %v", len(entries), entries)
	}
	mds := map[string][]byte{}
	for _, e := range entries {
		mds[e], _ = os.ReadFile(e)
	}

	// Unchanged: a fresh state reads every page again with its ETag, the
	// server answers 304, nothing is rewritten, and the links of the pages
	// (from their content.json) are still followed.
	before := len(s.Hits())
	stdout, stderr, code := runCrawl(t, args("two")...)
	if code != 0 {
		t.Fatalf("second crawl: exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 6 {
		t.Errorf("second crawl wrote %d lines, want 6", len(lines))
	}
	for _, l := range lines {
		if !gjson.Get(l, "unchanged").Bool() {
			t.Errorf("re-read of an unchanged page: %s", l)
		}
	}
	notModified := 0
	for _, h := range s.Hits()[before:] {
		if h.NotModified {
			notModified++
		}
	}
	if notModified != 5 { // every page but /private/secret, which is never fetched
		t.Errorf("%d conditional requests answered 304, want 5", notModified)
	}

	// The server fails: the good artifacts stay, the failure is beside them.
	s.SetFail(true)
	stdout, stderr, code = runCrawl(t, args("three")...)
	if code != 0 {
		t.Fatalf("third crawl: exit %d\n%s", code, stderr)
	}
	l := strings.Split(strings.TrimSpace(stdout), "\n")[0]
	if gjson.Get(l, "outcome").String() != "ok" || !gjson.Get(l, "reread.kept").Bool() || gjson.Get(l, "reread.outcome").String() != "blocked" {
		t.Errorf("failed re-read record: %s", l)
	}
	if _, err := os.Stat(gjson.Get(l, "reread.file").String()); err != nil {
		t.Errorf("failure not recorded beside the artifact: %v", err)
	}
	for e, b := range mds {
		if now, _ := os.ReadFile(e); !bytes.Equal(now, b) {
			t.Errorf("%s replaced by a failed re-read", e)
		}
	}
}
