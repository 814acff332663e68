package normalize

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// MaxDepth is the deepest element (html is depth 0) that becomes a node;
// deeper subtrees are counted in Stats.SkippedNodes.
const MaxDepth = 512

const textTag = "#text"

// walker turns a parsed tree into the node list, in one pre-order pass.
type walker struct {
	out  *Record
	base *url.URL
	// elems[i] is the tree element behind node i (nil for text nodes),
	// for style-sheet matching after the walk.
	elems      []*html.Node
	inline     map[int]declSet // parsed style attribute of node i
	styleCache map[string]declSet
	sheets     []string // text of the page's applicable <style> blocks
	cleaned    []string // sheets after cleanCSS, filled as the rules are read

	// css holds the sheets scanned and parsed once (cssonce.go).
	css *sheetCache

	sheetBytes int
	markers    map[string]bool
	resolved   map[string]string // resolve's cache
	titleSeen  bool
	depthSum   int // of emitted elements, for meanDepth
	maxNodes   int // the node budget (Limits.Nodes)

	// canvases are the <canvas> elements whose fallback content is read
	// (closedCanvases): their descendants are canvas_fallback nodes.
	canvases map[*html.Node]bool
	host     *string // the page's host, once known (pageHost)
}

// meanDepth is the mean depth of the emitted elements, at least 1.
func (w *walker) meanDepth() int {
	if w.out.Stats.Elements == 0 {
		return 1
	}
	return max(1, w.depthSum/w.out.Stats.Elements)
}

// scope is what an element's position in the tree tells about it.
type scope struct {
	depth     int
	pre       bool // inside pre, textarea, listing, xmp or plaintext
	sectioned bool // inside article, aside, main, nav or section
	canvas    bool // inside a closed <canvas>: fallback content
}

func newWalker(out *Record, base *url.URL) *walker {
	w := &walker{
		out:        out,
		base:       base,
		inline:     map[int]declSet{},
		styleCache: map[string]declSet{},
		markers:    map[string]bool{},
		resolved:   map[string]string{},
	}
	return w
}

// reserve makes room for n more nodes: the parsed tree's size bounds the
// node list, and growing it by appends copies it again and again.
func (w *walker) reserve(n int) {
	w.out.Nodes = slices.Grow(w.out.Nodes, n)
	w.elems = slices.Grow(w.elems, n)
}

func (w *walker) document(doc *html.Node) {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.ElementNode:
			w.element(c, -1, c.Data, scope{}, false)
		case html.DoctypeNode:
		default:
			w.skip(c)
		}
	}
}

func (w *walker) skip(n *html.Node) { w.out.Stats.SkippedNodes += countSubtree(n) }

// element handles one element: metadata becomes doc facts, the rest a node
// followed by its children.
func (w *walker) element(n *html.Node, parent int, path string, sc scope, collapsed bool) {
	if sc.depth > MaxDepth {
		w.skip(n)
		return
	}
	w.security(n)
	if n.Namespace == "" && w.metadata(n) {
		return
	}
	if len(w.out.Nodes) >= w.maxNodes {
		w.out.Stats.CutNodes += countSubtree(n)
		return
	}
	id := w.emit(n, parent, path, sc, collapsed)
	w.depthSum += sc.depth
	switch {
	case n.Namespace != "": // svg, math: the element only
		w.foreign(n, id)
	case n.DataAtom == atom.Canvas && w.canvases[n]:
		sc := sc.inside(n)
		sc.canvas = true
		w.children(n, id, path, sc)
	case opaqueContent(n.DataAtom):
		w.skipChildren(n)
	case n.DataAtom == atom.Video || n.DataAtom == atom.Audio:
		w.mediaChildren(n, id, path, sc.inside(n))
	default:
		w.children(n, id, path, sc.inside(n))
	}
}

// metadata handles elements that are document facts rather than content.
// It reports whether n was consumed.
func (w *walker) metadata(n *html.Node) bool {
	inHead := n.Parent != nil && n.Parent.DataAtom == atom.Head
	switch n.DataAtom {
	case atom.Script:
		w.script(n)
	case atom.Style:
		w.style(n)
	case atom.Noscript:
		w.noscript(n)
	case atom.Template, atom.Base:
	case atom.Meta, atom.Link:
		if n.DataAtom == atom.Meta {
			w.meta(n)
		} else {
			w.link(n)
		}
		if !inHead && hasAttr(n, "itemprop") {
			return false // microdata: a node
		}
	case atom.Title:
		w.title(n)
		if inHead {
			return false
		}
	default:
		if !inHead {
			return false
		}
	}
	w.skip(n)
	return true
}

// opaqueContent reports elements whose children are not read: raw text the
// parser keeps as one string (iframe, noembed, noframes) or fallback that
// a browser does not show (canvas; a closed one's fallback is read as
// canvas_fallback, see closedCanvases).
func opaqueContent(a atom.Atom) bool {
	switch a {
	case atom.Iframe, atom.Noembed, atom.Noframes, atom.Canvas:
		return true
	}
	return false
}

func (w *walker) skipChildren(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.skip(c)
	}
}

// source is the source of a node in scope sc: static, or canvas_fallback
// inside a closed <canvas>.
func (sc scope) source() string {
	if sc.canvas {
		return SourceCanvas
	}
	return SourceStatic
}

func (sc scope) inside(n *html.Node) scope {
	sc.depth++
	switch n.DataAtom {
	case atom.Pre, atom.Textarea, atom.Listing, atom.Xmp, atom.Plaintext:
		sc.pre = true
	case atom.Article, atom.Aside, atom.Main, atom.Nav, atom.Section:
		sc.sectioned = true
	}
	return sc
}

// children walks n's children. In a closed <details>, every child but the
// first <summary> element is collapsed: child elements and text nodes
// directly under details carry HiddenDetails themselves.
func (w *walker) children(n *html.Node, id int, path string, sc scope) {
	closed := n.DataAtom == atom.Details && !hasAttr(n, "open")
	summary := false
	inHead := n.DataAtom == atom.Head
	var pos siblings
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.ElementNode:
			collapsed := closed
			if closed && !summary && c.DataAtom == atom.Summary && c.Namespace == "" {
				summary, collapsed = true, false
			}
			w.element(c, id, childPath(path, c.Data, pos.next(c.Data)), sc, collapsed)
		case html.TextNode:
			if inHead {
				w.skip(c)
				continue
			}
			w.text(c, id, sc, closed)
		default:
			w.skip(c)
		}
	}
}

// mediaChildren keeps a video's or audio's source and track elements; the
// rest is fallback for browsers without media support.
func (w *walker) mediaChildren(n *html.Node, id int, path string, sc scope) {
	var pos siblings
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.DataAtom == atom.Source || c.DataAtom == atom.Track) {
			w.element(c, id, childPath(path, c.Data, pos.next(c.Data)), sc, false)
			continue
		}
		w.skip(c)
	}
}

// foreign reads an svg or math element's internals into its attributes (the
// svg <title>) and counts them as skipped.
func (w *walker) foreign(n *html.Node, id int) {
	w.foreignSecurity(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "title" && n.Data == "svg" {
			if t := strings.TrimSpace(textnorm.Text(textContent(c))); t != "" {
				node := &w.out.Nodes[id]
				if node.Attrs == nil {
					node.Attrs = map[string]string{}
				}
				node.Attrs["title"] = capText(t, maxAttrBytes)
			}
			break
		}
	}
	w.skipChildren(n)
}

func (w *walker) text(n *html.Node, parent int, sc scope, collapsed bool) {
	var t string
	if sc.pre {
		t = textnorm.Pre(n.Data)
	} else {
		t = textnorm.Text(n.Data)
	}
	if t == "" {
		w.out.Stats.SkippedNodes++
		return
	}
	if len(w.out.Nodes) >= w.maxNodes {
		w.out.Stats.CutNodes++
		return
	}
	node := Node{ID: len(w.out.Nodes), Parent: parent, Tag: textTag, Text: t, Pre: sc.pre, Source: sc.source()}
	if collapsed {
		node.Hidden, node.HiddenRule = HiddenDetails, ruleDetails
	}
	w.out.Nodes = append(w.out.Nodes, node)
	w.elems = append(w.elems, nil)
	w.out.Stats.TextNodes++
}

// emit appends the node for element n and returns its id.
func (w *walker) emit(n *html.Node, parent int, path string, sc scope, collapsed bool) int {
	id := len(w.out.Nodes)
	node := Node{
		ID:     id,
		Parent: parent,
		Tag:    n.Data,
		Path:   path,
		Role:   role(n, sc),
		Attrs:  w.attrs(n),
		Source: sc.source(),
	}
	node.Level = level(n, node.Role)
	v := w.ownVerdict(n, id, collapsed)
	node.Hidden, node.HiddenRule = v.reason, v.rule
	w.out.Nodes = append(w.out.Nodes, node)
	w.elems = append(w.elems, n)
	w.out.Stats.Elements++
	w.elementFacts(n, parent)
	return id
}

// siblings numbers elements among same-tag siblings, 1-based. The first
// eight distinct tags live in the struct itself (no allocation).
type siblings struct {
	n      int
	tags   [8]string
	counts [8]int
	m      map[string]int
}

func (s *siblings) next(tag string) int {
	if s.m != nil {
		s.m[tag]++
		return s.m[tag]
	}
	for i, t := range s.tags[:s.n] {
		if t == tag {
			s.counts[i]++
			return s.counts[i]
		}
	}
	if s.n == len(s.tags) { // many distinct tags: switch to a map
		s.m = make(map[string]int, 16)
		for i, t := range s.tags {
			s.m[t] = s.counts[i]
		}
		s.m[tag] = 1
		return 1
	}
	s.tags[s.n], s.counts[s.n] = tag, 1
	s.n++
	return 1
}

// childPath extends path by tag, with its position when it is not the
// first of its tag ("p", "p[2]").
func childPath(path, tag string, pos int) string {
	if pos > 1 {
		return path + "/" + tag + "[" + strconv.Itoa(pos) + "]"
	}
	return path + "/" + tag
}

// role is the explicit role (first token of the role attribute), else the
// implicit ARIA role of the element.
func role(n *html.Node, sc scope) string {
	if r := firstToken(attr(n, "role")); r != "" {
		return strings.ToLower(r)
	}
	if n.Namespace != "" {
		return ""
	}
	switch n.DataAtom {
	case atom.Header, atom.Footer:
		if sc.sectioned {
			return ""
		}
		if n.DataAtom == atom.Header {
			return "banner"
		}
		return "contentinfo"
	case atom.A:
		if hasAttr(n, "href") {
			return "link"
		}
		return ""
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return "heading"
	}
	return implicitRoles[n.DataAtom]
}

var implicitRoles = map[atom.Atom]string{
	atom.Nav:     "navigation",
	atom.Aside:   "complementary",
	atom.Main:    "main",
	atom.Form:    "form",
	atom.Search:  "search",
	atom.Button:  "button",
	atom.Ul:      "list",
	atom.Ol:      "list",
	atom.Li:      "listitem",
	atom.Table:   "table",
	atom.Img:     "img",
	atom.Article: "article",
	atom.Dialog:  "dialog",
	atom.Figure:  "figure",
}

// level is the heading level of a heading: aria-level when valid (capped
// at 6), else the h1–h6 number, else 2 (ARIA's default for role=heading).
func level(n *html.Node, role string) int {
	if role != "heading" {
		return 0
	}
	if lv, err := strconv.Atoi(strings.TrimSpace(attr(n, "aria-level"))); err == nil && lv >= 1 {
		return min(lv, 6)
	}
	if n.Namespace == "" && len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6' {
		return int(n.Data[1] - '0')
	}
	return 2
}

func firstToken(s string) string {
	s = strings.TrimLeft(s, " \t\n\r\f")
	if i := strings.IndexAny(s, " \t\n\r\f"); i >= 0 {
		s = s[:i]
	}
	return s
}
