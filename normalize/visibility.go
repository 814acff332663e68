package normalize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/andybalholm/cascadia"
	"github.com/aymerick/douceur/parser"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// SROnlyClasses are the class names that mark screen-reader-only content
// (HiddenSROnly). A class list that also holds a focusable variant
// ("sr-only-focusable", "visually-hidden-focusable", any "*-focusable" or
// "focusable") is not hidden: such an element, usually a skip link, shows
// itself on keyboard focus.
var SROnlyClasses = []string{
	"sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text", "screenreader",
	"a11y-hidden", "element-invisible", "u-visually-hidden", "is-visually-hidden", "offscreen",
}

var srOnlyClass = func() map[string]bool {
	m := make(map[string]bool, len(SROnlyClasses))
	for _, c := range SROnlyClasses {
		m[c] = true
	}
	return m
}()

// Evidence strings for the verdicts that are not declarations.
const (
	ruleDetails     = "details without open"
	ruleDialog      = "dialog without open"
	ruleHiddenInput = `input type="hidden"`
)

// maxInlineStyle is how much of a style attribute is read.
const maxInlineStyle = 8 << 10

type verdict struct{ reason, rule string }

// ownVerdict decides what, on the element itself, hides it. The first that
// applies wins, in this order: hidden input, hidden attribute, closed
// dialog, closed details (collapsed), inline style, screen-reader-only
// class. Style-sheet rules are applied after the walk, to elements with no
// verdict yet. An inline display other than none shows an element the
// hidden attribute or a closed dialog would hide (those hide by a
// user-agent display:none, which an author style overrides).
func (w *walker) ownVerdict(n *html.Node, id int, collapsed bool) verdict {
	decls := w.inlineStyle(n, id)
	if n.Namespace == "" {
		switch {
		case n.DataAtom == atom.Input && inputType(n) == "hidden":
			return verdict{HiddenInput, ruleHiddenInput}
		case hasAttr(n, "hidden") && !decls.displayed():
			return verdict{HiddenAttr, hiddenAttrRule(n)}
		case n.DataAtom == atom.Dialog && !hasAttr(n, "open") && !decls.displayed():
			return verdict{HiddenDialog, ruleDialog}
		}
	}
	if collapsed {
		return verdict{HiddenDetails, ruleDetails}
	}
	if reason, used := hides(decls); reason != "" {
		return verdict{reason, inlineEvidence(used)}
	}
	if rule, ok := sameColorInline(n, decls); ok {
		return verdict{HiddenSameColor, rule}
	}
	if c := srOnly(attr(n, "class")); c != "" {
		return verdict{HiddenSROnly, `class="` + c + `"`}
	}
	return verdict{}
}

func hiddenAttrRule(n *html.Node) string {
	if v := strings.TrimSpace(attr(n, "hidden")); v != "" && !strings.EqualFold(v, "hidden") {
		return `attribute hidden="` + capText(v, 64) + `"`
	}
	return "attribute hidden"
}

// srOnly returns the screen-reader-only class of a class list, or "".
// ASCII classes are lower-cased into a buffer, not a new string.
func srOnly(class string) string {
	hit := ""
	var buf [32]byte
	for rest := class; ; {
		c := nextField(&rest)
		if c == "" {
			return hit
		}
		var lc string
		if len(c) <= len(buf) && isASCII(c) {
			b := buf[:len(c)]
			for i := 0; i < len(c); i++ {
				b[i] = lowerASCII(c[i])
			}
			lc = unsafeString(b)
		} else {
			lc = strings.ToLower(c)
		}
		if lc == "focusable" || strings.HasSuffix(lc, "-focusable") {
			return ""
		}
		if hit == "" && srOnlyClass[lc] {
			hit = c
		}
	}
}

// nextField cuts the next field, as strings.Fields splits, off *rest; ""
// when there is none.
func nextField(rest *string) string {
	s := strings.TrimLeftFunc(*rest, unicode.IsSpace)
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	*rest = s[end:]
	return s[:end]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// unsafeString views b as a string; b must not change while it is used.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// inlineStyle parses n's style attribute (cached by its text) and keeps
// it for the style-sheet pass.
func (w *walker) inlineStyle(n *html.Node, id int) declSet {
	s := strings.TrimSpace(attr(n, "style"))
	if s == "" {
		return nil
	}
	if len(s) > maxInlineStyle {
		s = s[:maxInlineStyle]
	}
	if !mentionsJudgedProperty(s) {
		return nil
	}
	d, ok := w.styleCache[s]
	if !ok {
		d = parseDecls(s)
		if len(w.styleCache) < 4096 {
			w.styleCache[s] = d
		}
	}
	if len(d) > 0 {
		w.inline[id] = d
	}
	return d
}

// judgedProperties are the names, or parts of names, of every property
// the visibility tests read (declSet.get): a declaration block that
// mentions none of them reads as empty, and is not parsed.
var judgedProperties = []string{
	"display", "visibility", "opacity", "text-indent", "position", "left", "top", "right",
	"clip", "font-size", "overflow", "width", "height", "color",
}

func mentionsJudgedProperty(s string) bool {
	s = strings.ToLower(s)
	for _, p := range judgedProperties {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// decl is one CSS declaration, property and value lower-cased.
type decl struct {
	prop, value string
	important   bool
}

// declSet is a declaration block in source order.
type declSet []decl

// parseDecls reads a declaration list with douceur. See cleanCSS for the
// guards against input that would make the parser slow.
func parseDecls(s string) declSet {
	s = cleanCSS(s+";", true)
	if !cheapToParse(s) {
		return nil
	}
	ds, _ := parser.NewParser(s).ParseDeclarations()
	return toDecls(ds)
}

// get returns the declaration that wins for prop: the last !important
// one, else the last one.
func (d declSet) get(prop string) (decl, bool) {
	var found decl
	ok := false
	for _, x := range d {
		if x.prop != prop || (ok && found.important && !x.important) {
			continue
		}
		found, ok = x, true
	}
	return found, ok
}

// displayed reports a display declaration other than none.
func (d declSet) displayed() bool {
	v, ok := d.get("display")
	return ok && v.value != "none"
}

// hides applies the visibility tests to one declaration block and returns
// the reason and the declarations that fired. Properties combine only
// within the block given.
func hides(d declSet) (string, []decl) {
	if len(d) == 0 {
		return "", nil
	}
	if v, ok := d.get("display"); ok && v.value == "none" {
		return HiddenDisplay, []decl{v}
	}
	if v, ok := d.get("visibility"); ok && (v.value == "hidden" || v.value == "collapse") {
		return HiddenVisibility, []decl{v}
	}
	if v, ok := d.get("opacity"); ok && zeroNumber(v.value) {
		return HiddenOpacity, []decl{v}
	}
	if used := offscreen(d); used != nil {
		return HiddenOffscreen, used
	}
	if used := clipped(d); used != nil {
		return HiddenClip, used
	}
	if v, ok := d.get("font-size"); ok && zeroNumber(v.value) {
		return HiddenFontSize, []decl{v}
	}
	if used := zeroSize(d); used != nil {
		return HiddenZeroSize, used
	}
	return "", nil
}

// offscreen: text-indent ≤ -999px, or position absolute/fixed with left,
// top, right or margin-left ≤ -999px.
func offscreen(d declSet) []decl {
	if v, ok := d.get("text-indent"); ok && farNegative(v.value) {
		return []decl{v}
	}
	pos, ok := d.get("position")
	if !ok || (pos.value != "absolute" && pos.value != "fixed") {
		return nil
	}
	for _, p := range []string{"left", "top", "right", "margin-left"} {
		if v, ok := d.get(p); ok && farNegative(v.value) {
			return []decl{pos, v}
		}
	}
	return nil
}

// clipped: clip to an empty rect, or clip-path inset(≥50%) / circle(0).
func clipped(d declSet) []decl {
	if v, ok := d.get("clip"); ok && emptyRect(v.value) {
		return []decl{v}
	}
	if v, ok := d.get("clip-path"); ok && emptyShape(v.value) {
		return []decl{v}
	}
	return nil
}

// zeroSize: width, height, max-width or max-height of at most 1px with
// overflow hidden or clip.
func zeroSize(d declSet) []decl {
	ov, ok := d.get("overflow")
	if !ok {
		return nil
	}
	if f := firstToken(ov.value); f != "hidden" && f != "clip" {
		return nil
	}
	for _, p := range []string{"width", "height", "max-width", "max-height"} {
		if v, ok := d.get(p); ok && tinyLength(v.value) {
			return []decl{v, ov}
		}
	}
	return nil
}

func inlineEvidence(used []decl) string {
	parts := make([]string, len(used))
	for i, d := range used {
		parts[i] = d.prop + ":" + d.value
	}
	return `style="` + capText(strings.Join(parts, ";"), 256) + `"`
}

func sheetEvidence(sel string, used []decl) string {
	parts := make([]string, len(used))
	for i, d := range used {
		parts[i] = d.prop + ": " + d.value
	}
	return capText(sel, 256) + " { " + capText(strings.Join(parts, "; "), 256) + " }"
}

// number splits a CSS numeric value into its number and unit.
func number(v string) (float64, string, bool) {
	i := 0
	for i < len(v) && strings.IndexByte("+-.0123456789", v[i]) >= 0 {
		i++
	}
	f, err := strconv.ParseFloat(v[:i], 64)
	if err != nil {
		return 0, "", false
	}
	return f, strings.TrimSpace(v[i:]), true
}

// zeroNumber: 0 in any unit ("0", "0.0", "0%", "0px", "0em").
func zeroNumber(v string) bool {
	f, _, ok := number(v)
	return ok && f == 0
}

// px converts a length to CSS pixels; em and rem count as 16px. Lengths
// in other units are not judged.
func px(v string) (float64, bool) {
	f, unit, ok := number(v)
	if !ok {
		return 0, false
	}
	switch unit {
	case "px":
		return f, true
	case "":
		return f, f == 0
	case "em", "rem":
		return f * 16, true
	case "pt":
		return f * 4 / 3, true
	}
	return 0, false
}

func farNegative(v string) bool {
	p, ok := px(v)
	return ok && p <= -999
}

func tinyLength(v string) bool {
	if zeroNumber(v) {
		return true
	}
	p, ok := px(v)
	return ok && p <= 1
}

// args splits the arguments of a CSS function value "name(a, b c)".
func args(v, name string) ([]string, bool) {
	if !strings.HasPrefix(v, name+"(") || !strings.HasSuffix(v, ")") {
		return nil, false
	}
	inner := v[len(name)+1 : len(v)-1]
	return strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }), true
}

// emptyRect: rect(top, right, bottom, left) with no area.
func emptyRect(v string) bool {
	a, ok := args(v, "rect")
	if !ok || len(a) != 4 {
		return false
	}
	var e [4]float64
	for i, s := range a {
		if e[i], ok = px(s); !ok {
			return false
		}
	}
	return e[2] <= e[0] || e[1] <= e[3]
}

// emptyShape: inset() that meets in the middle, circle(0) or ellipse(0 …).
func emptyShape(v string) bool {
	if a, ok := args(v, "inset"); ok {
		return emptyInset(a)
	}
	for _, name := range []string{"circle", "ellipse"} {
		if a, ok := args(v, name); ok && len(a) > 0 {
			return zeroNumber(a[0])
		}
	}
	return false
}

func emptyInset(a []string) bool {
	var p []float64
	for _, s := range a {
		if s == "round" {
			break
		}
		f, unit, ok := number(s)
		if !ok || (unit != "%" && f != 0) {
			return false
		}
		p = append(p, f)
	}
	switch len(p) {
	case 1:
		return p[0] >= 50
	case 2:
		return p[0] >= 50 || p[1] >= 50
	case 3:
		return p[0]+p[2] >= 100 || p[1] >= 50
	case 4:
		return p[0]+p[2] >= 100 || p[1]+p[3] >= 100
	}
	return false
}

// Loading states: a page that hides itself until a script has run
// ("anti-flicker": body { visibility: hidden }, .async-hide { opacity: 0 }
// on html, [v-cloak] { display: none } or .loading { visibility: hidden }
// on the wrapper of the whole page). Read literally, every word would be
// latent and the page empty; a browser shows the page a moment later.
// showLoadingState lifts such a display, visibility or opacity hide, in a
// page that has scripts, and records it in Doc.RootHidden ("tag: rule").
// Hiding anywhere else, a page without scripts (nothing will ever show
// it) and a page that shows text of its own beside the hidden part keep
// their verdicts, so hidden text inside a visible page stays latent.
// It first lets through what a zero font size does not hide
// (showFontSizeResets), as both run once the style sheets are applied.
func (w *walker) showLoadingState() {
	w.showFontSizeResets()
	if w.out.Doc.Scripts.Count == 0 {
		return
	}
	var found []string
	if id := w.showRoot(&found); id >= 0 {
		w.showWrapper(id, &found)
	}
	w.out.Doc.RootHidden = strings.Join(found, "; ")
}

// loadingHide reports whether reason is one a loading state uses.
func loadingHide(reason string) bool {
	return reason == HiddenDisplay || reason == HiddenVisibility || reason == HiddenOpacity
}

// showRoot lifts a loading-state hide on html and body and returns body's
// id, or -1.
func (w *walker) showRoot(found *[]string) int {
	root := -1
	for id := range w.out.Nodes {
		n := &w.out.Nodes[id]
		isRoot := n.Tag == "html" && n.Parent == -1
		isBody := n.Tag == "body" && n.Parent == root && root >= 0
		if !isRoot && !isBody {
			continue
		}
		if isRoot {
			root = id
		}
		if loadingHide(n.Hidden) {
			*found = append(*found, n.Tag+": "+n.HiddenRule)
			n.Hidden, n.HiddenRule = "", ""
		}
		if isBody {
			return id
		}
	}
	return -1
}

// showWrapper lifts a loading-state hide on the element that holds at
// least half of body's text, and 500 bytes or more, when the page shows
// next to nothing else (under 200 bytes of text, or 5%): a wrapper of the
// whole page kept hidden until a script has run.
func (w *walker) showWrapper(body int, found *[]string) {
	nodes := w.out.Nodes
	if !anyLoadingHide(nodes[body+1:]) {
		return
	}
	size := make([]int, len(nodes)) // text bytes in each subtree
	for i := len(nodes) - 1; i > body; i-- {
		if nodes[i].Tag == textTag && nodes[i].Text != " " {
			size[i] += len(nodes[i].Text)
		}
		if p := nodes[i].Parent; p >= 0 {
			size[p] += size[i]
		}
	}
	total := size[body]
	if w.out.Nodes[body].Hidden != "" || total < 500 {
		return
	}
	hidden := make([]bool, len(nodes)) // under a hidden element
	hiddenText, best := 0, -1
	for i := body + 1; i < len(nodes); i++ {
		p := nodes[i].Parent
		if p >= 0 && hidden[p] {
			hidden[i] = true
			continue
		}
		if nodes[i].Hidden == "" {
			continue
		}
		hidden[i] = true
		hiddenText += size[i]
		if best < 0 && loadingHide(nodes[i].Hidden) && loadingNamed(&nodes[i]) && size[i]*2 >= total {
			best = i
		}
	}
	if best < 0 || total-hiddenText >= max(200, total/20) {
		return
	}
	n := &w.out.Nodes[best]
	*found = append(*found, n.Tag+": "+n.HiddenRule)
	n.Hidden, n.HiddenRule = "", ""
}

// loadingWords name a loading state in a wrapper's class, id or hiding
// rule: [v-cloak], .async-hide, .loading, .preload, anti-flicker snippets.
var loadingWords = []string{"loading", "preload", "cloak", "async-hide", "anti-flicker"}

// loadingNamed reports whether n says it is a loading state. A hidden
// wrapper without such a name stays hidden however little the page shows
// beside it: otherwise a page showing one line and hiding a long text for
// agents would have that text read as content.
func loadingNamed(n *Node) bool {
	s := strings.ToLower(n.HiddenRule + " " + n.Attrs["class"] + " " + n.Attrs["id"])
	for _, w := range loadingWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func anyLoadingHide(nodes []Node) bool {
	for i := range nodes {
		if loadingHide(nodes[i].Hidden) {
			return true
		}
	}
	return false
}

// showFontSizeResets lets through what a zero font size does not hide. A
// row set to font-size 0 (closing the gaps between inline-block columns)
// whose columns set a size again shows the columns: the verdict moves from
// the zero-size element to its own text and to the children that set no
// size of their own. Only an absolute, non-zero size declared on the
// descendant itself (inline or in a matched rule) counts, so text hidden by
// a zero font size stays latent unless the page explicitly shows it again.
func (w *walker) showFontSizeResets() {
	zero := false
	for i := range w.out.Nodes {
		if w.out.Nodes[i].Hidden == HiddenFontSize && w.out.Nodes[i].Tag != textTag {
			zero = true
			break
		}
	}
	if !zero {
		return
	}
	sized := w.sizedElements()
	nodes := w.out.Nodes
	below := make([]bool, len(nodes)) // a strict descendant sets a size
	kids := make([][]int, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		if p := nodes[i].Parent; p >= 0 {
			below[p] = below[p] || below[i] || sized[i]
			kids[p] = append(kids[p], i)
		}
	}
	for i := range nodes {
		n := &nodes[i]
		if n.Hidden == HiddenFontSize && n.Tag != textTag && below[i] {
			rule := n.HiddenRule
			n.Hidden, n.HiddenRule = "", ""
			spreadZeroSize(nodes, kids, sized, below, i, rule)
		}
	}
}

// spreadZeroSize hides the children of id that inherit its zero size:
// text that is not blank, and elements that set no size again (or, when a
// descendant of theirs does, their own children in turn).
func spreadZeroSize(nodes []Node, kids [][]int, sized, below []bool, id int, rule string) {
	for j := len(kids[id]) - 1; j >= 0; j-- { // kids were gathered last first
		c := kids[id][j]
		n := &nodes[c]
		switch {
		case n.Hidden != "" || sized[c] || n.Tag == textTag && strings.TrimSpace(n.Text) == "":
		case n.Tag != textTag && below[c]:
			spreadZeroSize(nodes, kids, sized, below, c, rule)
		default:
			n.Hidden, n.HiddenRule = HiddenFontSize, rule
		}
	}
}

// sizedElements marks the elements whose inline style or a matched
// style-sheet rule sets an absolute, non-zero font size.
func (w *walker) sizedElements() []bool {
	sized := make([]bool, len(w.out.Nodes))
	for id, d := range w.inline {
		if v, ok := d.get("font-size"); ok && absoluteSize(v.value) {
			sized[id] = true
		}
	}
	rules := w.sizingRules()
	if len(rules) == 0 {
		return sized
	}
	w.matchRules(rules, func(id int) bool { return sized[id] }, func(id int, _ string, _ cascadia.Sel, _ hidingRule) { sized[id] = true })
	return sized
}

// sizingRules reads the page's style sheets again (only pages with a zero
// font size get here) for the rules that set an absolute font size.
func (w *walker) sizingRules() []hidingRule {
	return w.sheetRules(blockOnly(func(block string) bool { return valueOf(block, "font-size", absoluteSize) }), func(d declSet) bool {
		v, ok := d.get("font-size")
		return ok && absoluteSize(v.value)
	}, false)
}

// absoluteSizeKeywords are the font-size keywords that do not depend on
// the parent's size.
var absoluteSizeKeywords = map[string]bool{
	"xx-small": true, "x-small": true, "small": true, "medium": true, "large": true,
	"x-large": true, "xx-large": true, "xxx-large": true, "initial": true,
}

// absoluteSize reports a font size above zero that does not scale with
// the parent's (em, %, ex, ch and "inherit" of a zero size are zero).
func absoluteSize(v string) bool {
	v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
	if absoluteSizeKeywords[v] {
		return true
	}
	f, unit, ok := number(v)
	if !ok || f <= 0 {
		return false
	}
	switch unit {
	case "px", "pt", "pc", "rem", "in", "cm", "mm", "q", "vw", "vh", "vmin", "vmax":
		return true
	}
	return false
}
