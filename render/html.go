package render

import (
	"fmt"
	"html"
	"strings"

	"github.com/sieve-dev/sieve/graph"
)

// CSP is index.html's Content-Security-Policy: no script, no image, no
// external anything; only the inline stylesheet sieve writes.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'"

const stylesheet = `body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff;overflow-wrap:anywhere}
.notice{border-left:4px solid #8a6d00;background:#fff8e1;padding:.5rem .75rem}
.outcome{border-left:4px solid #b00020;background:#fdecea;padding:.5rem .75rem;margin:1rem 0}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .75rem;font-size:.85rem;color:#555}
.meta dt{font-weight:600}.meta dd{margin:0;overflow-wrap:anywhere}
pre{background:#f5f5f7;padding:.75rem;overflow-x:auto}.outcome pre{white-space:pre-wrap}code{font-family:ui-monospace,monospace;font-size:.9em}
table{border-collapse:collapse;margin:1rem 0;display:block;overflow-x:auto}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}thead th{border-bottom:2px solid #999}tfoot td,tfoot th{border-top:2px solid #999;font-style:italic}
blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#444}
figure{border:1px dashed #aaa;padding:.5rem;margin:1rem 0}.summary{font-style:italic}
.appendix{border-top:2px solid #ddd;margin-top:2rem}`

// HTML renders index.html: the same content as index.md, for a person. All
// page-derived text is escaped; nothing from the page runs or loads.
func HTML(rec *graph.Record) []byte {
	v := newView(rec)
	h := &htmlWriter{}
	h.head(rec)
	h.line(`<p class="notice"><strong>Untrusted content.</strong>` + esc(strings.TrimPrefix(notice(rec), "Untrusted content.")) + `</p>`)
	h.meta(rec)
	if rec.Outcome.Status != graph.StatusOK {
		h.banner(rec.Outcome, rec.PDF != nil)
	}
	h.line("<main>")
	h.line("<h1>" + esc(titleOr(rec.Title)) + "</h1>")
	if c := credit(rec); c != "" {
		h.line(`<p class="byline">` + esc(oneLine(c)) + "</p>")
	}
	if v.summary != "" {
		h.line(`<p class="summary">` + escText(v.summary) + "</p>")
	}
	h.content(v)
	h.line("</main>")
	h.line(`<div class="appendix">`)
	h.actions(v)
	h.links(v)
	h.navigation(v)
	h.structured(rec)
	h.gaps(rec.Gaps)
	h.audit(rec)
	h.line("</div>")
	h.line("</body>")
	h.line("</html>")
	return []byte(h.String())
}

type htmlWriter struct {
	strings.Builder
}

func (h *htmlWriter) line(s string) {
	h.WriteString(s)
	h.WriteByte('\n')
}

// esc escapes page-derived text for an element's content or an attribute.
func esc(s string) string { return html.EscapeString(s) }

// escText escapes text and keeps its line breaks.
func escText(s string) string {
	return strings.ReplaceAll(esc(strings.TrimSpace(s)), "\n", "<br>\n")
}

// link is an anchor for http(s) hrefs and plain text for anything else
// (javascript:, data:, relative leftovers).
func link(text, href string) string {
	text = oneLine(text)
	if text == "" {
		text = href
	}
	if !webURL(href) {
		return esc(text) + " (" + esc(href) + ")"
	}
	return `<a href="` + esc(href) + `" rel="noopener noreferrer nofollow">` + esc(text) + "</a>"
}

func (h *htmlWriter) head(rec *graph.Record) {
	h.line("<!doctype html>")
	if lang := langTag(rec.Lang); lang != "" {
		h.line(`<html lang="` + lang + `">`)
	} else {
		h.line("<html>")
	}
	h.line("<head>")
	h.line(`<meta charset="utf-8">`)
	h.line(`<meta http-equiv="Content-Security-Policy" content="` + CSP + `">`)
	h.line(`<meta name="referrer" content="no-referrer">`)
	h.line(`<meta name="viewport" content="width=device-width, initial-scale=1">`)
	h.line("<title>" + esc(titleOr(rec.Title)) + "</title>")
	h.line("<style>\n" + stylesheet + "\n</style>")
	h.line("</head>")
	h.line("<body>")
}

// langTag keeps a BCP 47 tag to letters, digits and "-".
func langTag(s string) string {
	return strings.Trim(sanitize(s, func(c byte) bool {
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-'
	}), "_")
}

func (h *htmlWriter) meta(rec *graph.Record) {
	h.line(`<dl class="meta">`)
	for _, kv := range [][2]string{
		{"outcome", rec.Outcome.Status},
		{"url", rec.URL},
		{"final_url", rec.FinalURL},
		{"http_status", fmt.Sprint(rec.Outcome.HTTPStatus)},
		{"tier", rec.Provenance.Tier},
		{"content_hash", rec.ContentHash},
		{"distilled_at", rec.DistilledAt},
	} {
		h.line("<dt>" + kv[0] + "</dt><dd>" + esc(kv[1]) + "</dd>")
	}
	h.line("</dl>")
}

func (h *htmlWriter) banner(o graph.Outcome, pdf bool) {
	h.line(`<div class="outcome" role="alert">`)
	h.line("<p><strong>Outcome: " + esc(o.Status) + ".</strong> " + esc(capitalise(bannerText(o.Status, pdf))) + "</p>")
	h.line("<ul>")
	h.line(fmt.Sprintf("<li>http_status: %d</li>", o.HTTPStatus))
	for _, e := range o.Evidence {
		h.line("<li>evidence: " + esc(e) + "</li>")
	}
	h.line("</ul>")
	if o.BodyExcerpt != "" {
		h.line("<p>body_excerpt:</p>")
		h.line("<pre>" + esc(o.BodyExcerpt) + "</pre>")
	}
	h.line("</div>")
}

// content writes the content blocks, each section in a <section> whose id
// is the section id.
func (h *htmlWriter) content(v *view) {
	section, open := "", false
	used := map[string]bool{}
	list := &htmlList{w: h}
	for _, b := range v.blocks {
		if b.SectionID != section || !open {
			list.close()
			if open {
				h.line("</section>")
			}
			section, open = b.SectionID, true
			id := safeID(section)
			if used[id] || id == "" {
				h.line("<section>")
			} else {
				used[id] = true
				h.line(`<section id="` + id + `">`)
			}
		}
		if b.Type == graph.TypeListItem {
			list.item(b)
			continue
		}
		list.close()
		h.line(htmlBlock(v, b))
	}
	list.close()
	if open {
		h.line("</section>")
	}
}

func htmlBlock(v *view, b graph.Block) string {
	switch b.Type {
	case graph.TypeHeading:
		n := min(max(b.Level, 1)+1, 6)
		return fmt.Sprintf("<h%d>%s</h%d>", n, esc(oneLine(b.Text)), n)
	case graph.TypeTable:
		if len(b.Rows) > 0 {
			return htmlTable(b.Rows)
		}
	case graph.TypeCode:
		class := ""
		if lang := codeLanguage(b.Language); lang != "" {
			class = ` class="language-` + esc(lang) + `"`
		}
		return "<pre><code" + class + ">" + esc(strings.TrimSuffix(b.Text, "\n")) + "</code></pre>"
	case graph.TypeQuote:
		return "<blockquote><p>" + escText(b.Text) + "</p></blockquote>"
	case graph.TypeMedia:
		return htmlMedia(v.media[b.MediaID], b.Text)
	case graph.TypeForm:
		return `<p class="form"><strong>Form:</strong> ` + esc(formLine(v.forms[b.ID], b.Text)) + "</p>"
	}
	return "<p>" + escText(b.Text) + "</p>"
}

// htmlTable writes a table's rows; leading header rows go in <thead> and
// trailing footer rows in <tfoot> (the rest in <tbody>) when there are
// both such rows and body rows. A rowspan stops at the end of its group.
func htmlTable(rows [][]graph.Cell) string {
	head, foot := rowGroups(rows)
	var b strings.Builder
	b.WriteString("<table>\n")
	group := func(tag string, from, to int) {
		if from == to {
			return
		}
		if tag != "" {
			b.WriteString("<" + tag + ">\n")
		}
		for r := from; r < to; r++ {
			b.WriteString("<tr>")
			for _, c := range rows[r] {
				tag := "td"
				if c.Header {
					tag = "th"
				}
				b.WriteString("<" + tag)
				if n := span(c.Colspan, maxSpan); n > 1 {
					fmt.Fprintf(&b, ` colspan="%d"`, n)
				}
				if n := span(c.Rowspan, to-r); n > 1 {
					fmt.Fprintf(&b, ` rowspan="%d"`, n)
				}
				b.WriteString(">" + escText(c.Text) + "</" + tag + ">")
			}
			b.WriteString("</tr>\n")
		}
		if tag != "" {
			b.WriteString("</" + tag + ">\n")
		}
	}
	body := ""
	if head > 0 || foot > 0 {
		body = "tbody"
	}
	group("thead", 0, head)
	group(body, head, len(rows)-foot)
	group("tfoot", len(rows)-foot, len(rows))
	b.WriteString("</table>")
	return b.String()
}

func htmlMedia(m graph.Media, text string) string {
	desc := oneLine(m.Description)
	if desc == "" {
		desc = oneLine(text)
	}
	kind := m.Type
	if kind == "" {
		kind = "media"
	}
	s := "<figure><p>[" + esc(kind) + ": " + esc(desc) + "]"
	if webURL(m.Src) {
		s += " " + link("source", m.Src)
	}
	// The caption is a paragraph block of its own in the graph.
	return s + "</p></figure>"
}

// htmlList nests consecutive list items into <ul>/<ol> by their level.
type htmlList struct {
	w     *htmlWriter
	stack []htmlLevel
}

type htmlLevel struct {
	tag    string
	liOpen bool
}

func (l *htmlList) item(b graph.Block) {
	depth := max(b.Level, 1)
	tag := "ul"
	if b.Ordered {
		tag = "ol"
	}
	for len(l.stack) > depth {
		l.pop()
	}
	if len(l.stack) == depth && l.stack[depth-1].tag != tag {
		l.pop()
	}
	for len(l.stack) < depth {
		if n := len(l.stack); n > 0 && !l.stack[n-1].liOpen {
			l.w.WriteString("<li>")
			l.stack[n-1].liOpen = true
		}
		l.w.line("<" + tag + ">")
		l.stack = append(l.stack, htmlLevel{tag: tag})
	}
	top := &l.stack[depth-1]
	if top.liOpen {
		l.w.line("</li>")
	}
	l.w.WriteString("<li>" + esc(oneLine(b.Text)))
	top.liOpen = true
}

func (l *htmlList) pop() {
	top := l.stack[len(l.stack)-1]
	if top.liOpen {
		l.w.line("</li>")
	}
	l.w.line("</" + top.tag + ">")
	l.stack = l.stack[:len(l.stack)-1]
}

func (l *htmlList) close() {
	for len(l.stack) > 0 {
		l.pop()
	}
}

func (h *htmlWriter) actions(v *view) {
	if len(v.actions) == 0 {
		return
	}
	h.line("<h2>Actions</h2>")
	h.line("<ul>")
	for _, a := range v.actions {
		h.line("<li><code>" + safeID(a.ID) + "</code> (" + esc(a.Kind) + ") " + actionHTML(a) + "</li>")
	}
	h.line("</ul>")
}

func actionHTML(a graph.Action) string {
	if a.Kind == "form" {
		s := esc(formLine(a, ""))
		if a.Target != "" {
			s += " → " + esc(a.Method) + " " + link(a.Target, a.Target)
		}
		return s
	}
	label := oneLine(a.Label)
	if label == "" {
		label = "(no label)"
	}
	if a.Href == "" {
		return esc(label)
	}
	return link(label, a.Href)
}

func (h *htmlWriter) links(v *view) {
	if len(v.links) == 0 {
		return
	}
	h.line("<h2>Links</h2>")
	h.linkList(v.links, v.moreLinks)
}

func (h *htmlWriter) navigation(v *view) {
	if len(v.nav) == 0 {
		return
	}
	h.line("<h2>Navigation</h2>")
	for i, g := range v.nav {
		more := 0
		if i == len(v.nav)-1 {
			more = v.moreNav
		}
		h.line("<h3>" + esc(g.name) + "</h3>")
		h.linkList(g.links, more)
	}
}

func (h *htmlWriter) linkList(links []graph.Link, more int) {
	h.line("<ul>")
	for _, l := range links {
		h.line("<li>" + link(l.Text, l.Href) + "</li>")
	}
	if more > 0 {
		h.line(fmt.Sprintf("<li>… and %d more (see content.json links[])</li>", more))
	}
	h.line("</ul>")
}

func (h *htmlWriter) structured(rec *graph.Record) {
	if len(rec.Structured) == 0 && len(rec.FAQ) == 0 {
		return
	}
	h.line("<h2>Structured data</h2>")
	if len(rec.Structured) > 0 {
		h.line(`<pre><code class="language-json">` + esc(prettyJSON(rec.Structured)) + "</code></pre>")
	}
	if len(rec.FAQ) > 0 {
		h.line("<h3>FAQ</h3>")
		h.line("<dl>")
		for _, f := range rec.FAQ {
			h.line("<dt>" + esc(oneLine(f.Question)) + "</dt><dd>" + esc(oneLine(f.Answer)) + "</dd>")
		}
		h.line("</dl>")
	}
}

func (h *htmlWriter) gaps(gaps []graph.Gap) {
	if len(gaps) == 0 {
		return
	}
	h.line("<h2>Gaps</h2>")
	h.line("<ul>")
	for _, g := range gaps {
		h.line("<li>" + esc(gapLine(g)) + "</li>")
	}
	h.line("</ul>")
}

func (h *htmlWriter) audit(rec *graph.Record) {
	h.line("<h2>Extraction audit</h2>")
	h.line("<table>")
	for _, r := range auditRows(rec) {
		h.line("<tr><th>" + r.key + "</th><td>" + esc(r.value) + "</td></tr>")
	}
	h.line("</table>")
}
