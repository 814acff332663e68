package normalize

import (
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// readHTML parses the body and fills out's nodes, doc facts and stats.
func readHTML(out *Record, rec *capture.Record, lim Limits) error {
	doc, skipped := rec.ParsedBody(), 0 // capture's tier decision parsed it (in process)
	if doc == nil {
		var err error
		if doc, skipped, err = parseHTML(rec.Body); err != nil {
			return err
		}
	}
	base, declared := baseURL(doc, rec)
	w := newWalker(out, base)
	w.canvases = closedCanvases(doc, rec.Body)
	w.maxNodes = lim.nodes()
	if declared {
		out.Doc.Base = base.String()
	}
	w.out.Stats.SkippedNodes += skipped
	w.reserve(min(countSubtree(doc), w.maxNodes))
	w.document(doc)
	w.applyStyleSheets()
	w.showLoadingState()
	return nil
}

// parseHTML parses body. x/net/html refuses documents nested deeper than
// 512 open elements; such a document is parsed again with its markup cut
// to a shallower nesting (see limitDepth), and the start tags cut are
// reported as skipped.
func parseHTML(body string) (*html.Node, int, error) {
	doc, err := html.Parse(strings.NewReader(body))
	if err == nil {
		return doc, 0, nil
	}
	for _, max := range []int{256, 64} {
		cut, skipped := limitDepth(body, max)
		if doc, err = html.Parse(strings.NewReader(cut)); err == nil {
			return doc, skipped, nil
		}
	}
	return nil, 0, fmt.Errorf("parsing HTML: %w", err)
}

// baseURL is the URL relative references resolve against: the first
// <base href>, itself resolved against the final URL (or the requested URL
// when there is no final one). declared reports that a <base> gave it.
func baseURL(doc *html.Node, rec *capture.Record) (base *url.URL, declared bool) {
	page := rec.FinalURL
	if page == "" {
		page = rec.URL
	}
	u, err := url.Parse(cleanURL(page))
	if err != nil {
		u = nil
	}
	b := findFirst(doc, func(n *html.Node) bool {
		return n.Type == html.ElementNode && n.DataAtom == atom.Base && n.Namespace == "" && hasAttr(n, "href")
	})
	if b == nil {
		return u, false
	}
	href, err := url.Parse(cleanURL(attr(b, "href")))
	if err != nil {
		return u, false
	}
	if u == nil {
		return href, true
	}
	return u.ResolveReference(href), true
}

// findFirst returns the first node in tree order for which ok holds,
// walking without recursion.
func findFirst(root *html.Node, ok func(*html.Node) bool) *html.Node {
	for n := root; n != nil; n = nextInTree(n, root) {
		if ok(n) {
			return n
		}
	}
	return nil
}

// nextInTree is the node after n in pre-order within root, or nil.
func nextInTree(n, root *html.Node) *html.Node {
	if n.FirstChild != nil {
		return n.FirstChild
	}
	for ; n != root; n = n.Parent {
		if n.NextSibling != nil {
			return n.NextSibling
		}
	}
	return nil
}

// countSubtree counts n and its descendants.
func countSubtree(n *html.Node) int {
	c := 0
	for m := n; m != nil; m = nextInTree(m, n) {
		c++
	}
	return c
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return true
		}
	}
	return false
}

// textContent concatenates n's text children (script, style, title and
// other raw-text elements hold one).
func textContent(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.NextSibling == nil && c.Type == html.TextNode {
		return c.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// limitDepth rewrites body so that no element opens deeper than max,
// tracking nesting from the token stream: start tags beyond max are dropped
// (with the raw text of a dropped script, style or similar element), as are
// end tags that close nothing open. Text is kept, so deeply nested text
// still reaches the node list, under a shallower parent. The nesting model
// is approximate (implied end tags of p, li, td… are honoured, adoption of
// misnested formatting elements is not), which is why max leaves room
// below the parser's own limit of 512.
func limitDepth(body string, max int) (string, int) {
	z := html.NewTokenizer(strings.NewReader(body))
	var out strings.Builder
	out.Grow(len(body))
	var stack []string
	foreign, skipped, dropText := 0, 0, false
	for {
		tt := z.Next()
		if tt == html.ErrorToken { // io.EOF, or a read error of the string reader: none
			return out.String(), skipped
		}
		raw := z.Raw()
		switch tt {
		case html.TextToken:
			if !dropText {
				out.Write(raw)
			}
			dropText = false
			continue
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if voidElement(tag) || (tt == html.SelfClosingTagToken && foreign > 0) {
				out.Write(raw)
				continue
			}
			stack = closeImplied(stack, tag)
			if len(stack) >= max {
				skipped++
				dropText = rawTextElement(tag)
				continue
			}
			if tag == "svg" || tag == "math" {
				foreign++
			}
			stack = append(stack, tag)
		case html.EndTagToken:
			name, _ := z.TagName()
			i := lastIndex(stack, string(name))
			if i < 0 {
				continue
			}
			for _, t := range stack[i:] {
				if t == "svg" || t == "math" {
					foreign--
				}
			}
			stack = stack[:i]
		}
		dropText = false
		out.Write(raw)
	}
}

func lastIndex(stack []string, tag string) int {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == tag {
			return i
		}
	}
	return -1
}

// closeImplied pops what the start tag tag closes implicitly: a <p> before
// a block, and an element of the same kind for list items, cells, rows and
// options.
func closeImplied(stack []string, tag string) []string {
	if len(stack) == 0 {
		return stack
	}
	top := stack[len(stack)-1]
	switch {
	case top == "p" && closesP(tag):
		return stack[:len(stack)-1]
	case top == tag && selfClosingKind(tag):
		return stack[:len(stack)-1]
	}
	return stack
}

func closesP(tag string) bool {
	switch tag {
	case "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
		"figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
		"header", "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul":
		return true
	}
	return false
}

func selfClosingKind(tag string) bool {
	switch tag {
	case "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "tbody", "thead", "tfoot", "rb", "rt", "rp":
		return true
	}
	return false
}

func voidElement(tag string) bool {
	switch tag {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta",
		"param", "source", "track", "wbr":
		return true
	}
	return false
}

// rawTextElement reports elements whose content the tokenizer reads as one
// text token.
func rawTextElement(tag string) bool {
	switch tag {
	case "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext":
		return true
	}
	return false
}
