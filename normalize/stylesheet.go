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

// hidingRule is a style-sheet rule whose declarations hide what it matches.
type hidingRule struct {
	selectors []string
	decls     declSet
}

// hidingRules parses the collected style sheets and returns their hiding
// rules in document order, counting the rules considered.
func (w *walker) hidingRules() []hidingRule {
	var out []hidingRule
	for _, sheet := range w.sheets {
		s, n := pruneRules(cleanCSS(sheet, false))
		w.out.Stats.StyleRules += n
		if !cheapToParse(s) {
			continue
		}
		// ParseRules stops at the first syntax error and returns the
		// rules before it.
		rules, _ := parser.NewParser(s).ParseRules()
		out = collectRules(rules, out, 0)
	}
	return out
}

func collectRules(rules []*css.Rule, out []hidingRule, depth int) []hidingRule {
	for _, r := range rules {
		switch {
		case r.Kind == css.QualifiedRule:
			d := toDecls(r.Declarations)
			if reason, _ := hides(d); reason != "" {
				out = append(out, hidingRule{selectors: r.Selectors, decls: d})
			}
		case strings.EqualFold(r.Name, "@media") && mediaApplies(r.Prelude) && depth < maxMediaNesting:
			out = collectRules(r.Rules, out, depth+1)
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
	w.matchRules(rules, nil, func(id int, sel string, r hidingRule) { w.applyRule(id, sel, r.decls) })
}

// matchRules calls apply for every element a selector of rules matches, in
// rule order, skipping the elements skip rejects (nil skips none). The
// work is bounded: at most maxHidingSelectors selectors and maxMatchWork
// candidate checks, each combinator counted as a walk up the ancestors;
// past either bound the rest is not matched.
func (w *walker) matchRules(rules []hidingRule, skip func(id int) bool, apply func(id int, sel string, r hidingRule)) {
	index := newElementIndex(w.elems, keysOf(rules))
	work, matched := 0, 0
	for _, r := range rules {
		for _, sel := range r.selectors {
			m, ok := compileSelector(sel)
			if !ok {
				continue
			}
			cands := index.candidates(sel)
			if matched++; matched > maxHidingSelectors {
				return
			}
			_, combinators := splitCompounds(sel)
			if work += len(cands) * (1 + combinators*w.meanDepth()); work > maxMatchWork {
				return
			}
			for _, id := range cands {
				if (skip == nil || !skip(id)) && m.Match(w.elems[id]) {
					apply(id, sel, r)
				}
			}
		}
	}
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
