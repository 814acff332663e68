package frontier_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/schemas"
)

// changeSite is a small site on 127.0.0.1 whose pages the test edits
// between crawls: path → HTML, or an HTTP status for a page that now
// fails.
type changeSite struct {
	mu     sync.Mutex
	pages  map[string]string
	status map[string]int
	srv    *httptest.Server
}

func newChangeSite(t *testing.T) *changeSite {
	s := &changeSite{pages: map[string]string{}, status: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if code := s.status[r.URL.Path]; code != 0 {
			http.Error(w, http.StatusText(code), code)
			return
		}
		html, ok := s.pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(html))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *changeSite) set(path, html string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path], s.status[path] = html, status
}

// changePage is a page of three sections; extra goes at the end of its
// main content (more sections, links).
func changePage(name, price, extra string) string {
	return `<!doctype html><html lang="en"><head><title>` + name + `</title></head><body><main>
<h1>` + name + `</h1>
<p>The ` + name + ` page describes one product of the shop in a few plain sentences.</p>
<h2>Pricing</h2>
<p>The ` + name + ` plan costs ` + price + ` dollars a month and includes support for every seat.</p>
<h2>Support</h2>
<p>Support for ` + name + ` answers within one business day, on weekdays and on holidays.</p>
` + extra + `
</main></body></html>`
}

func links(paths ...string) string {
	var b strings.Builder
	b.WriteString("<h2>More</h2><ul>")
	for _, p := range paths {
		fmt.Fprintf(&b, `<li><a href="%s">The page at %s, one of the products</a></li>`, p, p)
	}
	b.WriteString("</ul>")
	return b.String()
}

// changeCrawl crawls the site into out with a fresh state and returns
// each page's line by path, checking every line against the schema.
func changeCrawl(t *testing.T, s *changeSite, out, state string) (map[string]string, string) {
	t.Helper()
	stdout, stderr, code := runCrawl(t, "--tier", "static", "--allow-private", "--no-evidence", "--no-sitemaps", "--retries", "0",
		"--delay", "0s", "--progress", "none", "--out", out, "--state", filepath.Join(out, state), s.srv.URL+"/")
	if code != 0 {
		t.Fatalf("crawl %s: exit %d\n%s", state, code, stderr)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if err := schemas.ValidateRecord([]byte(l)); err != nil {
			t.Errorf("%v: %s", err, l)
		}
		path := strings.TrimPrefix(gjson.Get(l, "url").String(), s.srv.URL)
		if _, dup := lines[path]; dup {
			t.Errorf("%s: two lines", path)
		}
		lines[path] = l
	}
	return lines, stderr
}

func statuses(lines map[string]string) string {
	var out []string
	for p, l := range lines {
		out = append(out, p+"="+gjson.Get(l, "change.status").String())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// A re-crawl over the first crawl's output reports exactly the edited
// pages as changed, with their sections by id; a page no longer linked is
// gone, one now 404 gone with its artifact kept, one now 403 blocked_now
// with its artifact kept.
func TestRecrawlTracksChanges(t *testing.T) {
	s := newChangeSite(t)
	s.set("/", changePage("Home", "0", links("/a", "/b", "/d", "/e", "/f")), 0)
	for _, p := range []string{"a", "d", "e", "f"} {
		s.set("/"+p, changePage("Product "+p, "10", links("/")), 0)
	}
	s.set("/b", changePage("Product b", "10", links("/", "/c")), 0)
	s.set("/c", changePage("Product c", "10", links("/")), 0)
	out := t.TempDir()

	first, _ := changeCrawl(t, s, out, "one")
	if got, want := statuses(first), "/=new /a=new /b=new /c=new /d=new /e=new /f=new"; got != want {
		t.Fatalf("first crawl: %s, want %s", got, want)
	}
	dirOf := func(p string) string { return gjson.Get(first[p], "dir").String() }
	dMD, _ := os.ReadFile(filepath.Join(dirOf("/d"), "index.md"))

	// The edits: /a's price (one section changed), a section added to /b
	// and its link to /c dropped (/c is not reached any more), /d now 403,
	// /f now 404; / and /e as they were.
	s.set("/a", changePage("Product a", "12", links("/")), 0)
	s.set("/b", changePage("Product b", "10", `<h2>News</h2><p>Product b now ships to every country of the union within a week.</p>`+links("/")), 0)
	s.set("/c", "", http.StatusNotFound)
	s.set("/d", "", http.StatusForbidden)
	s.set("/f", "", http.StatusNotFound)

	second, stderr := changeCrawl(t, s, out, "two")
	if got, want := statuses(second), "/=unchanged /a=changed /b=changed /c=gone /d=blocked_now /e=unchanged /f=gone"; got != want {
		t.Fatalf("re-crawl: %s, want %s\n%s", got, want, stderr)
	}
	if !strings.Contains(stderr, "sieve crawl: changes: 0 new, 2 unchanged, 2 changed, 2 gone, 1 blocked now\n") {
		t.Errorf("no change summary on stderr:\n%s", stderr)
	}
	a := second["/a"]
	pricing := sectionID(t, dirOf("/a"), "Pricing")
	if secs := gjson.Get(a, "change.sections").Array(); len(secs) != 1 || secs[0].Get("change").String() != "changed" ||
		secs[0].Get("new_id").String() != pricing || secs[0].Get("block_changes").Int() != 1 {
		t.Errorf("/a sections, want Pricing %s changed: %s", pricing, a)
	}
	if gjson.Get(a, "change.summary.changed").Int() != 1 || gjson.Get(a, "change.since").String() != gjson.Get(first["/a"], "content_hash").String() {
		t.Errorf("/a change: %s", a)
	}
	checkKept(t, a, first["/a"])
	b := second["/b"]
	if secs := gjson.Get(b, "change.sections").Array(); len(secs) != 1 || secs[0].Get("change").String() != "added" || secs[0].Get("title").String() != "News" {
		t.Errorf("/b sections, want News added: %s", b)
	}
	for _, p := range []string{"/c", "/f"} {
		l := second[p]
		if gjson.Get(l, "outcome").String() != "ok" || gjson.Get(l, "dir").String() != dirOf(p) {
			t.Errorf("%s gone, its artifact not kept: %s", p, l)
		}
	}
	if gjson.Get(second["/f"], "reread.http_status").Int() != 404 || gjson.Get(second["/c"], "reread").Exists() {
		t.Errorf("/f read 404, /c not read: %s\n%s", second["/f"], second["/c"])
	}
	d := second["/d"]
	if gjson.Get(d, "outcome").String() != "ok" || gjson.Get(d, "reread.outcome").String() != "blocked" || gjson.Get(d, "reread.http_status").Int() != 403 {
		t.Errorf("/d now 403: %s", d)
	}
	if now, _ := os.ReadFile(filepath.Join(dirOf("/d"), "index.md")); !bytes.Equal(now, dMD) {
		t.Error("/d's good artifact replaced by the 403")
	}

	// Once more over the same site: the changes are taken in; nothing is
	// new or changed, the failures say so again, and the kept diff stays.
	diffA, _ := os.ReadFile(gjson.Get(a, "change.diff").String())
	third, stderr := changeCrawl(t, s, out, "three")
	if got, want := statuses(third), "/=unchanged /a=unchanged /b=unchanged /c=gone /d=blocked_now /e=unchanged /f=gone"; got != want {
		t.Fatalf("third crawl: %s, want %s\n%s", got, want, stderr)
	}
	if again, _ := os.ReadFile(gjson.Get(a, "change.diff").String()); !bytes.Equal(again, diffA) {
		t.Error("an unchanged re-read rewrote the kept diff")
	}
}

// sectionID is the id of the section titled title in dir's content.json.
func sectionID(t *testing.T, dir, title string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "content.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range gjson.GetBytes(b, "sections").Array() {
		if s.Get("title").String() == title {
			return s.Get("id").String()
		}
	}
	t.Fatalf("%s: no section %q", dir, title)
	return ""
}

// checkKept checks a changed page's kept read: previous/ holds the first
// read's files, diff.json the diff of the two, valid and naming both.
func checkKept(t *testing.T, now, before string) {
	t.Helper()
	prev := gjson.Get(now, "change.previous").String()
	if prev != filepath.Join(gjson.Get(now, "dir").String(), frontier.DirPrevious) {
		t.Errorf("previous %q", prev)
	}
	m, err := os.ReadFile(filepath.Join(prev, "manifest.json"))
	if err != nil || gjson.GetBytes(m, "content_hash").String() != gjson.Get(before, "content_hash").String() {
		t.Errorf("previous/manifest.json is not the first read's: %v %.200s", err, m)
	}
	d, err := os.ReadFile(gjson.Get(now, "change.diff").String())
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("diff", d); err != nil {
		t.Errorf("diff.json: %v", err)
	}
	if gjson.GetBytes(d, "old.content_hash").String() != gjson.Get(before, "content_hash").String() ||
		gjson.GetBytes(d, "new.content_hash").String() != gjson.Get(now, "content_hash").String() {
		t.Errorf("diff.json sides: %.300s", d)
	}
}

// The artifact line's change member and its section entries have exactly
// the members schemas/artifact.schema.json names, all required.
func TestChangeSchemaMatchesGo(t *testing.T) {
	b, err := os.ReadFile("../schemas/artifact.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		typ  any
	}{{"properties.change", frontier.Change{}}, {"$defs.section_change", frontier.SectionChange{}}} {
		s := gjson.GetBytes(b, strings.ReplaceAll(c.path, "$", `\$`))
		var props, req, fields []string
		s.Get("properties").ForEach(func(k, _ gjson.Result) bool { props = append(props, k.String()); return true })
		for _, r := range s.Get("required").Array() {
			req = append(req, r.String())
		}
		rt := reflect.TypeOf(c.typ)
		for i := 0; i < rt.NumField(); i++ {
			if f := rt.Field(i); f.IsExported() {
				fields = append(fields, strings.Split(f.Tag.Get("json"), ",")[0])
			}
		}
		sort.Strings(props)
		sort.Strings(req)
		sort.Strings(fields)
		if f, p, r := strings.Join(fields, ","), strings.Join(props, ","), strings.Join(req, ","); f != p || f != r {
			t.Errorf("%s: Go fields %s, schema properties %s, required %s", c.path, f, p, r)
		}
	}
}

// The generated site (sitemaps, orphans, a rel=canonical, robots.txt's
// /private/) crawled twice without an edit: every page unchanged, none
// gone; the finished round run again writes nothing.
func TestRecrawlUnchangedSiteHasNoGone(t *testing.T) {
	s := newSite(t, 2, 20, 4)
	out := t.TempDir()
	args := func(state string) []string {
		return crawlArgs(s, out, 0, "--progress", "none", "--fail-on", "none", "--state", filepath.Join(out, state))
	}
	first, stderr, code := runCrawl(t, args("one")...)
	if code != 0 {
		t.Fatalf("first crawl: exit %d\n%s", code, stderr)
	}
	n := len(artifacts(t, first))
	second, stderr, code := runCrawl(t, args("two")...)
	if code != 0 {
		t.Fatalf("second crawl: exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(second), "\n")
	if len(lines) != n {
		t.Errorf("second crawl wrote %d lines, the first %d", len(lines), n)
	}
	for _, l := range lines {
		if st := gjson.Get(l, "change.status").String(); st != frontier.ChangeUnchanged {
			t.Errorf("unchanged site, page %s", l)
		}
	}
	if want := fmt.Sprintf("sieve crawl: changes: 0 new, %d unchanged, 0 changed, 0 gone, 0 blocked now\n", n); !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if again, stderr, code := runCrawl(t, args("two")...); code != 0 || again != "" {
		t.Errorf("the finished round again: exit %d, %d bytes out\n%s", code, len(again), stderr)
	}
}
