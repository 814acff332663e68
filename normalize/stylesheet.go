package normalize

import (
	"strings"

	"github.com/andybalholm/cascadia"
	"github.com/aymerick/douceur/css"
	"github.com/aymerick/douceur/parser"
	"golang.org/x/net/html"
)

// Limits on the page's own style sheets.
const (
	maxStyleBytes      = 1 << 20    // one <style> block (cut at its last "}" within)
	maxSheetBytes      = 4 << 20    // all <style> blocks together
	maxHidingSelectors = 1000       // selectors of hiding rules matched against the tree
	maxMatchWork       = 20_000_000 // elements tested against selectors, weighted by ancestor walks
	maxMediaNesting    = 4
)

// style keeps the text of a <style> block that applies to screens.
func (w *walker) style(n *html.Node) {
	if !cssType(attr(n, "type")) || !mediaApplies(attr(n, "media")) {
		return
	}
	t := textContent(n)
	if len(t) > maxStyleBytes {
		t = t[:strings.LastIndexByte(t[:maxStyleBytes], '}')+1]
	}
	if t == "" || w.sheetBytes+len(t) > maxSheetBytes {
		return
	}
	w.sheetBytes += len(t)
	w.sheets = append(w.sheets, t)
}

func cssType(t string) bool {
	t = mediaType(t)
	return t == "" || t == "text/css"
}

// mediaApplies accepts an empty media query, "all" and "screen" (with or
// without "only"); anything else (print, a width condition…) is skipped.
func mediaApplies(q string) bool {
	switch strings.Join(strings.Fields(strings.ToLower(q)), " ") {
	case "", "all", "screen", "only screen", "only all":
		return true
	}
	return false
}

// hidingRule is a style-sheet rule whose declarations hide what it matches
// (or, in the cascade's second look, show it).
type hidingRule struct {
	selectors []string
	decls     declSet
	order     int // its place among the rules collected, in document order
}

// hidingRules parses the collected style sheets and returns their hiding
// rules in document order, counting the rules considered.
func (w *walker) hidingRules() []hidingRule {
	return w.sheetRules(blockOnly(mayHide), func(d declSet) bool { r, _ := hides(d); return r != "" }, true)
}

// sheetRules parses the page's style sheets, pruned to the rules whose
// selector list (prelude) and lower-cased declaration block pass keep, and
// returns the rules whose parsed declarations pass want, in document order.
// count adds the rules seen to Stats.StyleRules (once per page).
func (w *walker) sheetRules(keep func(prelude, block string) bool, want func(declSet) bool, count bool) []hidingRule {
	var out []hidingRule
	if w.css == nil {
		w.css = &sheetCache{}
	}
	for k, sheet := range w.sheets {
		if len(w.cleaned) <= k {
			w.cleaned = append(w.cleaned, cleanCSS(sheet, false))
		}
		// The sheet is scanned and its rules parsed once per page
		// (cssonce.go); the pruned text still decides cheapToParse.
		pieces, n := w.css.pieces(k, w.cleaned[k])
		s, kept := prune(pieces, keep)
		if count {
			w.out.Stats.StyleRules += n
		}
		if !cheapToParse(s) {
			continue
		}
		var ok bool
		if out, ok = w.css.compose(pieces, kept, out, want); ok {
			continue
		}
		// ParseRules stops at the first syntax error and returns the
		// rules before it.
		rules, _ := parser.NewParser(s).ParseRules()
		out = collectRules(rules, out, want, 0)
	}
	return out
}

func collectRules(rules []*css.Rule, out []hidingRule, want func(declSet) bool, depth int) []hidingRule {
	for _, r := range rules {
		switch {
		case r.Kind == css.QualifiedRule:
			if d := toDecls(r.Declarations); want(d) {
				out = append(out, hidingRule{selectors: r.Selectors, decls: d, order: len(out)})
			}
		case strings.EqualFold(r.Name, "@media") && mediaApplies(r.Prelude) && depth < maxMediaNesting:
			out = collectRules(r.Rules, out, want, depth+1)
		}
	}
	return out
}

func toDecls(ds []*css.Declaration) declSet {
	out := make(declSet, 0, len(ds))
	for _, d := range ds {
		out = append(out, decl{
			prop:      strings.ToLower(strings.TrimSpace(d.Property)),
			value:     strings.ToLower(strings.TrimSpace(d.Value)),
			important: d.Important,
		})
	}
	return out
}

// applyStyleSheets matches each hiding rule's selectors against the
// elements they can match (elementIndex) and gives the matched elements
// that have no verdict yet the rule's. The first matching rule in document
// order wins; specificity is not modelled. The element's inline style is
// laid over the rule's declarations (an !important rule declaration beats
// a normal inline one), so an inline display:block undoes a sheet's
// display:none.
func (w *walker) applyStyleSheets() {
	rules := w.hidingRules()
	if len(rules) == 0 {
		return
	}
	c := cascade{}
	w.matchRules(rules, nil, func(id int, sel string, _ cascadia.Sel, r hidingRule) {
		before := w.out.Nodes[id].Hidden
		w.applyRule(id, sel, r.decls)
		c.hidden(id, before == "" && w.out.Nodes[id].Hidden != "", r, w.inline[id])
	})
	w.showByCascade(c)
}

// matchRules calls apply for every element a selector of rules matches, in
// rule order, skipping the elements skip rejects (nil skips none). The
// work is bounded: at most maxHidingSelectors selectors and maxMatchWork
// candidate checks, each combinator counted as a walk up the ancestors;
// past either bound the rest is not matched and it reports false.
func (w *walker) matchRules(rules []hidingRule, skip func(id int) bool, apply func(id int, sel string, m cascadia.Sel, r hidingRule)) (complete bool) {
	index := newElementIndex(w.elems, keysOf(rules))
	work, matched := 0, 0
	for _, r := range rules {
		for _, sel := range r.selectors {
			cands := index.candidates(sel)
			if skip != nil && allSkipped(cands, skip) {
				if work += len(cands); work > maxMatchWork {
					return false
				}
				continue // nothing left to match: not compiled, not counted
			}
			m, ok := compileSelector(sel)
			if !ok {
				continue
			}
			if matched++; matched > maxHidingSelectors {
				return false
			}
			_, combinators := splitCompounds(sel)
			if work += len(cands) * (1 + combinators*w.meanDepth()); work > maxMatchWork {
				return false
			}
			for _, id := range cands {
				if (skip == nil || !skip(id)) && m.Match(w.elems[id]) {
					apply(id, sel, m, r)
				}
			}
		}
	}
	return true
}

func (w *walker) applyRule(id int, sel string, rule declSet) {
	if w.out.Nodes[id].Hidden != "" {
		return
	}
	d := rule
	if inline := w.inline[id]; len(inline) > 0 {
		d = append(append(make(declSet, 0, len(rule)+len(inline)), rule...), inline...)
	}
	reason, used := hides(d)
	if reason == "" {
		return
	}
	w.out.Nodes[id].Hidden = reason
	w.out.Nodes[id].HiddenRule = sheetEvidence(sel, used)
}

// skippedSelectorParts mark selectors a static read cannot judge (dynamic
// state, pseudo-elements) or that cost too much to match (:has, :nth-*,
// the ~ combinator, text matching).
var skippedSelectorParts = []string{
	":hover", ":focus", ":active", ":visited", ":target", ":has(", ":haschild(",
	":contains(", ":containsown(", ":matches(", ":matchesown(", ":nth-",
	":before", ":after", ":first-line", ":first-letter", ":placeholder",
	":selection", ":marker", ":backdrop", ":cue", ":-", "::",
}

func compileSelector(sel string) (cascadia.Sel, bool) {
	if sel == "" || len(sel) > 1024 {
		return nil, false
	}
	lower := strings.ToLower(sel)
	for _, p := range skippedSelectorParts {
		if strings.Contains(lower, p) {
			return nil, false
		}
	}
	if strings.Contains(strings.ReplaceAll(lower, "~=", ""), "~") {
		return nil, false
	}
	s, err := cascadia.Parse(sel)
	if err != nil || s.PseudoElement() != "" {
		return nil, false
	}
	return s, true
}

// allSkipped reports whether skip rejects every id.
func allSkipped(ids []int, skip func(id int) bool) bool {
	for _, id := range ids {
		if !skip(id) {
			return false
		}
	}
	return true
}
