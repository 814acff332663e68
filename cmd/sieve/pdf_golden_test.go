package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	sievecli "github.com/sieve-dev/sieve/cli"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// updatePDF rewrites testdata/pdf-golden/NAME.json from the current graph,
// but only for documents whose graph passes every fact check.
var updatePDF = flag.Bool("update", false, "rewrite testdata/pdf-golden (documents that pass their fact checks only)")

// TestPDFGolden distils every pdftest document with `sieve distill`, checks
// the facts on the artifact (reading order, headings, table cells,
// lists, hidden text kept out of the content and in latent[] and the
// security report, PDF document facts, one clear record for a file that
// cannot be read) and compares content.json with its golden file.
func TestPDFGolden(t *testing.T) {
	if raceEnabled {
		// PDFium's wasm glue is ten times slower under the detector, and
		// this test adds no concurrency of its own: make test runs it
		// without -race (unit).
		t.Skip("TestPDFGolden runs without -race")
	}
	docs, err := pdftest.All()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range docs {
		t.Run(d.Name, func(t *testing.T) {
			a := distillPDF(t, dir, d)
			if d.Password != "" || d.Pages == 0 {
				checkUnreadable(t, a, d)
				return
			}
			checkPDFFacts(t, a, d)
			compareGolden(t, a, d.Name, dir)
		})
	}
}

// pdfArtifact is one distilled document: the artifact line and its files.
type pdfArtifact struct {
	record  string
	content string // content.json
	graph   graph.Record
	md      string // index.md
	chunks  string // evidence/chunks.jsonl
	report  string // evidence/security_report.json
}

// distillPDF writes d to dir and runs `sieve distill` on it in process.
func distillPDF(t *testing.T, dir string, d pdftest.Doc) pdfArtifact {
	t.Helper()
	path := filepath.Join(dir, d.Name+".pdf")
	if err := os.WriteFile(path, d.PDF, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	out := filepath.Join(dir, "out-"+d.Name)
	app := cliutil.App("sieve", sievecli.Command(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	code := cliutil.Main(app, []string{"sieve", "distill", "--out", out, path})
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 1 || gjsonGet(lines[0], "record") != "artifact" {
		t.Fatalf("exit %d, want one artifact record, got %q (stderr %q)", code, stdout.String(), stderr.String())
	}
	a := pdfArtifact{record: lines[0]}
	art := gjsonGet(lines[0], "dir")
	if !filepath.IsAbs(art) {
		art = filepath.Join(".", art)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(art, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a.content, a.md = read("content.json"), read("index.md")
	if err := json.Unmarshal([]byte(a.content), &a.graph); err != nil {
		t.Fatal(err)
	}
	if d.Password == "" && d.Pages > 0 {
		a.chunks, a.report = read("evidence/chunks.jsonl"), read("evidence/security_report.json")
	}
	return a
}

// checkUnreadable: an encrypted, truncated or broken file is one artifact
// record that is not ok, whose outcome says why.
func checkUnreadable(t *testing.T, a pdfArtifact, d pdftest.Doc) {
	t.Helper()
	if st := gjsonGet(a.record, "outcome"); st == "ok" {
		t.Errorf("outcome %q for an unreadable file", st)
	}
	why := strings.ToLower(strings.Join(a.graph.Outcome.Evidence, " "))
	want := map[string]*regexp.Regexp{
		"encrypted": regexp.MustCompile(`encrypted|password`),
		"truncated": regexp.MustCompile(`truncated|broken|not a readable pdf`),
		"broken":    regexp.MustCompile(`broken|not a readable pdf`),
	}[d.Name]
	if want != nil && !want.MatchString(why) {
		t.Errorf("outcome evidence %q does not say %s", why, want)
	}
}

// checkPDFFacts checks what the "done when" asks of d's artifact.
func checkPDFFacts(t *testing.T, a pdfArtifact, d pdftest.Doc) {
	t.Helper()
	if a.graph.Outcome.Status != "ok" {
		t.Fatalf("outcome %+v, want ok", a.graph.Outcome)
	}
	text := contentText(a.graph)
	for _, s := range d.Visible {
		if !strings.Contains(text, collapse(s)) {
			t.Errorf("content misses %q", s)
		}
	}
	if i, ok := inOrder(text, d.Order); !ok {
		t.Errorf("reading order: %q is not where it should be (after %q) in %q", d.Order[i], d.Order[max(0, i-1)], text)
	}
	checkHeadings(t, a.graph, d.Headings)
	for _, want := range d.Tables {
		checkTable(t, a.graph, want)
	}
	checkLists(t, a.graph, d.Lists)
	checkHidden(t, a, d.Hidden)
	checkDocFacts(t, a, d)
	checkBoxes(t, a.graph)
	checkWordBoxes(t, a.graph, d.Words)
}

// checkWordBoxes: each drawn word is in a content block on its page whose
// box holds the word's expected box (1 pt of slack: block boxes are
// rounded outwards to whole points), on rotated and cropped pages too.
func checkWordBoxes(t *testing.T, g graph.Record, words []pdftest.Word) {
	t.Helper()
	for _, w := range words {
		var seen []string
		found := false
		for _, b := range g.Blocks {
			if b.Page != w.Page+1 || b.Box == nil || !strings.Contains(b.Text, w.Text) {
				continue
			}
			x, y := float64(b.Box.X), float64(b.Box.Y)
			if x <= w.X0+1 && y <= w.Y0+1 && x+float64(b.Box.W) >= w.X1-1 && y+float64(b.Box.H) >= w.Y1-1 {
				found = true
				break
			}
			seen = append(seen, fmt.Sprintf("%s %v", b.ID, *b.Box))
		}
		if !found {
			t.Errorf("page %d %q: no block box holds [%g %g %g %g] (blocks with it: %v)", w.Page+1, w.Text, w.X0, w.Y0, w.X1, w.Y1, seen)
		}
	}
}

// checkBoxes: every PDF block, table cell and latent entry has a page and
// a box that lies on that page (1 pt of slack for rounding outwards);
// off-page hidden text is the one thing allowed outside.
func checkBoxes(t *testing.T, g graph.Record) {
	t.Helper()
	if g.PDF == nil {
		t.Error("content.json has no pdf facts")
		return
	}
	onPage := func(page int, b *graph.Box) bool {
		if page < 1 || page > len(g.PDF.Pages) || b == nil {
			return false
		}
		p := g.PDF.Pages[page-1]
		return b.X >= -1 && b.Y >= -1 && float64(b.X+b.W) <= p.Width+1 && float64(b.Y+b.H) <= p.Height+1
	}
	for _, b := range g.Blocks {
		if !onPage(b.Page, b.Box) {
			t.Errorf("block %s %q: box %v is not on page %d", b.ID, b.Text, b.Box, b.Page)
		}
		for r, row := range b.Rows {
			for c, cell := range row {
				if !onPage(b.Page, cell.Box) {
					t.Errorf("block %s cell %d,%d %q: box %v is not on page %d", b.ID, r, c, cell.Text, cell.Box, b.Page)
				}
			}
		}
	}
	for _, l := range g.Latent {
		if !onPage(l.Page, l.Box) && (l.Reason != pdftest.ReasonOffPage || l.Page < 1) {
			t.Errorf("latent %s %q: box %v is not on page %d", l.ID, l.Text, l.Box, l.Page)
		}
	}
}

var spaces = regexp.MustCompile(`\s+`)

func collapse(s string) string { return strings.TrimSpace(spaces.ReplaceAllString(s, " ")) }

// contentText is the content blocks' text in reading order; a table
// contributes its cells row by row.
func contentText(g graph.Record) string {
	var parts []string
	for _, b := range g.Blocks {
		if b.Role != "content" {
			continue
		}
		parts = append(parts, b.Text)
		for _, row := range b.Rows {
			for _, c := range row {
				parts = append(parts, c.Text)
			}
		}
	}
	return collapse(strings.Join(parts, " "))
}

// inOrder reports whether the strings appear in text in order; when not,
// the index of the first one out of place.
func inOrder(text string, order []string) (int, bool) {
	at := 0
	for i, s := range order {
		j := strings.Index(text[at:], collapse(s))
		if j < 0 {
			return i, false
		}
		at += j + len(collapse(s))
	}
	return 0, true
}

// checkHeadings: each wanted heading is a heading block, in order, and the
// levels keep their differences (the graph may shift them all).
func checkHeadings(t *testing.T, g graph.Record, want []pdftest.Heading) {
	t.Helper()
	var got []pdftest.Heading
	for _, b := range g.Blocks {
		if b.Type == graph.TypeHeading && b.Role == "content" {
			got = append(got, pdftest.Heading{Text: collapse(b.Text), Level: b.Level})
		}
	}
	j := 0
	var matched []pdftest.Heading
	for _, w := range want {
		for j < len(got) && got[j].Text != w.Text {
			j++
		}
		if j == len(got) {
			t.Errorf("heading %q (h%d) missing or out of order; headings: %v", w.Text, w.Level, got)
			return
		}
		matched = append(matched, got[j])
		j++
	}
	for i := range matched {
		if matched[i].Level-matched[0].Level != want[i].Level-want[0].Level {
			t.Errorf("heading levels %v, want the differences of %v", matched, want)
			return
		}
	}
}

// gridCells places a table block's rows on a grid (rowspans occupy the
// rows below) and returns its cells at their top-left positions.
func gridCells(b graph.Block) []pdftest.Cell {
	taken := map[[2]int]bool{}
	var cells []pdftest.Cell
	for r, row := range b.Rows {
		col := 0
		for _, c := range row {
			for taken[[2]int{r, col}] {
				col++
			}
			rs, cs := max(1, c.Rowspan), max(1, c.Colspan)
			for i := range rs {
				for k := range cs {
					taken[[2]int{r + i, col + k}] = true
				}
			}
			cells = append(cells, pdftest.Cell{Row: r, Col: col, RowSpan: rs, ColSpan: cs, Text: collapse(c.Text), Header: c.Header})
			col += cs
		}
	}
	return cells
}

// checkTable: some table block holds exactly the wanted cells.
func checkTable(t *testing.T, g graph.Record, want pdftest.Table) {
	t.Helper()
	wantKey := cellsKey(want.Cells)
	var seen []string
	for _, b := range g.Blocks {
		if b.Type != graph.TypeTable {
			continue
		}
		got := cellsKey(gridCells(b))
		if got == wantKey {
			return
		}
		seen = append(seen, got)
	}
	t.Errorf("no table with cells\n%s\ntables seen:\n%s", wantKey, strings.Join(seen, "\n--\n"))
}

func cellsKey(cells []pdftest.Cell) string {
	var b strings.Builder
	for _, c := range cells {
		h := ""
		if c.Header {
			h = " header"
		}
		fmt.Fprintf(&b, "r%d c%d %dx%d%s %q\n", c.Row, c.Col, c.RowSpan, c.ColSpan, h, collapse(c.Text))
	}
	return b.String()
}

// checkLists: each wanted list's items are consecutive list-item blocks,
// ordered or not as wanted.
func checkLists(t *testing.T, g graph.Record, want []pdftest.List) {
	t.Helper()
	var items []graph.Block
	for _, b := range g.Blocks {
		if b.Type == graph.TypeListItem {
			items = append(items, b)
		}
	}
	for _, l := range want {
		found := false
		for i := 0; i+len(l.Items) <= len(items) && !found; i++ {
			found = true
			for k, text := range l.Items {
				it := items[i+k]
				if !strings.HasSuffix(collapse(it.Text), collapse(text)) || it.Ordered != l.Ordered {
					found = false
					break
				}
			}
		}
		if !found {
			var got []string
			for _, it := range items {
				got = append(got, fmt.Sprintf("%q ordered=%v", it.Text, it.Ordered))
			}
			t.Errorf("no list (ordered=%v) of %q; list items: %v", l.Ordered, l.Items, got)
		}
	}
}

// checkHidden: hidden text is not in index.md nor the chunks, and is in
// latent[] with its reason and in the security report's findings.
func checkHidden(t *testing.T, a pdfArtifact, hidden []pdftest.Hidden) {
	t.Helper()
	md, chunks := collapse(a.md), collapse(strings.Join(chunkTexts(a.chunks), " "))
	content := contentText(a.graph)
	var findings []string
	for _, f := range gjsonArray(a.report, `findings.#(code%"*hidden_text")#.evidence.text`) {
		findings = append(findings, collapse(f))
	}
	for _, h := range hidden {
		s := collapse(h.Text)
		for where, text := range map[string]string{"index.md": md, "chunks.jsonl": chunks, "content blocks": content} {
			if strings.Contains(text, s) {
				t.Errorf("hidden (%s) %q is in %s", h.Reason, s, where)
			}
		}
		var reasons []string
		for _, l := range a.graph.Latent {
			if strings.Contains(collapse(l.Text), s) {
				reasons = append(reasons, l.Reason)
			}
		}
		if len(reasons) == 0 {
			t.Errorf("hidden (%s) %q is not in latent[]", h.Reason, s)
		} else if !contains(reasons, h.Reason) {
			t.Errorf("hidden %q is in latent[] as %v, want reason %s", s, reasons, h.Reason)
		}
		if !anyContains(findings, s) {
			t.Errorf("hidden (%s) %q is not in the security report's hidden-text findings", h.Reason, s)
		}
	}
}

func chunkTexts(jsonl string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(jsonl), "\n") {
		out = append(out, gjsonGet(line, "text"))
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func anyContains(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}

// checkDocFacts: links, bookmarks, attachments and JavaScript reach
// content.json's pdf facts, links[] and the security report.
func checkDocFacts(t *testing.T, a pdfArtifact, d pdftest.Doc) {
	t.Helper()
	if d.Pages != len(gjsonArray(a.content, "pdf.pages")) {
		t.Errorf("content.json pdf.pages: %d pages, want %d", len(gjsonArray(a.content, "pdf.pages")), d.Pages)
	}
	uris := gjsonArray(a.content, "pdf.pages.#.links.#.uri|@flatten")
	hrefs := gjsonArray(a.content, "links.#.href")
	findings := gjsonArray(a.report, "findings.#.code")
	if tagged := strings.HasPrefix(d.Name, "tagged-"); gjsonGet(a.content, "pdf.tagged") != fmt.Sprint(tagged) {
		t.Errorf("content.json pdf.tagged = %s, want %v", gjsonGet(a.content, "pdf.tagged"), tagged)
	}
	gotos := gjsonArray(a.content, `pdf.pages.#.links.#(action=="goto")#.page|@flatten`)
	for _, l := range d.Links {
		if l.URI == "" {
			if !contains(gotos, fmt.Sprint(l.Page-1)) {
				t.Errorf("internal link to page %d is not in content.json pdf.pages[].links (goto pages %v)", l.Page, gotos)
			}
			continue
		}
		if !contains(uris, l.URI) {
			t.Errorf("pdf link %s is not in content.json pdf.pages[].links (%v)", l.URI, uris)
		}
		if !contains(hrefs, l.URI) {
			t.Errorf("pdf link %s is not in content.json links[] (%v)", l.URI, hrefs)
		}
		if !contains(findings, "external_link") {
			t.Errorf("no external_link finding for %s in %v", l.URI, findings)
		}
	}
	for _, name := range d.Attachments {
		if !contains(gjsonArray(a.content, "pdf.attachments.#.name"), name) {
			t.Errorf("attachment %s is not in content.json pdf.attachments", name)
		}
		if !contains(findings, "attachment") {
			t.Errorf("no attachment finding in %v", findings)
		}
	}
	for _, title := range d.Bookmarks {
		if !strings.Contains(gjsonGet(a.content, "pdf.bookmarks"), title) {
			t.Errorf("bookmark %q is not in content.json pdf.bookmarks", title)
		}
	}
	if d.JavaScript != "" && !contains(findings, "javascript") {
		t.Errorf("document JavaScript: no javascript finding in %v", findings)
	}
}

func gjsonArray(doc, path string) []string {
	var out []string
	for _, r := range gjson.Get(doc, path).Array() {
		out = append(out, r.String())
	}
	return out
}

// volatileContent are content.json's fields that change from run to run
// (the time) or with the build (library versions).
var volatileContent = []string{"distilled_at", "provenance"}

// compareGolden compares content.json, less its volatile fields and with
// the temporary directory masked, with testdata/pdf-golden/NAME.json; with
// -update it rewrites the file when the fact checks passed.
func compareGolden(t *testing.T, a pdfArtifact, name, dir string) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(a.content), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range volatileContent {
		delete(m, k)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	got := bytes.ReplaceAll(buf.Bytes(), []byte(dir), []byte("$WORK"))
	path := filepath.Join("testdata", "pdf-golden", name+".json")
	if *updatePDF {
		if t.Failed() {
			t.Errorf("%s not rewritten: the graph fails its fact checks", path)
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: record it with go test ./cmd/sieve -run TestPDFGolden -update once the graph is right", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("content.json differs from %s (go test ./cmd/sieve -run TestPDFGolden -update rewrites it; review the diff):\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, a, b)
		}
	}
	return ""
}
