package normalize

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// KeptAttrs are the attributes a node keeps (Node.Attrs), in the order
// documented. Values are trimmed and capped at 2048 bytes; the first of
// duplicate attributes wins. Special cases:
//   - href, src and action are resolved against <base href> or the final
//     URL (javascript:, mailto:, tel: and data: URLs are kept as written);
//   - srcset keeps its first URL only, resolved;
//   - value is never kept on <input type=password> or <input type=hidden>;
//   - content is kept only on <meta> and on elements with itemprop;
//   - an svg element's <title> child is kept as its "title".
var KeptAttrs = []string{
	"id", "class", "href", "src", "srcset", "alt", "title", "lang", "dir", "role",
	"aria-label", "aria-labelledby", "aria-describedby", "aria-hidden", "aria-expanded", "aria-level",
	"name", "type", "value", "placeholder", "action", "method", "for",
	"required", "checked", "selected", "open",
	"colspan", "rowspan", "scope", "datetime", "rel", "target",
	"itemprop", "itemtype", "itemscope", "content",
}

const maxAttrBytes = 2048

var kept = func() map[string]bool {
	m := make(map[string]bool, len(KeptAttrs))
	for _, k := range KeptAttrs {
		m[k] = true
	}
	return m
}()

func (w *walker) attrs(n *html.Node) map[string]string {
	var m map[string]string
	keep := 0
	for _, a := range n.Attr {
		if a.Namespace == "" && kept[a.Key] {
			keep++
		}
	}
	if keep == 0 {
		return nil
	}
	for _, a := range n.Attr {
		if a.Namespace != "" || !kept[a.Key] {
			continue
		}
		if _, dup := m[a.Key]; dup {
			continue
		}
		v, ok := w.attrValue(n, a.Key, a.Val)
		if !ok {
			continue
		}
		if m == nil {
			m = make(map[string]string, keep)
		}
		m[a.Key] = v
	}
	return m
}

func (w *walker) attrValue(n *html.Node, key, val string) (string, bool) {
	v := capText(strings.TrimSpace(val), maxAttrBytes)
	switch key {
	case "value":
		if secretValue(n) {
			return "", false
		}
	case "content":
		if n.DataAtom != atom.Meta && !hasAttr(n, "itemprop") {
			return "", false
		}
	case "href", "src", "action":
		v = capText(w.resolve(v), maxAttrBytes)
	case "srcset":
		v = capText(w.resolve(firstToken(v)), maxAttrBytes)
	}
	return v, true
}

// secretValue reports inputs whose value must not leave the stage.
func secretValue(n *html.Node) bool {
	if n.DataAtom != atom.Input || n.Namespace != "" {
		return false
	}
	t := inputType(n)
	return t == "password" || t == "hidden"
}

func inputType(n *html.Node) string {
	return strings.ToLower(strings.TrimSpace(attr(n, "type")))
}

// resolve makes a URL reference absolute against the document's base.
// Pages repeat their links, so results are cached per page.
func (w *walker) resolve(raw string) string {
	if raw == "" || w.base == nil || opaqueScheme(raw) {
		return raw
	}
	if abs, ok := w.resolved[raw]; ok {
		return abs
	}
	abs := raw
	if ref, err := url.Parse(cleanURL(raw)); err == nil {
		abs = w.base.ResolveReference(ref).String()
	}
	if len(w.resolved) < maxResolved {
		w.resolved[raw] = abs
	}
	return abs
}

// maxResolved bounds the per-page cache of resolved URLs.
const maxResolved = 1 << 14

func opaqueScheme(s string) bool {
	for _, p := range []string{"javascript:", "mailto:", "tel:", "data:"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

// cleanURL strips what the URL standard strips before parsing: surrounding
// spaces and controls, and tabs and newlines anywhere.
func cleanURL(s string) string {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	}
	return s
}

// capText cuts s to at most max bytes on a rune boundary.
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}
