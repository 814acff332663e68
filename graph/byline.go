package graph

import (
	"slices"
	"strings"
	"time"

	"github.com/sieve-dev/sieve/normalize"
)

// The byline and the publication date come from the page's own metadata —
// schema.org data (JSON-LD, then microdata), then meta tags — and never
// from a guess at its prose: a page that does not declare them has none.
// Microdata on hidden elements does not count (hidden text is latent). A
// PDF's Info Author is its byline; its CreationDate is when the file was
// made, not when the work was published, so it is not a publication date.

// articleTypes are the schema.org types whose author and datePublished
// describe the page, most specific first.
var articleTypes = []string{"NewsArticle", "BlogPosting", "TechArticle", "ScholarlyArticle", "Report", "Article", "WebPage"}

// Meta names read, in order of preference.
var (
	bylineMeta    = []string{"author", "article:author", "dc.creator", "dcterms.creator", "citation_author"}
	publishedMeta = []string{"article:published_time", "citation_publication_date", "citation_date", "dc.date.issued", "dcterms.issued", "dcterms.created", "dc.date", "dcterms.date", "date"}
)

// maxBylineRunes bounds a byline: a list of names, not a paragraph.
const maxBylineRunes = 200

// pageByline is who the page says wrote it, "" when it does not say.
func pageByline(rec *normalize.Record, t *tree, structured map[string]any) string {
	for _, typ := range articleTypes {
		for _, item := range ldItems(structured, typ) {
			if s := cleanByline(authorNames(item["author"])); s != "" {
				return s
			}
		}
	}
	if s := cleanByline(microdata(t, "author")); s != "" {
		return s
	}
	for _, k := range bylineMeta {
		if s := cleanByline(rec.Doc.Meta[k]); s != "" {
			return s
		}
	}
	if p := rec.Capture.PDF; p != nil {
		return cleanByline(p.Metadata["Author"])
	}
	return ""
}

// pagePublished is the page's declared publication date, normalised
// (publishedDate), "" when it declares none that parses.
func pagePublished(rec *normalize.Record, t *tree, structured map[string]any) string {
	for _, typ := range articleTypes {
		for _, item := range ldItems(structured, typ) {
			if s, _ := item["datePublished"].(string); publishedDate(s) != "" {
				return publishedDate(s)
			}
		}
	}
	if s := publishedDate(microdata(t, "datePublished")); s != "" {
		return s
	}
	for _, k := range publishedMeta {
		if s := publishedDate(rec.Doc.Meta[k]); s != "" {
			return s
		}
	}
	return ""
}

func ldItems(structured map[string]any, typ string) []map[string]any {
	items, _ := structured[typ].([]map[string]any)
	return items
}

// authorNames reads a schema.org author: a name, a Person or Organization
// (structuredData keeps its name), or a list of those.
func authorNames(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		s, _ := x["name"].(string)
		return s
	case []any:
		var names []string
		for _, e := range x {
			if s := strings.TrimSpace(authorNames(e)); s != "" && !slices.Contains(names, s) {
				names = append(names, s)
			}
		}
		return strings.Join(names, ", ")
	}
	return ""
}

// microdata is the value of the first visible element with itemprop=prop:
// its content or datetime attribute, else the itemprop=name inside it, else
// its text.
func microdata(t *tree, prop string) string {
	if t == nil {
		return ""
	}
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.Tag == "#text" || t.hidden(i) || !hasToken(n.Attrs["itemprop"], prop) {
			continue
		}
		for _, k := range []string{"content", "datetime"} {
			if v := strings.TrimSpace(n.Attrs[k]); v != "" {
				return v
			}
		}
		if _, scope := n.Attrs["itemscope"]; scope {
			if name := t.descendantProp(i, "name"); name >= 0 {
				return t.textOf(name)
			}
		}
		return t.textOf(i)
	}
	return ""
}

// descendantProp is the first visible element under i with itemprop=prop.
func (t *tree) descendantProp(i int, prop string) int {
	for _, c := range t.children[i] {
		if t.nodes[c].Tag == "#text" || t.hidden(c) {
			continue
		}
		if hasToken(t.nodes[c].Attrs["itemprop"], prop) {
			return c
		}
		if d := t.descendantProp(c, prop); d >= 0 {
			return d
		}
	}
	return -1
}

func hasToken(list, tok string) bool {
	return slices.Contains(strings.Fields(list), tok)
}

// cleanByline trims a declared byline: one line, a leading "By " dropped,
// URLs (article:author is often a profile URL) and over-long values
// refused.
func cleanByline(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 3 && strings.EqualFold(s[:3], "by ") {
		s = strings.TrimSpace(s[3:])
	}
	if s == "" || strings.Contains(s, "://") || strings.HasPrefix(s, "www.") || runes(s) > maxBylineRunes {
		return ""
	}
	return s
}

// dateLayouts are the forms pages write dates in, longest first.
var dateLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700", time.RFC1123Z,
}

var dateOnlyLayouts = []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02", "2006/01/02", "2006.01.02", "20060102"}

// publishedDate normalises a declared date: RFC 3339 when it has a time
// and a zone, YYYY-MM-DD when it has no zone (the day is what it says;
// its instant is not known), "" when it does not parse.
func publishedDate(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return ""
	}
	for _, l := range dateLayouts {
		if d, err := time.Parse(l, s); err == nil && d.Year() >= 1000 {
			return d.Format(time.RFC3339)
		}
	}
	for _, l := range dateOnlyLayouts {
		if d, err := time.Parse(l, s); err == nil && d.Year() >= 1000 {
			return d.Format("2006-01-02")
		}
	}
	return ""
}
