package normalize

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aymerick/douceur/parser"

	"github.com/sieve-dev/sieve/capture"
)

func TestDeepNesting(t *testing.T) {
	const n = 100_000
	body := "<body>" + strings.Repeat("<div>", n) + "deep text" + strings.Repeat("</div>", n) + "<p id=after>after</p></body>"
	r := mustNormalize(t, body)
	if r.Stats.SkippedNodes < n-600 {
		t.Errorf("skipped %d nodes, want about %d", r.Stats.SkippedNodes, n)
	}
	if !strings.Contains(allText(r), "deep text") {
		t.Error("deeply nested text lost")
	}
	if r.Stats.Elements > 600 {
		t.Errorf("%d elements kept", r.Stats.Elements)
	}
	byID(t, r, "after")
}

func TestDeepNestingMixed(t *testing.T) {
	// Formatting elements, tables and unclosed paragraphs nested deep.
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		b.WriteString([]string{"<b>", "<div><p>", "<table><tr><td>", "<span>", "<ul><li>", "<svg><g/>"}[i%6])
	}
	b.WriteString("bottom")
	r := mustNormalize(t, b.String())
	if !strings.Contains(allText(r), "bottom") {
		t.Error("text lost")
	}
}

func TestManySiblingsAndRules(t *testing.T) {
	var css, body strings.Builder
	for i := 0; i < 300; i++ {
		css.WriteString(".c" + strings.Repeat("x", i%7) + " .d" + string(rune('a'+i%26)) + " { display: none }\n")
	}
	for i := 0; i < 20_000; i++ {
		body.WriteString(`<p class="p` + string(rune('a'+i%26)) + `" style="color:red;width:` + string(rune('0'+i%10)) + `px">x</p>`)
	}
	r := mustNormalize(t, "<style>"+css.String()+"</style><body>"+body.String()+"</body>")
	if r.Stats.StyleRules != 300 || r.Stats.Elements < 20_000 {
		t.Errorf("stats %+v", r.Stats)
	}
}

func TestHugeAttributeValue(t *testing.T) {
	big := strings.Repeat("a", 4<<20)
	r := mustNormalize(t, `<a id=t href="/`+big+`" class="`+big+`" style="`+big+`">x</a>`)
	n := byID(t, r, "t")
	if len(n.Attrs["href"]) > maxAttrBytes || len(n.Attrs["class"]) != maxAttrBytes {
		t.Errorf("href %d class %d bytes", len(n.Attrs["href"]), len(n.Attrs["class"]))
	}
}

func TestHostileCSS(t *testing.T) {
	sheets := []string{
		strings.Repeat("a,", 200_000) + "b{display:none}",
		strings.Repeat("url(", 100_000),
		strings.Repeat("x:", 100_000) + "{color:red}",
		"a{color:red};b{display:none};;;}",
		strings.Repeat("@media screen{", 1000) + ".a{display:none}" + strings.Repeat("}", 1000),
		strings.Repeat("/*", 50_000),
		strings.Repeat(`"`, 50_001),
		strings.Repeat("{", 100_000),
		strings.Repeat("}", 100_000),
	}
	for i, s := range sheets {
		r := mustNormalize(t, "<style>"+s+"</style><p id=t class=a>x</p>")
		_ = byID(t, r, "t")
		_ = i
	}
	for _, s := range []string{strings.Repeat("a ", 50_000) + ":none", strings.Repeat("display:none;", 10_000)} {
		mustNormalize(t, `<p style="`+s+`">x</p>`)
	}
}

func TestCleanCSSPreventsParserLoop(t *testing.T) {
	// douceur loops forever on a ";" where a rule should start; cleanCSS
	// removes it. Run the parser on the cleaned text only.
	for _, in := range []string{"a{};b{display:none}", "x; .b{display:none}", "@media screen{;.b{display:none}}"} {
		s := cleanCSS(in, false)
		if strings.Contains(strings.ReplaceAll(s, "none}", ""), ";") {
			t.Errorf("cleanCSS(%q) = %q", in, s)
			continue
		}
		if _, err := parser.NewParser(s).ParseRules(); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if s := cleanCSS("a{b:c;;d:e} @import url(x.css);", false); s != "a{b:c;d:e} @import url();" {
		t.Errorf("cleaned = %q", s)
	}
	if cheapToParse(cleanCSS(strings.Repeat("a,", 100_000)+"b{}", false)) {
		t.Error("a 100 000-token selector list passed the cost guard")
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"", "<p>x</p>", "<details><summary>a</summary>b</details>", "<style>.a{display:none}</style><p class=a>x</p>",
		"<table><tr><td>a<td>b</table>", "<svg><title>t</title></svg>", "<noscript><p>x</p></noscript>",
		"<div style='position:absolute;left:-9999px'>x</div>", "<pre>\r\n a</pre>", strings.Repeat("<div>", 600),
		"<base href=//x><a href=../y>", "<script>window.__NUXT__</script>", "<p>\xff\xfe</p>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r, err := Normalize(htmlCapture(body))
		if err != nil {
			return
		}
		checkTree(t, r)
	})
}

// BenchmarkNormalize runs over the gzip'd pages of the shared bench set,
// read in place.
func BenchmarkNormalize(b *testing.B) {
	pages := loadBenchPages(b)
	total := 0
	for _, p := range pages {
		total += len(p.Body)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			if _, err := Normalize(p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(pages)*b.N)/b.Elapsed().Seconds(), "pages/s")
}

// benchPageFiles are the gzip'd scrapinghub pages of the shared bench set
// (../shared/bench, or $SIEVE_BENCH_DIR), read in place; the test is
// skipped without them.
func benchPageFiles(tb testing.TB) []string {
	dir := filepath.Join("..", "..", "shared", "bench")
	if d := os.Getenv("SIEVE_BENCH_DIR"); d != "" {
		dir = d
	}
	files, _ := filepath.Glob(filepath.Join(dir, "scrapinghub", "html", "*.gz"))
	if len(files) == 0 {
		tb.Skipf("no shared benchmark pages in %s", dir)
	}
	return files
}

func loadBenchPages(b testing.TB) []*capture.Record {
	var pages []*capture.Record
	for _, name := range benchPageFiles(b) {
		body := readGzip(b, name)
		pages = append(pages, htmlCapture(strings.ToValidUTF8(string(body), "\uFFFD")))
	}
	return pages
}

// readGzip is the gunzipped content of the file path (a bench page).
func readGzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzCleanCSS checks that douceur, given cleanCSS's output, always
// returns (it loops forever on some raw input).
func FuzzCleanCSS(f *testing.F) {
	for _, s := range []string{"a{};b{display:none}", `.a\{ ; .b{}`, "@ ;a{}", "@media screen{;a{b:c}}", "@-x;a{}", `a[x=";"]{}`, "a{b:url(x;y)}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		for _, decls := range []bool{false, true} {
			s := cleanCSS(in, decls)
			if !cheapToParse(s) {
				continue
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				if decls {
					parser.NewParser(s).ParseDeclarations()
				} else {
					parser.NewParser(s).ParseRules()
					pruned, _ := pruneRules(s)
					parser.NewParser(pruned).ParseRules()
				}
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("douceur does not return on cleaned %q (from %q)", s, in)
			}
		}
	})
}

func TestSelectorWorkBounded(t *testing.T) {
	// A deep chain with many leaves and many descendant rules that reach
	// every leaf but match none: the matching budget must cut this short.
	var b strings.Builder
	b.WriteString("<style>")
	for i := 0; i < 1000; i++ {
		b.WriteString(".none" + string(rune('a'+i%26)) + " p { display: none }\n")
	}
	b.WriteString("</style><body>" + strings.Repeat("<div>", 400))
	for i := 0; i < 20_000; i++ {
		b.WriteString("<p>x</p>")
	}
	r := mustNormalize(t, b.String())
	if r.Stats.StyleRules != 1000 {
		t.Errorf("style rules = %d", r.Stats.StyleRules)
	}
}
