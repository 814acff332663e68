package render

import (
	"net/url"
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

// Limits on what the appendix lists show; the rest is counted.
const (
	maxLinks = 100
	maxSpan  = 1000 // the HTML limit on colspan; also caps rowspan
)

// statusMeaning is ARTIFACT.md's table of outcome statuses, partial widened
// to every read that is not whole (DECISIONS.md: every cut is partial).
var statusMeaning = map[string]string{
	graph.StatusOK:               "content was extracted normally",
	graph.StatusBlocked:          "the site refused: HTTP 4xx/5xx, robots.txt, or a rate limit",
	graph.StatusChallenge:        "a bot-protection or entry screen answered instead of the page",
	graph.StatusAuthRequired:     "a login wall stands in front of the content",
	graph.StatusSPAShell:         "the served document is an unhydrated shell that never filled in",
	graph.StatusEmptyAfterRender: "the page rendered and genuinely carries no text",
	graph.StatusPartial:          "content was extracted, but the read was not whole (a tier fell back, or a size cap or a budget cut it)",
}

// bannerText explains a status other than ok to the reader.
func bannerText(status string, pdf bool) string {
	m, ok := statusMeaning[status]
	if !ok {
		m = "an outcome this renderer does not know"
	}
	if pdf {
		m = pdfMeaning(status, m)
	}
	if status == graph.StatusPartial {
		return m + "; what follows may be incomplete."
	}
	return m + ". What follows may describe whatever answered, not the page that was asked for."
}

// view is what both human-readable renderings show, worked out once: only
// content blocks, never latent text, chrome only as navigation links.
type view struct {
	rec       *graph.Record
	blocks    []graph.Block
	media     map[string]graph.Media
	forms     map[string]graph.Action // form actions by block id
	actions   []graph.Action
	links     []graph.Link
	moreLinks int
	nav       []navGroup
	moreNav   int
	summary   string                      // the summary shown under the title, if any
	dest      func(string) (string, bool) // a link's Markdown destination (linkDest)
	linksOf   map[string][]graph.Link     // links by block id, for blocks without link spans
}

type navGroup struct {
	name  string
	links []graph.Link
}

func newView(rec *graph.Record) *view {
	v := blocksView(rec)
	v.blocks = contentBlocks(rec.Blocks)
	for _, a := range rec.Actions {
		if a.Role == "content" {
			v.actions = append(v.actions, a)
		}
	}
	v.links, v.moreLinks = contentLinks(rec.Links)
	v.nav, v.moreNav = navigation(rec)
	v.summary = shownSummary(rec.Summary, v.blocks)
	return v
}

// blocksView is the part of a view that renders blocks (blocksMD): media,
// forms and link destinations.
func blocksView(rec *graph.Record) *view {
	if rec == nil {
		rec = &graph.Record{}
	}
	v := &view{rec: rec, media: map[string]graph.Media{}, forms: map[string]graph.Action{}, dest: linkDest(rec.FinalURL)}
	for _, m := range rec.MediaAll {
		v.media[m.ID] = m
	}
	for _, a := range rec.Actions {
		if a.Role == "content" && a.Kind == "form" && a.BlockID != "" {
			v.forms[a.BlockID] = a
		}
	}
	return v
}

// spans are block b's inline spans. A block that has links in the graph
// but no link spans (a PDF's blocks) gets them found by text, each after
// the one before.
func (v *view) spans(b *graph.Block) []graph.Inline {
	for _, sp := range b.Inline {
		if sp.Kind == graph.InlineLink {
			return b.Inline
		}
	}
	if v.linksOf == nil {
		v.linksOf = map[string][]graph.Link{}
		for _, l := range v.rec.Links {
			if l.BlockID != "" && oneLine(l.Text) != "" {
				v.linksOf[l.BlockID] = append(v.linksOf[l.BlockID], l)
			}
		}
	}
	links := v.linksOf[b.ID]
	if len(links) == 0 {
		return b.Inline
	}
	var out []graph.Inline
	at := 0
	for _, l := range links {
		t := strings.TrimSpace(l.Text)
		if l.Role != b.Role {
			continue
		}
		if i := strings.Index(b.Text[at:], t); i >= 0 && !strings.ContainsAny(t, "\r\n") {
			out = append(out, graph.Inline{Kind: graph.InlineLink, Start: at + i, End: at + i + len(t), Href: l.Href})
			at += i + len(t)
		}
	}
	for _, sp := range b.Inline {
		if !overlaps(out, sp) {
			out = append(out, sp)
		}
	}
	slices.SortStableFunc(out, func(x, y graph.Inline) int { return x.Start - y.Start })
	return out
}

func overlaps(spans []graph.Inline, sp graph.Inline) bool {
	for _, o := range spans {
		if sp.Start < o.End && o.Start < sp.End {
			return true
		}
	}
	return false
}

// contentBlocks are the content blocks of all, read only: all itself when
// every block is content (no copy: a view is made several times per
// artifact, and a block is some 250 bytes), else a copy of exactly them.
func contentBlocks(all []graph.Block) []graph.Block {
	n := 0
	for i := range all {
		if all[i].Role == "content" {
			n++
		}
	}
	if n == len(all) {
		return all[:n:n]
	}
	if n == 0 {
		return nil
	}
	out := make([]graph.Block, 0, n)
	for i := range all {
		if all[i].Role == "content" {
			out = append(out, all[i])
		}
	}
	return out
}

// credit is the line under the title naming the page's declared author
// and publication date ("By A. Writer · 2024-05-01"), "" when it declares
// neither.
func credit(rec *graph.Record) string {
	switch {
	case rec.Byline != "" && rec.Published != "":
		return "By " + rec.Byline + " · " + rec.Published
	case rec.Byline != "":
		return "By " + rec.Byline
	case rec.Published != "":
		return "Published " + rec.Published
	}
	return ""
}

// shownSummary is the summary the renderings show under the title: none
// when it is the opening of a content paragraph, which follows anyway, so
// that an agent is not handed the same sentences twice.
func shownSummary(summary string, blocks []graph.Block) string {
	if summary == "" {
		return ""
	}
	for _, b := range blocks {
		if b.Type == graph.TypeParagraph && strings.HasPrefix(strings.Join(strings.Fields(b.Text), " "), summary) {
			return ""
		}
	}
	return summary
}

// contentLinks are the content links, deduplicated by href, at most maxLinks.
func contentLinks(all []graph.Link) ([]graph.Link, int) {
	seen := map[string]bool{}
	var out []graph.Link
	more := 0
	for _, l := range all {
		if l.Role != "content" || seen[l.Href] {
			continue
		}
		seen[l.Href] = true
		if len(out) == maxLinks {
			more++
			continue
		}
		out = append(out, l)
	}
	return out, more
}

// navigation groups the chrome links by the chrome kind of their block
// (groups in order of first appearance), deduplicated by href, at most
// maxLinks in all.
func navigation(rec *graph.Record) ([]navGroup, int) {
	var kind map[string]string // block id → chrome kind, made at the first chrome link
	seen := map[string]bool{}
	index := map[string]int{}
	var groups []navGroup
	n, more := 0, 0
	for _, l := range rec.Links {
		if l.Role != "chrome" || seen[l.Href] {
			continue
		}
		seen[l.Href] = true
		if n == maxLinks {
			more++
			continue
		}
		n++
		if kind == nil {
			kind = make(map[string]string, len(rec.Blocks))
			for _, b := range rec.Blocks {
				kind[b.ID] = b.Chrome
			}
		}
		g := kind[l.BlockID]
		if g == "" {
			g = "other"
		}
		i, ok := index[g]
		if !ok {
			i = len(groups)
			index[g] = i
			groups = append(groups, navGroup{name: chromeLabel(g)})
		}
		groups[i].links = append(groups[i].links, l)
	}
	return groups, more
}

// chromeLabels are the human names of the navigation groups, by the
// chrome kind of the block the links sit in.
var chromeLabels = map[string]string{
	"navigation": "Site navigation", "header": "Header", "footer": "Footer",
	"sidebar": "Sidebar", "link_list": "Link lists", "comments": "Comments",
	"share": "Sharing", "ad": "Advertising", "cookie_banner": "Cookie notice",
	"other": "Other links",
}

// chromeLabel names a navigation group for a reader.
func chromeLabel(kind string) string {
	if l, ok := chromeLabels[kind]; ok {
		return l
	}
	return capitalise(strings.ReplaceAll(kind, "_", " "))
}

// webURL reports whether href may become a link: absolute http(s) only.
func webURL(href string) bool {
	u, err := url.Parse(href)
	if err != nil || u.Host == "" {
		return false
	}
	s := strings.ToLower(u.Scheme)
	return s == "http" || s == "https"
}

// grid is gridCells' texts.
func grid(rows [][]graph.Cell) [][]string {
	g := gridCells(rows)
	out := make([][]string, len(g))
	for r, row := range g {
		out[r] = make([]string, len(row))
		for c, cell := range row {
			out[r][c] = cell.Text
		}
	}
	return out
}

// gridCells lays a table's rows out as a rectangle: a cell spanning several
// columns or rows is followed by empty cells in the places it covers.
func gridCells(rows [][]graph.Cell) [][]graph.Cell {
	covered := map[[2]int]bool{}
	out := make([][]graph.Cell, len(rows))
	width := 0
	// A rowspan stops at the end of its group (header, body, footer).
	head, foot := rowGroups(rows)
	groupEnd := func(r int) int {
		switch {
		case r < head:
			return head
		case r < len(rows)-foot:
			return len(rows) - foot
		}
		return len(rows)
	}
	for r, row := range rows {
		c := 0
		skip := func() {
			for covered[[2]int{r, c}] {
				out[r] = append(out[r], graph.Cell{})
				c++
			}
		}
		for _, cell := range row {
			skip()
			cs, rs := span(cell.Colspan, maxSpan), span(cell.Rowspan, groupEnd(r)-r)
			out[r] = append(out[r], cell)
			for k := 1; k < cs; k++ {
				out[r] = append(out[r], graph.Cell{})
			}
			for dr := 1; dr < rs; dr++ {
				for dc := 0; dc < cs; dc++ {
					covered[[2]int{r + dr, c + dc}] = true
				}
			}
			c += cs
		}
		skip()
		width = max(width, len(out[r]))
	}
	for r := range out {
		for len(out[r]) < width {
			out[r] = append(out[r], graph.Cell{})
		}
	}
	return out
}

func span(n, limit int) int {
	return max(1, min(n, limit))
}

// rowGroups counts a table's leading header rows (every cell a header) and
// trailing footer rows (every cell a footer: the graph puts a <tfoot>'s
// rows last), each only when at least one other row is left for the body.
func rowGroups(rows [][]graph.Cell) (head, foot int) {
	every := func(row []graph.Cell, is func(graph.Cell) bool) bool {
		for _, c := range row {
			if !is(c) {
				return false
			}
		}
		return len(row) > 0
	}
	for foot < len(rows) && every(rows[len(rows)-1-foot], func(c graph.Cell) bool { return c.Footer }) {
		foot++
	}
	for head < len(rows)-foot && every(rows[head], func(c graph.Cell) bool { return c.Header && !c.Footer }) {
		head++
	}
	if head+foot == len(rows) {
		return 0, 0 // no body: the rows are shown as they are
	}
	return head, foot
}

// headerRow reports whether a table's first row is a header row.
func headerRow(rows [][]graph.Cell) bool {
	if len(rows) == 0 {
		return false
	}
	for _, c := range rows[0] {
		if c.Header {
			return true
		}
	}
	return false
}

// number formats a figure as the JSON files do.
func number(f float64) string {
	b, err := codec.Marshal(f)
	if err != nil {
		return "null" // NaN or Inf, which no figure should be
	}
	return string(b)
}

func optNumber(f *float64) string {
	if f == nil {
		return "unknown"
	}
	return number(*f)
}

func optBool(b *bool) string {
	switch {
	case b == nil:
		return "unknown"
	case *b:
		return "true"
	}
	return "false"
}

// safeID keeps an id to [A-Za-z0-9_], so it cannot break out of the HTML
// comment or attribute it is written into.
func safeID(id string) string {
	return sanitize(id, func(c byte) bool {
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	})
}

// codeLanguage keeps a code block's language to a safe info-string word.
func codeLanguage(lang string) string {
	return strings.Trim(sanitize(lang, func(c byte) bool {
		return slugByte(c) || c == '+' || c == '#'
	}), "_")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
