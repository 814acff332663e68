package normalize

import (
	"strings"

	"github.com/andybalholm/cascadia"
)

// The cascade for the three properties pages most often turn back on:
// display, visibility and opacity. `.tab { display: none }` beside
// `.tab.active { display: block }` shows the active tab: a more specific
// rule, or an equally specific later one, wins, and !important beats
// both. applyStyleSheets gives an element the first hiding rule that
// matches it; showByCascade then looks for rules that show it again and
// lifts the verdict when, for the property that hid it, the strongest
// showing declaration beats the strongest hiding one and no other
// property hides it. Only elements a style sheet hid are looked at, only
// when the verdict came from one of these three properties, and never
// when the element's inline style sets the property (inline already
// decided). Showing rules are read only on pages with such verdicts, with
// the same bounds on selectors and matching work as the hiding rules; past
// a bound, the verdicts stand.

// cascadeProps are the properties the cascade is worked out for, in the
// order of their verdicts.
var cascadeProps = [...]string{"display", "visibility", "opacity"}

// cascadeKey orders declarations as the cascade does.
type cascadeKey struct {
	set       bool
	important bool
	spec      cascadia.Specificity
	order     int
	evidence  string // selector and declaration, for HiddenRule
}

// beats reports whether declaration a wins over b.
func (a cascadeKey) beats(b cascadeKey) bool {
	switch {
	case !a.set || !b.set:
		return a.set
	case a.important != b.important:
		return a.important
	case a.spec != b.spec:
		return b.spec.Less(a.spec)
	}
	return a.order > b.order
}

// propKeys is, per cascade property, the strongest hiding and the
// strongest showing declaration that match one element.
type propKeys struct {
	hide, show [len(cascadeProps)]cascadeKey
	fromSheet  bool // a style sheet gave the element its verdict
	other      bool // a matched rule hides it by another property
}

// cascade maps element ids to what the rules matched on them say.
type cascade map[int]*propKeys

func (c cascade) at(id int) *propKeys {
	k := c[id]
	if k == nil {
		k = &propKeys{}
		c[id] = k
	}
	return k
}

// hidden records a hiding rule r that matched element id; gave says
// whether it gave the element its verdict. A rule that also hides by
// another property (text-indent, clip, a zero size) marks the element as
// hidden otherwise too.
func (c cascade) hidden(id int, gave bool, r hidingRule, inline declSet) {
	k := c.at(id)
	k.fromSheet = k.fromSheet || gave
	if k.other {
		return
	}
	var rest declSet
	for _, ds := range [2]declSet{r.decls, inline} {
		for _, d := range ds {
			if cascadeProp(d.prop) < 0 {
				rest = append(rest, d)
			}
		}
	}
	if reason, _ := hides(rest); reason != "" {
		k.other = true
	}
}

// cascadeProp is the index of prop in cascadeProps, or -1.
func cascadeProp(prop string) int {
	for i, p := range cascadeProps {
		if p == prop {
			return i
		}
	}
	return -1
}

// record notes what rule r, matched on element id through selector sel
// (compiled m), declares for each cascade property.
func (k *propKeys) record(sel string, m cascadia.Sel, r hidingRule) {
	for p, prop := range cascadeProps {
		v, ok := r.decls.get(prop)
		if !ok {
			continue
		}
		key := cascadeKey{set: true, important: v.important, spec: m.Specificity(), order: r.order}
		switch {
		case hidingValue(prop, v.value):
			if key.evidence = sheetEvidence(sel, []decl{v}); key.beats(k.hide[p]) {
				k.hide[p] = key
			}
		case showingValue(prop, v.value) && key.beats(k.show[p]):
			k.show[p] = key
		}
	}
}

// hidingValue reports whether value hides by prop.
func hidingValue(prop, value string) bool {
	switch prop {
	case "display":
		return value == "none"
	case "visibility":
		return value == "hidden" || value == "collapse"
	}
	return zeroNumber(value)
}

// showingValue reports whether value shows by prop: a value that neither
// hides nor defers to the parent or the browser's default.
func showingValue(prop, value string) bool {
	switch value {
	case "", "inherit", "unset", "revert", "revert-layer":
		return false
	case "initial":
		return prop != "display" // display's initial is inline: shown
	}
	return !hidingValue(prop, value)
}

// mayShow is the pruning test for showing rules: a declaration block that
// sets one of the cascade properties to something other than hiding.
func mayShow(block string) bool {
	for _, prop := range cascadeProps {
		if valueOf(block, prop, func(v string) bool { return showingValue(prop, strings.TrimSpace(strings.TrimSuffix(v, "!important"))) }) {
			return true
		}
	}
	return false
}

// showByCascade lifts the verdicts that a stronger showing rule undoes.
func (w *walker) showByCascade(c cascade) {
	candidate := make(map[int]bool)
	for id, k := range c {
		if k.fromSheet && !k.other && cascadeReason(w.out.Nodes[id].Hidden) >= 0 {
			candidate[id] = true
		}
	}
	if len(candidate) == 0 {
		return
	}
	// Hiding and showing rules read together, so that their order is
	// one document order.
	keys := w.keysOfElements(candidate)
	rules := w.sheetRules(func(prelude, block string) bool {
		return (mayHide(block) || mayShow(block)) && keys.mayMatch(prelude)
	}, func(d declSet) bool {
		for _, prop := range cascadeProps {
			if v, ok := d.get(prop); ok && (hidingValue(prop, v.value) || showingValue(prop, v.value)) {
				return true
			}
		}
		return false
	}, false)
	complete := w.matchRules(rules, func(id int) bool { return !candidate[id] }, func(id int, sel string, m cascadia.Sel, r hidingRule) {
		c[id].record(sel, m, r)
	})
	if !complete {
		return // a rule not matched might hide more strongly: the verdicts stand
	}
	for id := range candidate {
		w.resolveCascade(id, c[id])
	}
}

// resolveCascade lifts element id's verdict when, for the property that
// hid it, a showing declaration beats the strongest hiding one; another
// cascade property that still hides then takes the verdict over.
func (w *walker) resolveCascade(id int, k *propKeys) {
	n := &w.out.Nodes[id]
	cur := cascadeReason(n.Hidden)
	if !k.hide[cur].set || !k.show[cur].beats(k.hide[cur]) {
		return // still hidden, or the rule that hid it was not seen again
	}
	if _, ok := w.inline[id].get(cascadeProps[cur]); ok {
		return // the inline style set it: not the sheets' to undo
	}
	for p, prop := range cascadeProps {
		if _, ok := w.inline[id].get(prop); p == cur || ok {
			continue
		}
		if k.hide[p].set && !k.show[p].beats(k.hide[p]) {
			n.Hidden, n.HiddenRule = cascadeReasons[p], k.hide[p].evidence
			return
		}
	}
	n.Hidden, n.HiddenRule = "", ""
}

// cascadeReasons are the verdicts of the cascade properties.
var cascadeReasons = [...]string{HiddenDisplay, HiddenVisibility, HiddenOpacity}

// cascadeReason is the index of reason in cascadeReasons, or -1.
func cascadeReason(reason string) int {
	for i, r := range cascadeReasons {
		if r == reason {
			return i
		}
	}
	return -1
}

// keysOfElements are the ids, classes and tags of the elements in ids.
func (w *walker) keysOfElements(ids map[int]bool) indexKeys {
	k := indexKeys{ids: map[string]bool{}, classes: map[string]bool{}, tags: map[string]bool{}}
	for id := range ids {
		e := w.elems[id]
		if e == nil {
			continue
		}
		k.tags[e.Data] = true
		for _, a := range e.Attr {
			switch {
			case a.Namespace != "":
			case a.Key == "id":
				k.ids[a.Val] = true
			case a.Key == "class":
				for _, c := range strings.FieldsFunc(a.Val, func(r rune) bool { return r < 128 && selectorSpaceByte(byte(r)) }) {
					k.classes[c] = true
				}
			}
		}
	}
	return k
}

// mayMatch reports whether a rule's selector list could match an element
// with one of the keys: some selector's rightmost compound requires a key
// the elements have, or none that can be relied on. A list with
// parentheses (:is(a, b), :not(…)) is kept whole, as commas inside them do
// not separate selectors.
func (k indexKeys) mayMatch(prelude string) bool {
	if strings.ContainsAny(prelude, "()") {
		return true
	}
	for _, sel := range strings.Split(prelude, ",") {
		compound, _ := splitCompounds(sel)
		switch kind, name := keyOf(compound); kind {
		case '#':
			if k.ids[name] {
				return true
			}
		case '.':
			if k.classes[name] {
				return true
			}
		case 't':
			if k.tags[name] {
				return true
			}
		default:
			return true
		}
	}
	return false
}
