package normalize

import (
	"hash/fnv"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/aymerick/douceur/parser"
	"golang.org/x/net/html"
)

// oracleSheetRules is sheetRules before issue 17: each pass prunes the
// cleaned sheet afresh and hands douceur the pruned text whole.
func oracleSheetRules(cleaned []string, keep func(prelude, block string) bool, want func(declSet) bool) ([]hidingRule, int) {
	var out []hidingRule
	count := 0
	for _, sheet := range cleaned {
		s, n := pruneSheet(sheet, keep)
		count += n
		if !cheapToParse(s) {
			continue
		}
		rules, _ := parser.NewParser(s).ParseRules()
		out = collectRules(rules, out, want, 0)
	}
	return out, count
}

// sheetPasses are the passes a page's sheets go through (hiding, the
// cascade's second look with a selector filter, font sizes), and two more
// that keep everything or every other rule.
var sheetPasses = []struct {
	name string
	keep func(prelude, block string) bool
	want func(declSet) bool
}{
	{"hiding", blockOnly(mayHide), func(d declSet) bool { r, _ := hides(d); return r != "" }},
	{"cascade", func(prelude, block string) bool {
		h := fnv.New32a()
		h.Write([]byte(prelude))
		return (mayHide(block) || mayShow(block)) && h.Sum32()%3 != 0
	}, func(d declSet) bool {
		for _, prop := range cascadeProps {
			if v, ok := d.get(prop); ok && (hidingValue(prop, v.value) || showingValue(prop, v.value)) {
				return true
			}
		}
		return false
	}},
	{"sizing", blockOnly(func(block string) bool { return valueOf(block, "font-size", absoluteSize) }), func(d declSet) bool {
		v, ok := d.get("font-size")
		return ok && absoluteSize(v.value)
	}},
	{"all", func(string, string) bool { return true }, func(declSet) bool { return true }},
	{"every other", func(prelude, _ string) bool { return len(prelude)%2 == 0 }, func(declSet) bool { return true }},
}

func checkSheets(t *testing.T, name string, sheets []string, passes int) (composed, whole int) {
	t.Helper()
	w := &walker{out: &Record{}, sheets: sheets}
	cleaned := cleanSheets(sheets)
	for _, p := range sheetPasses[:passes] {
		want, n := oracleSheetRules(cleaned, p.keep, p.want)
		before := w.out.Stats.StyleRules
		got := w.sheetRules(p.keep, p.want, true)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, pass %s: %d rules, the pruned-and-parsed-whole way gives %d\n got %v\nwant %v", name, p.name, len(got), len(want), got, want)
		}
		if c := w.out.Stats.StyleRules - before; c != n {
			t.Fatalf("%s, pass %s: %d rules counted, want %d", name, p.name, c, n)
		}
	}
	for k := range sheets {
		pieces, _ := w.css.pieces(k, w.cleaned[k])
		kept := make([]bool, len(pieces))
		for i := range kept {
			kept[i] = true
		}
		if _, ok := w.css.compose(pieces, kept, nil, func(declSet) bool { return true }); ok {
			composed++
		} else {
			whole++
		}
	}
	return composed, whole
}

var cssSamples = []string{
	`.a{display:none}.b{color:red}@media screen{.c{visibility:hidden}@media all{.d{font-size:0}}}@media print{.e{display:none}}`,
	`.a{display:none} .b{display:block!important} #x > p{opacity:0} .f{font-size:12px}`,
	`@media screen{.a{display:none}`, // unclosed @media
	`.a{display:none`,                // unclosed rule
	`.a{display:none}}}.b{display:none}`,
	`@import url(x.css); @font-face{font-family:x} .a{display:none} @supports (x:y){.b{display:none}}`,
	`.a{content:"}" ; display:none} .b{content:'{'; display:none}`,
	`.a{display:none} /* .b{display:none} */ .c{display:none}`,
	`.a{display:none} .b{dis:play:none;;} .c{{display:none}} .d{display:none}`,
	`@media screen{@media screen{@media screen{@media screen{@media screen{.deep{display:none}}.four{display:none}}}}}`,
	`.a{display:none}@media screen and (max-width:10px){.b{display:none}}@MEDIA screen{.c{display:none}}`,
	`a[href="x{y}"]{display:none} .b\{c{display:none} .d{display:none}`,
	`.a{display:none !important;visibility:visible} .b{ DISPLAY : NONE } .c{font-size:0;font-size:1rem}`,
	``, `}}}`, `{.a{display:none}}`, `.a{}`, `@media screen{}`, `@media screen{} .a{display:none}`,
}

func TestSheetRulesOnce(t *testing.T) {
	for i, s := range cssSamples {
		checkSheets(t, "sample "+string(rune('A'+i)), []string{s}, len(sheetPasses))
	}
	checkSheets(t, "all samples", cssSamples, len(sheetPasses))
}

// The scrapinghub pages' own style sheets: each of the three passes a page
// makes gives the rules it gave when it tokenised its pruned sheet whole.
func TestSheetRulesOnceOnPages(t *testing.T) {
	files := benchPageFiles(t)
	if testing.Short() {
		files = files[:min(len(files), 30)]
	}
	if raceEnabled {
		// a sixth of the pages: all of them take minutes under the
		// detector (go test ./normalize without -race checks every one)
		var sample []string
		for i := 0; i < len(files); i += 6 {
			sample = append(sample, files[i])
		}
		files = sample
	}
	pages, composed, whole := 0, 0, 0
	for _, f := range files {
		sheets := styleSheetsOf(t, f)
		if len(sheets) == 0 {
			continue
		}
		pages++
		c, w := checkSheets(t, filepath.Base(f), sheets, 3)
		composed += c
		whole += w
	}
	t.Logf("%d pages with style sheets: %d sheets put together from pieces parsed once, %d parsed whole", pages, composed, whole)
}

func styleSheetsOf(t *testing.T, path string) []string {
	b := readGzip(t, path)
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		return nil
	}
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "style" {
			if s := textContent(n); s != "" {
				out = append(out, s)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// BenchmarkSheetRules: the three passes over the scrapinghub pages' style
// sheets, tokenised per pass (before issue 17) and once per page.
func BenchmarkSheetRules(b *testing.B) {
	files := benchPageFiles(b)
	t := &testing.T{}
	var pages [][]string
	for _, f := range files {
		pages = append(pages, styleSheetsOf(t, f))
	}
	// Both clean each sheet once per page, as the walker always did.
	b.Run("per-pass", func(b *testing.B) {
		cpu := cpuNow()
		for b.Loop() {
			for _, sheets := range pages {
				cleaned := cleanSheets(sheets)
				for _, p := range sheetPasses[:3] {
					oracleSheetRules(cleaned, p.keep, p.want)
				}
			}
		}
		b.ReportMetric(float64(cpuNow()-cpu)/float64(b.N), "cpu-ns/op")
	})
	b.Run("once", func(b *testing.B) {
		cpu := cpuNow()
		for b.Loop() {
			for _, sheets := range pages {
				w := &walker{out: &Record{}, sheets: sheets}
				for _, p := range sheetPasses[:3] {
					w.sheetRules(p.keep, p.want, true)
				}
			}
		}
		b.ReportMetric(float64(cpuNow()-cpu)/float64(b.N), "cpu-ns/op")
	})
}

func cleanSheets(sheets []string) []string {
	out := make([]string, len(sheets))
	for i, s := range sheets {
		out[i] = cleanCSS(s, false)
	}
	return out
}

// cpuNow is the process's CPU time in nanoseconds (the machine is shared:
// wall time says little).
func cpuNow() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
