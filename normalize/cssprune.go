package normalize

import "strings"

// pruneRules cuts a cleaned style sheet (cleanCSS) down to what can hide
// something before douceur parses it (its tokenizer is slow, about 1 MB/s):
// the qualified rules whose block mentions a hiding declaration (mayHide),
// inside @media blocks whose query applies to screens. Every other
// at-rule, and every @media block for print or a condition, is dropped
// whole. It returns the pruned sheet and the number of qualified rules seen
// in applicable scope.
func pruneRules(s string) (string, int) { return pruneSheet(s, blockOnly(mayHide)) }

// blockOnly is a pruneSheet test that reads the declaration block alone.
func blockOnly(keep func(block string) bool) func(prelude, block string) bool {
	return func(_, block string) bool { return keep(block) }
}

// pruneSheet keeps the qualified rules whose lower-cased declaration block
// passes keep, inside @media blocks that apply to screens, and counts the
// qualified rules seen in applicable scope: prune over scanSheet's pieces
// (a page's passes share one scan through sheetCache).
func pruneSheet(s string, keep func(prelude, block string) bool) (string, int) {
	pieces, rules := scanSheet(s)
	pruned, _ := prune(pieces, keep)
	return pruned, rules
}

// mayHide is a cheap test on a lower-cased declaration block that it could
// pass hides(): false only when no declaration it looks at has a hiding
// value. It reads "prop: value" pairs by substring, loosely (a "width"
// inside "max-width" counts); douceur and hides() decide.
func mayHide(block string) bool {
	has := func(s string) bool { return strings.Contains(block, s) }
	isNone := func(v string) bool { return strings.HasPrefix(v, "none") }
	return valueOf(block, "display", isNone) ||
		valueOf(block, "visibility", func(v string) bool {
			return strings.HasPrefix(v, "hidden") || strings.HasPrefix(v, "collapse")
		}) ||
		valueOf(block, "opacity", zeroNumber) ||
		valueOf(block, "text-indent", farNegative) ||
		(has("absolute") || has("fixed")) && valueOf(block, "left", farNegative) ||
		(has("absolute") || has("fixed")) && valueOf(block, "top", farNegative) ||
		(has("absolute") || has("fixed")) && valueOf(block, "right", farNegative) ||
		has("clip") ||
		valueOf(block, "font-size", zeroNumber) ||
		has("overflow") && (valueOf(block, "width", tinyLength) || valueOf(block, "height", tinyLength))
}

// valueOf reports whether some "prop: value" in block has a value for
// which ok holds.
func valueOf(block, prop string, ok func(string) bool) bool {
	for rest := block; ; {
		i := strings.Index(rest, prop)
		if i < 0 {
			return false
		}
		rest = strings.TrimLeft(rest[i+len(prop):], " \t\n\r\f")
		if !strings.HasPrefix(rest, ":") {
			continue
		}
		v := rest[1:]
		if end := strings.IndexAny(v, ";}!"); end >= 0 {
			v = v[:end]
		}
		if ok(strings.TrimSpace(v)) {
			return true
		}
	}
}

var (
	stopsStatement = byteSet("{;}")
	stopsBrace     = byteSet("{}")
	scanSpecial    = byteSet(`\"'/`)
)

// scanTo returns the index of the first byte of s[i:] in stops that is
// not inside a string, a comment or an escape, or -1.
func scanTo(s string, i int, stops *[256]bool) int {
	for ; i < len(s); i++ {
		c := s[i]
		if stops[c] {
			return i
		}
		if !scanSpecial[c] {
			continue
		}
		switch {
		case c == '\\':
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return -1
			}
			i += j + 1
		case c == '/' && strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return -1
			}
			i += j + 3
		}
	}
	return -1
}

// matchingBrace returns the index just past the "}" that closes the "{"
// at s[open], or len(s).
func matchingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		j := scanTo(s, i, &stopsBrace)
		if j < 0 {
			return len(s)
		}
		if s[j] == '{' {
			depth++
		} else if depth--; depth == 0 {
			return j + 1
		}
		i = j
	}
	return len(s)
}
