package graph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/normalize"
)

// readmeOutcomes is the "## Outcomes" section of README.md: each table
// row's static-tier cell by status, the precedence list, and the prose.
type readmeOutcomes struct {
	static map[string]string
	order  []string
	prose  string
}

func parseReadmeOutcomes(t *testing.T, readme string) readmeOutcomes {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Outcomes\n")
	if !ok {
		t.Fatal(`README.md has no "## Outcomes" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	out := readmeOutcomes{static: map[string]string{}}
	var prose []string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 5 {
			prose = append(prose, line)
			continue
		}
		status := strings.Trim(strings.TrimSpace(cells[1]), "`")
		out.static[status] = strings.TrimSpace(cells[3])
	}
	out.prose = strings.Join(strings.Fields(strings.Join(prose, " ")), " ")
	_, list, ok := strings.Cut(out.prose, "the first in this order wins:")
	if !ok {
		t.Fatal("the Outcomes section states no precedence")
	}
	list, _, _ = strings.Cut(list, ";")
	for _, step := range strings.Split(list, "→") {
		out.order = append(out.order, precedenceKey(strings.TrimSpace(step)))
	}
	return out
}

// precedenceKey names a README precedence step as the code's precedence
// list does.
func precedenceKey(step string) string {
	switch {
	case strings.Contains(step, "fetch"):
		return "fetch"
	case strings.Contains(step, "(blocked)"):
		return StatusBlocked
	}
	return step
}

// codeStatuses is the closed set of outcome statuses: the Status*
// constants of record.go.
func codeStatuses(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "record.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Status") {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			s, _ := strconv.Unquote(lit.Value)
			out = append(out, s)
		}
		return true
	})
	slices.Sort(out)
	return out
}

// TestReadmeOutcomeTable keeps README's outcome table in step with the
// code: the same statuses, the same precedence, and for each static read
// below, the row of the status the code gives says it in the static-tier
// column. A row that says it is not produced by the static tier is given
// by none of them, and every other row by at least one.
func TestReadmeOutcomeTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	checkReadmeOutcomes(t, string(b))
}

func checkReadmeOutcomes(t *testing.T, readme string) {
	doc := parseReadmeOutcomes(t, readme)
	var documented []string
	for s := range doc.static {
		documented = append(documented, s)
	}
	slices.Sort(documented)
	if want := codeStatuses(t); !slices.Equal(documented, want) || len(want) != 7 {
		t.Fatalf("README statuses %v, code statuses %v", documented, want)
	}
	wantOrder := slices.DeleteFunc(slices.Clone(precedence), func(k string) bool { return k == keyEmptyStatic })
	if !slices.Equal(doc.order, wantOrder) {
		t.Errorf("README precedence %q, code %q", doc.order, wantOrder)
	}
	given := map[string]bool{}
	for _, c := range staticReads() {
		g := Build(c.rec(t))
		o := g.Outcome
		given[o.Status] = true
		if cell := doc.static[o.Status]; !strings.Contains(cell, c.phrase) {
			t.Errorf("%s: the code says %s (%q); README's static cell for %s does not say %q: %q",
				c.name, o.Status, o.Evidence, o.Status, c.phrase, cell)
		}
		if hasExcerpt, httpError := o.BodyExcerpt != "", o.HTTPStatus >= 400; hasExcerpt != httpError {
			t.Errorf("%s: body_excerpt %q with HTTP %d", c.name, o.BodyExcerpt, o.HTTPStatus)
		}
	}
	for status, cell := range doc.static {
		notStatic := strings.Contains(cell, "not produced by the static tier")
		if notStatic == given[status] {
			t.Errorf("README's static cell for %s is %q, and the static reads below give it: %v", status, cell, given[status])
		}
	}
	sentence := doc.prose[strings.Index(doc.prose, "`body_excerpt`"):]
	sentence, _, _ = strings.Cut(sentence, ".")
	if !strings.Contains(sentence, "only when the server answered an HTTP error") {
		t.Errorf("README says body_excerpt is on more than an HTTP error answer: %q", sentence)
	}
}

type staticRead struct {
	name, phrase string // phrase: what README's static cell says of it
	rec          func(t *testing.T) *normalize.Record
}

func staticReads() []staticRead {
	long := strings.Repeat("Real prose about the subject of this page. ", 60)
	html := func(body string, mod func(*capture.Record)) func(t *testing.T) *normalize.Record {
		return func(t *testing.T) *normalize.Record {
			c := captureOf(body)
			if mod != nil {
				mod(c)
			}
			n, err := normalize.Normalize(c)
			if err != nil {
				t.Fatalf("normalize: %v", err)
			}
			return n
		}
	}
	pdf := func(errs ...string) func(t *testing.T) *normalize.Record {
		return func(t *testing.T) *normalize.Record {
			info := &capture.PDFInfo{PageCount: len(errs)}
			for i, e := range errs {
				info.Pages = append(info.Pages, capture.PDFPageInfo{Index: i, Width: 612, Height: 792, Error: e})
			}
			d := newPDFDoc(info)
			for i := range errs {
				d.newPage(i+1, 612, 792)
			}
			return d.rec
		}
	}
	return []staticRead{
		{"a page with text", "nothing else fired", html(`<main><h1>Fine</h1><p>`+long+`</p></main>`, nil)},
		{"an empty HTML document", "no visible text and no scripts", html(`<html><body><div></div></body></html>`, nil)},
		{"HTTP 403", "HTTP 4xx/5xx", html(`<p>Access denied by policy WEB-31.</p>`, func(c *capture.Record) { c.Status = 403 })},
		{"robots.txt", "robots.txt disallows", html("", func(c *capture.Record) {
			c.Status, c.Body = 0, ""
			c.Error = &capture.Error{Kind: capture.ErrRobots, Message: "disallowed"}
		})},
		{"cf-mitigated on a 403", "`cf-mitigated: challenge`", html(`<p>Checking your browser.</p>`, func(c *capture.Record) {
			c.Status, c.Headers["cf-mitigated"] = 403, "challenge"
		})},
		{"an age gate", "an age gate", html(`<main><h1>Welcome</h1><p>Are you 18 or older?</p><button>Yes</button></main>`, nil)},
		{"HTTP 401", "HTTP 401", html(`<p>Unauthorized</p>`, func(c *capture.Record) { c.Status = 401 })},
		{"a login form as the page", "a visible password field", html(`<main><h1>Members</h1><p>Please log in to read this.</p><form><input name="u"><input type="password" name="p"><button>Log in</button></form></main>`, nil)},
		{"scripts and no text", "scripts that a static read does not run", html(`<html><body><div id="root"></div><script src="/app.js"></script></body></html>`, nil)},
		{"a PDF without a text layer", "no text layer", pdf("", "")},
		{"a PDF none of whose pages could be read", "none of its pages could be read", pdf("bad page", "bad page")},
		{"a PDF one of whose pages could not be read", "some of whose pages could not be read", func(*testing.T) *normalize.Record { return pdfFixture() }},
	}
}
