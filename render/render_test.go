package render

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

func TestDirHostile(t *testing.T) {
	long := "http://h/" + strings.Repeat("segment/", 200)
	for _, u := range []string{
		"http://h/../../etc/passwd",
		"http://h/%2e%2e/%2e%2e/etc/passwd",
		"http://h/%2e%2e%2f%2e%2e%2fetc",
		"http://h/a/./b/../c",
		"http://h/..",
		"http://h/.hidden",
		"http://../x",
		"http://../",
		"http://.../",
		"http://%2e%2e/",
		"http:///no/host",
		"mailto:someone@example.com",
		"about:blank",
		"file:///etc/passwd",
		"file:///",
		"http://h/\x00nul",
		"http://h/a%00b",
		"http://例え.テスト/ページ?q=日本",
		"http://[::1]:8080/",
		"http://user:pass@h/",
		"http://h/?q=../../x",
		"https://EXAMPLE.com:8443/A/B.html",
		"http://h/" + strings.Repeat("x", 5000),
		long,
		"::not a url",
		"%zz",
		"/",
		".",
		"..",
	} {
		rel, err := Dir(u)
		if err != nil {
			t.Errorf("Dir(%q): %v", u, err)
			continue
		}
		if !filepath.IsLocal(rel) || strings.ContainsRune(rel, 0) {
			t.Errorf("Dir(%q) = %q: not local", u, rel)
		}
		parts := strings.Split(rel, "/")
		if len(parts) != 2 {
			t.Errorf("Dir(%q) = %q: want host/name", u, rel)
			continue
		}
		for _, p := range parts {
			if p == "" || p == "." || p == ".." || strings.HasPrefix(p, ".") || len(p) > 255 {
				t.Errorf("Dir(%q) = %q: bad part %q", u, rel, p)
			}
		}
	}
}

func TestDirNames(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"https://example.com/", "example.com/index"},
		{"https://example.com", "example.com/index"},
		{"https://EXAMPLE.com:8443/", "example.com_8443/index"},
		{"http://127.0.0.1:8080/docs/config.html?v=2", "127.0.0.1_8080/docs-config.html-v_2-" + hash8("http://127.0.0.1:8080/docs/config.html?v=2")},
		{"file:///srv/site/offers.html", "local/srv-site-offers.html-" + hash8("file:///srv/site/offers.html")},
		{"http://h/../../etc/passwd", "h/etc-passwd-" + hash8("http://h/../../etc/passwd")},
		{"http://../x", "_-" + hash8("..") + "/x-" + hash8("http://../x")},
		{"http:///p", "_nohost/p-" + hash8("http:///p")},
	} {
		got, err := Dir(c.url)
		if err != nil || got != c.want {
			t.Errorf("Dir(%q) = %q, %v; want %q", c.url, got, err, c.want)
		}
	}
	if _, err := Dir(""); err == nil {
		t.Error("Dir(\"\") gave no error")
	}
}

func TestDirCollisionFree(t *testing.T) {
	urls := []string{
		"http://h/a/b", "http://h/a-b", "http://h/a_b", "http://h/a?b", "http://h/a%2Fb",
		"http://h/a/b/", "http://h:80/a", "http://h_80/a", "http://h:80/", "http://h_80/",
		"http://h/" + strings.Repeat("x", 100) + "1", "http://h/" + strings.Repeat("x", 100) + "2",
		"http://h/é", "http://h/ü", "file:///", "http://local/",
	}
	seen := map[string]string{}
	for _, u := range urls {
		d, err := Dir(u)
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := seen[d]; ok {
			t.Errorf("%q and %q share %q", prev, u, d)
		}
		seen[d] = u
	}
	long, _ := Dir("http://h/" + strings.Repeat("x", 5000))
	if name := filepath.Base(long); len(name) > maxName+9 {
		t.Errorf("long path gave a %d-byte name", len(name))
	}
}

func sampleRecord(t *testing.T) *graph.Record {
	return loadRecord(t, "testdata/hidden.graph.json")
}

func TestAtomicReplace(t *testing.T) {
	out := t.TempDir()
	rec := sampleRecord(t)
	a, err := Write(Options{Out: out}, rec)
	if err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(a.Dir, "stale.txt")
	if err := os.WriteFile(stale, []byte("from an older sieve"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec.Title = "Second render"
	if _, err := Write(Options{Out: out}, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("old artifact's file survived the replace: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(a.Dir, FileMarkdown))
	if err != nil || !bytes.Contains(md, []byte("# Second render")) {
		t.Errorf("index.md not replaced: %v", err)
	}
	assertNoLeftovers(t, filepath.Dir(a.Dir))
	entries, _ := os.ReadDir(a.Dir)
	if len(entries) != 5 { // the four files and evidence/
		t.Errorf("artifact holds %d entries, want 5", len(entries))
	}
}

func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("leftover %s in %s", e.Name(), dir)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	rec := sampleRecord(t)
	if _, err := Write(Options{}, rec); err == nil {
		t.Error("no error without an output directory")
	}
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(Options{Out: blocker}, rec); err == nil {
		t.Error("no error when the output directory is a file")
	}
	noURL := *rec
	noURL.URL = ""
	if _, err := Write(Options{Out: t.TempDir()}, &noURL); err == nil {
		t.Error("no error for a record without url")
	}
}

func TestConcurrentWritesOfOneURL(t *testing.T) {
	out := t.TempDir()
	rec := sampleRecord(t)
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := Write(Options{Out: out}, rec)
			errs <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	rel, _ := Dir(rec.URL)
	assertNoLeftovers(t, filepath.Dir(filepath.Join(out, rel)))
}

func TestLatentAndChromeNeverRendered(t *testing.T) {
	rec := sampleRecord(t)
	a, err := Write(Options{Out: t.TempDir()}, rec)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(a.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	canaries := []string{"LATENT-CANARY-4f9a", "LATENT-CANARY-b81e", "attacker@example.com"}
	content := read(FileContent)
	for _, c := range canaries {
		if !strings.Contains(content, c) {
			t.Errorf("content.json lacks latent text %q", c)
		}
		for _, f := range []string{FileMarkdown, FileHTML, FileManifest} {
			if strings.Contains(read(f), c) {
				t.Errorf("%s leaks latent text %q", f, c)
			}
		}
	}
	md := read(FileMarkdown)
	body, _, ok := strings.Cut(md, "<!-- end of page content -->")
	if !ok {
		t.Fatal("index.md has no end-of-content marker")
	}
	for _, chrome := range []string{"CHROME-CANARY-7731", "We use cookies"} {
		if strings.Contains(md, chrome) || strings.Contains(read(FileHTML), chrome) {
			t.Errorf("chrome block text %q rendered", chrome)
		}
	}
	if strings.Contains(body, "Help") || strings.Contains(body, "onmouseover") {
		t.Error("chrome link text appears in the content part of index.md")
	}
}

func TestManifestNeverCarriesBody(t *testing.T) {
	rec := sampleRecord(t)
	rec.Byline, rec.Published = "A. Writer", "2024-05-01" // every manifest key present
	m, c, err := jsonFiles(rec)
	if err != nil {
		t.Fatal(err)
	}
	fields := reflect.TypeFor[graph.Record]().NumField() - 1 // all but "record"
	if rec.PDF == nil {
		fields-- // omitted for web pages
	}
	if rec.Security == nil {
		fields-- // omitted when the served markup was not inventoried
	}
	var keys []string
	for _, f := range topFields(m) {
		keys = append(keys, f.key)
	}
	want := ManifestOrder()
	if strings.Join(keys, ",") != strings.Join(want, ",") {
		t.Errorf("manifest keys %v, want %v", keys, want)
	}
	if keys[0] != "outcome" {
		t.Errorf("manifest starts with %q, want outcome", keys[0])
	}
	if cf := topFields(c); cf[0].key != "schema_version" || len(cf) != fields {
		t.Errorf("content.json fields: %d, first %q", len(cf), cf[0].key)
	}
	if !bytes.HasSuffix(m, []byte("}\n")) || !bytes.HasPrefix(m, []byte("{\n  \"outcome\"")) {
		t.Errorf("manifest.json not 2-space indented with a trailing newline:\n%.60s", m)
	}
}

// TestMarkdownEscaping checks the hidden-text fixture's index.md as a
// whole; escapeMarkdown itself is tested in escape_test.go.
func TestMarkdownEscaping(t *testing.T) {
	rec := sampleRecord(t)
	md := string(Markdown(rec))
	body := md[strings.Index(md, "\n---\n\n")+5:]
	breaks := 0
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "<!-- section: ") && line != "<!-- section: s_c0ffee1234 -->" {
			t.Errorf("forged section marker: %q", line)
		}
		if line == "---" {
			breaks++
		}
	}
	if breaks != 1 || !strings.Contains(body, "\n---\n\n<!-- end of page content -->") {
		t.Errorf("want sieve's one thematic break before the appendix, got %d", breaks)
	}
	if strings.Count(md, "\n# ") != 1 {
		t.Errorf("want exactly one top-level heading, got %d", strings.Count(md, "\n# "))
	}
}

func TestMarkdownCarriageReturns(t *testing.T) {
	rec := sampleRecord(t)
	rec.Outcome = graph.Outcome{Status: "blocked", Evidence: []string{"x\r# ev"}, HTTPStatus: 403, BodyExcerpt: "ok\r# forged excerpt\r\n## again"}
	rec.Blocks = []graph.Block{
		{ID: "b_000", Type: "paragraph", Text: "a\r# forged paragraph", SectionID: "s_a", Role: "content"},
		{ID: "b_001", Type: "quote", Text: "q\r# forged quote", SectionID: "s_a", Role: "content"},
		{ID: "b_002", Type: "list_item", Level: 1, Text: "li\r# forged item", SectionID: "s_a", Role: "content"},
	}
	md := string(Markdown(rec))
	fence, forged := false, 0
	for _, l := range splitLines(md) {
		l = strings.TrimLeft(l, "> ")
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if strings.Contains(l, "forged") {
			forged++
			if !fence && strings.HasPrefix(l, "#") {
				t.Errorf("page text started a heading line: %q", l)
			}
		}
	}
	if forged != 4 {
		t.Errorf("saw %d lines of forged text, want 4", forged)
	}
}

func TestMarkdownLists(t *testing.T) {
	items := []graph.Block{
		{Type: "list_item", Level: 1, Ordered: true, Text: "one"},
		{Type: "list_item", Level: 1, Ordered: true, Text: "two"},
		{Type: "list_item", Level: 2, Text: "two-a"},
		{Type: "list_item", Level: 3, Ordered: true, Text: "two-a-i"},
		{Type: "list_item", Level: 1, Ordered: true, Text: "three"},
		{Type: "list_item", Level: 1, Text: "bullet"},
		{Type: "list_item", Level: 1, Ordered: true, Text: "new run"},
	}
	var l mdList
	var got []string
	for _, b := range items {
		got = append(got, l.marker(b)+b.Text)
	}
	want := []string{"1. one", "2. two", "   - two-a", "     1. two-a-i", "3. three", "- bullet", "1. new run"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMarkdownTable(t *testing.T) {
	rows := [][]graph.Cell{
		{{Text: "a"}, {Text: "b|c"}, {Text: "d\ne"}},
		{{Text: "wide", Colspan: 2}, {Text: "tall", Rowspan: 2}},
		{{Text: "x"}, {Text: "y"}},
	}
	want := "| | | |\n| --- | --- | --- |\n| a | b\\|c | d e |\n| wide | | tall |\n| x | y | |"
	if got := mdTable(rows); got != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	huge := [][]graph.Cell{{{Text: "x", Colspan: 1 << 30, Rowspan: 1 << 30}}}
	if g := grid(huge); len(g[0]) != maxSpan || len(g) != 1 {
		t.Errorf("spans not capped: %d columns, %d rows", len(g[0]), len(g))
	}
}

func TestFenceOutrunsBackticks(t *testing.T) {
	got := fenced("a ```` b", "go")
	if !strings.HasPrefix(got, "`````go\n") || !strings.HasSuffix(got, "\n`````") {
		t.Errorf("fence: %q", got)
	}
}

func TestHTMLEscaping(t *testing.T) {
	rec := sampleRecord(t)
	rec.Blocks = append(rec.Blocks, graph.Block{ID: "b_099", Type: "code", Language: `x" onload="y`, Text: "</code></pre><script>z()</script>", SectionID: "s_c0ffee1234", Role: "content"})
	h := HTML(rec)
	doc, err := html.Parse(bytes.NewReader(h))
	if err != nil {
		t.Fatal(err)
	}
	styles, links := 0, 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script", "img", "iframe", "object", "embed", "link", "base", "form", "input":
			t.Errorf("index.html has a <%s> element", n.Data)
		case "style":
			styles++
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") || a.Key == "style" || a.Key == "src" {
				t.Errorf("<%s> has attribute %s=%q", n.Data, a.Key, a.Val)
			}
			if a.Key == "href" {
				links++
				if !webURL(a.Val) {
					t.Errorf("non-http(s) link %q", a.Val)
				}
			}
		}
	}
	if styles != 1 {
		t.Errorf("%d <style> elements, want sieve's one", styles)
	}
	if links == 0 {
		t.Error("no http(s) link at all")
	}
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="` + CSP + `">`,
		`<meta name="referrer" content="no-referrer">`,
		"<title>Offers &lt;script&gt;",
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		`<a href="https://help.example.com/?q=&#34;&gt;&lt;script&gt;alert(5)&lt;/script&gt;" rel="noopener noreferrer nofollow">`,
		"Read the terms (javascript:alert(6))",
	} {
		if !bytes.Contains(h, []byte(want)) {
			t.Errorf("index.html lacks %s", want)
		}
	}
}

func TestContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	line, _ := codec.Marshal(sampleRecord(t))
	if _, err := Transform(ctx, Options{Out: t.TempDir()}, line); err == nil {
		t.Error("no error on a cancelled context")
	}
}
