package normalize

import (
	"strings"

	"github.com/aymerick/douceur/css"
	"github.com/aymerick/douceur/parser"
)

// A page's style sheets are read up to three times (hiding rules, the
// cascade's showing rules, absolute font sizes), each time pruned to other
// rules. sheetCache makes that one tokenisation: each cleaned sheet is
// scanned once into its pieces (scanSheet's statements: @media openings
// that apply, closing braces, qualified rules with their lower-cased
// block), and each rule or @media opening is parsed by douceur at most
// once however many passes keep it. A pass's rules are then put together
// from the pieces it keeps, which is what douceur gives for the pruned
// text as a whole whenever every kept piece parses alone into exactly one
// rule without error; a sheet where one does not is parsed whole, as
// before (the test holds the two to the same rules on the shared pages).
type sheetCache struct {
	sheets [][]sheetPiece
	rules  []int                  // qualified rules seen in applicable scope, per sheet
	parsed map[string]parsedPiece // by piece text
}

type pieceKind uint8

const (
	pieceRule pieceKind = iota
	pieceMediaOpen
	pieceClose
)

type sheetPiece struct {
	kind    pieceKind
	text    string // the rule's text, or the @media prelude with its "{"
	prelude string // a rule's prelude, trimmed
	block   string // a rule's declaration block, lower-cased
	closed  bool   // a rule's block ends with its "}"
}

type parsedPiece struct {
	rule *css.Rule // nil when the piece does not parse alone into one rule
}

// pieces scans cleaned sheet k once (cached).
func (c *sheetCache) pieces(k int, cleaned string) ([]sheetPiece, int) {
	for len(c.sheets) <= k {
		c.sheets = append(c.sheets, nil)
		c.rules = append(c.rules, -1)
	}
	if c.rules[k] < 0 {
		c.sheets[k], c.rules[k] = scanSheet(cleaned)
	}
	return c.sheets[k], c.rules[k]
}

// scanSheet walks the statements of a cleaned sheet once: @media openings
// that apply to screens, their closing braces, and the qualified rules in
// applicable scope with their lower-cased blocks (other at-rules and
// statements are dropped); it returns them and the number of rules.
func scanSheet(s string) ([]sheetPiece, int) {
	var out []sheetPiece
	rules, depth := 0, 0
	for i := 0; i < len(s); {
		j := scanTo(s, i, &stopsStatement)
		if j < 0 {
			break
		}
		switch s[j] {
		case ';':
			i = j + 1
		case '}':
			if depth > 0 {
				out = append(out, sheetPiece{kind: pieceClose})
				depth--
			}
			i = j + 1
		default: // '{'
			prelude := strings.TrimSpace(s[i:j])
			end := matchingBrace(s, j)
			switch {
			case strings.HasPrefix(prelude, "@media") && mediaApplies(strings.TrimPrefix(prelude, "@media")):
				out = append(out, sheetPiece{kind: pieceMediaOpen, text: s[i : j+1]})
				depth++
				i = j + 1
				continue
			case strings.HasPrefix(prelude, "@"):
			default:
				rules++
				out = append(out, sheetPiece{kind: pieceRule, text: s[i:end], prelude: prelude,
					block: strings.ToLower(s[j:end]), closed: end > j && s[end-1] == '}'})
			}
			i = end
		}
	}
	return out, rules
}

// prune writes the pieces a pass keeps (keep on each rule's prelude and
// block) back as sheet text, and marks which rules it kept.
func prune(pieces []sheetPiece, keep func(prelude, block string) bool) (string, []bool) {
	var b strings.Builder
	kept := make([]bool, len(pieces))
	for i, p := range pieces {
		switch p.kind {
		case pieceMediaOpen:
			b.WriteString(p.text)
		case pieceClose:
			b.WriteByte('}')
		default:
			if keep(p.prelude, p.block) {
				kept[i] = true
				b.WriteString(p.text)
				b.WriteByte('\n')
			}
		}
	}
	return b.String(), kept
}

// parse is douceur's one rule of text (cached); nil when text is not
// exactly one rule that parses without error.
func (c *sheetCache) parse(text string, kind pieceKind) *css.Rule {
	if p, ok := c.parsed[text]; ok {
		return p.rule
	}
	if c.parsed == nil {
		c.parsed = map[string]parsedPiece{}
	}
	src := text
	if kind == pieceMediaOpen {
		src += "}"
	}
	var one *css.Rule
	if rules, err := parser.NewParser(src).ParseRules(); err == nil && len(rules) == 1 {
		switch r := rules[0]; {
		case kind == pieceRule && r.Kind == css.QualifiedRule:
			one = r
		case kind == pieceMediaOpen && r.Kind == css.AtRule && strings.EqualFold(r.Name, "@media") &&
			mediaApplies(r.Prelude) && len(r.Rules) == 0:
			one = r
		}
	}
	c.parsed[text] = parsedPiece{one}
	return one
}

// compose appends the rules of the kept pieces that pass want, as
// collectRules does over douceur's parse of the pruned sheet; ok is false
// when a kept piece does not stand alone, and out is then unchanged.
func (c *sheetCache) compose(pieces []sheetPiece, kept []bool, out []hidingRule, want func(declSet) bool) ([]hidingRule, bool) {
	n := len(out)
	depth := 0
	for i, p := range pieces {
		switch p.kind {
		case pieceMediaOpen:
			if c.parse(p.text, pieceMediaOpen) == nil {
				return out[:n], false
			}
			depth++
		case pieceClose:
			depth--
		default:
			if !kept[i] {
				continue
			}
			r := c.parse(p.text, pieceRule)
			if r == nil || !p.closed {
				return out[:n], false
			}
			if depth > maxMediaNesting {
				continue
			}
			if d := toDecls(r.Declarations); want(d) {
				out = append(out, hidingRule{selectors: r.Selectors, decls: d, order: len(out)})
			}
		}
	}
	if depth != 0 {
		return out[:n], false
	}
	return out, true
}
