package verify

import (
	"fmt"
	"strings"
	"time"

	"github.com/sieve-dev/sieve/evidence/ground"
)

// A value is a number (thousands separators dropped, decimals kept as
// digits, with a unit: a currency, "%" or none) or a date (ISO 8601).
type value struct {
	key  string // "num:1200", "num:12.5", "date:2024-03-05"
	unit string // "", "%", "$", "€", "£", "usd", …
}

// values lists every value written in s, dates first: ISO dates, then
// dates in words ("5 March 2024", "March 5, 2024") in what the ISO dates
// leave, then numbers in what both leave. The scanners below are linear;
// they find exactly what these regular expressions (Go's leftmost-first
// semantics, case-insensitive) found before issue 17, which the fuzz test
// holds them to:
//
//	iso:    \b(\d{4})-(\d{2})-(\d{2})\b
//	text:   (?i)\b(?:(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})|([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4}))\b
//	number: (?i)([$€£¥]|\b(?:usd|eur|gbp|jpy)\s?)?(-?\d{1,3}(?:[,\x{202f}\x{a0} ]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b)?
func values(s string) []value {
	var out []value
	var cut []int // start and end of each date found, to blank out
	for i := 0; i+10 <= len(s); i++ {
		if isoDateAt(s, i) {
			if d, ok := date(s[i:i+4], s[i+5:i+7], s[i+8:i+10]); ok {
				out = append(out, value{key: "date:" + d})
			}
			cut = append(cut, i, i+10)
			i += 9
		}
	}
	rest := blank(s, cut)
	cut = cut[:0]
	for i := 0; i < len(rest); i++ {
		m, ok := textDateAt(rest, i)
		if !ok {
			continue
		}
		if mo, ok := month(m.mon); ok {
			if d, ok := date(m.year, mo, m.day); ok {
				out = append(out, value{key: "date:" + d})
			}
		}
		cut = append(cut, i, m.end)
		i = m.end - 1
	}
	rest = blank(rest, cut)
	for i := 0; i < len(rest); i++ {
		if cur, digits, pct, end, ok := numberMatchAt(rest, i); ok {
			out = append(out, number(cur, digits, pct))
			i = end - 1
		}
	}
	return out
}

// blank replaces each [cut[2k], cut[2k+1]) of s with one space.
func blank(s string, cut []int) string {
	if len(cut) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for k := 0; k < len(cut); k += 2 {
		b.WriteString(s[at:cut[k]])
		b.WriteByte(' ')
		at = cut[k+1]
	}
	b.WriteString(s[at:])
	return b.String()
}

// \w and \b are ASCII in Go's regexp; \s is [\t\n\f\r ].
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func wordBefore(s string, i int) bool { return i > 0 && isWordByte(s[i-1]) }

func wordAt(s string, i int) bool { return i < len(s) && isWordByte(s[i]) }

func digitsAt(s string, i, n int) bool {
	if i+n > len(s) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isDigit(s[k]) {
			return false
		}
	}
	return true
}

// digitRun counts the digits at i, stopping at limit.
func digitRun(s string, i, limit int) int {
	n := 0
	for i+n < len(s) && n < limit && isDigit(s[i+n]) {
		n++
	}
	return n
}

func spaceRun(s string, i int) int {
	j := i
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	return j - i
}

func isoDateAt(s string, i int) bool {
	return s[i+4] == '-' && !wordBefore(s, i) && digitsAt(s, i, 4) && s[i+4] == '-' && digitsAt(s, i+5, 2) &&
		s[i+7] == '-' && digitsAt(s, i+8, 2) && !wordAt(s, i+10)
}

// letterAt is the length of a letter of (?i)[a-z] at i: an ASCII letter,
// or one of the two non-ASCII letters that fold onto one, U+017F (ſ, s)
// and U+212A (the Kelvin sign, k). 0 when none.
func letterAt(s string, i int) int {
	switch c := s[i]; {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return 1
	case strings.HasPrefix(s[i:], "\u017f"):
		return 2
	case strings.HasPrefix(s[i:], "\u212a"):
		return 3
	}
	return 0
}

// letterRun is the end of a run of 3 to 9 letters at i that is not
// followed by another letter.
func letterRun(s string, i int) (int, bool) {
	n := 0
	for i < len(s) && n <= 9 {
		w := letterAt(s, i)
		if w == 0 {
			break
		}
		i += w
		n++
	}
	return i, n >= 3 && n <= 9
}

type textDate struct {
	day, mon, year string
	end            int
}

func textDateAt(s string, i int) (textDate, bool) {
	if isDigit(s[i]) { // (\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})\b
		if wordBefore(s, i) {
			return textDate{}, false
		}
		r := digitRun(s, i, 3)
		j := i + r
		sp := spaceRun(s, j)
		if r > 2 || sp == 0 {
			return textDate{}, false
		}
		m := j + sp
		e, ok := letterRun(s, m)
		if !ok {
			return textDate{}, false
		}
		j = e
		if j < len(s) && s[j] == '.' {
			j++
		}
		if j < len(s) && s[j] == ',' {
			j++
		}
		if sp = spaceRun(s, j); sp == 0 || !digitsAt(s, j+sp, 4) || wordAt(s, j+sp+4) {
			return textDate{}, false
		}
		return textDate{day: s[i : i+r], mon: s[m:e], year: s[j+sp : j+sp+4], end: j + sp + 4}, true
	}
	// ([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b; \b before an ASCII
	// letter wants no word character before it, before ſ or K one.
	w := letterAt(s, i)
	if w == 0 || (w == 1) == wordBefore(s, i) {
		return textDate{}, false
	}
	e, ok := letterRun(s, i)
	if !ok {
		return textDate{}, false
	}
	j := e
	if j < len(s) && s[j] == '.' {
		j++
	}
	sp := spaceRun(s, j)
	if sp == 0 {
		return textDate{}, false
	}
	d := j + sp
	r := digitRun(s, d, 3)
	if r == 0 || r > 2 {
		return textDate{}, false
	}
	j = d + r
	if j < len(s) && s[j] == ',' {
		j++
	}
	if sp = spaceRun(s, j); sp == 0 || !digitsAt(s, j+sp, 4) || wordAt(s, j+sp+4) {
		return textDate{}, false
	}
	return textDate{day: s[d : d+r], mon: s[i:e], year: s[j+sp : j+sp+4], end: j + sp + 4}, true
}

// foldPrefix reports whether s at i starts with the lower-case ASCII word
// lit under (?i): each letter in either case, "s" also as ſ, "k" also as
// the Kelvin sign. It returns the length matched.
func foldPrefix(s string, i int, lit string) (int, bool) {
	j := i
	for k := 0; k < len(lit); k++ {
		if j >= len(s) {
			return 0, false
		}
		c := lit[k]
		switch {
		case s[j] == c || c >= 'a' && c <= 'z' && s[j] == c-'a'+'A':
			j++
		case c == 's' && strings.HasPrefix(s[j:], "\u017f"):
			j += 2
		case c == 'k' && strings.HasPrefix(s[j:], "\u212a"):
			j += 3
		default:
			return 0, false
		}
	}
	return j - i, true
}

// mayStartNumber: the first bytes of a currency symbol, of a currency
// word in either case, a minus sign or a digit.
var mayStartNumber = func() (t [256]bool) {
	for _, c := range []byte("$\xe2\xc2uUeEgGjJ-0123456789") {
		t[c] = true
	}
	return t
}()

var currencySymbols = []string{"$", "€", "£", "¥"}

var currencyWords = []string{"usd", "eur", "gbp", "jpy"}

// numberMatchAt is the number pattern's match starting at i, if any.
func numberMatchAt(s string, i int) (cur, digits, pct string, end int, ok bool) {
	if !mayStartNumber[s[i]] {
		return "", "", "", 0, false
	}
	for _, sym := range currencySymbols {
		if strings.HasPrefix(s[i:], sym) {
			if e, ok := numberAt(s, i+len(sym)); ok {
				pct, end = percentAfter(s, e)
				return sym, s[i+len(sym) : e], pct, end, true
			}
		}
	}
	if !wordBefore(s, i) {
		for _, w := range currencyWords {
			n, ok := foldPrefix(s, i, w)
			if !ok {
				continue
			}
			j := i + n
			if j < len(s) && isSpace(s[j]) {
				if e, ok := numberAt(s, j+1); ok {
					pct, end = percentAfter(s, e)
					return s[i : j+1], s[j+1 : e], pct, end, true
				}
			}
			if e, ok := numberAt(s, j); ok {
				pct, end = percentAfter(s, e)
				return s[i:j], s[j:e], pct, end, true
			}
		}
	}
	if e, ok := numberAt(s, i); ok {
		pct, end = percentAfter(s, e)
		return "", s[i:e], pct, end, true
	}
	return "", "", "", 0, false
}

// numberAt is the end of -?\d{1,3}(?:[,\x{202f}\x{a0} ]\d{3})+(?:\.\d+)?,
// or failing that of -?\d+(?:\.\d+)?, at i.
func numberAt(s string, i int) (int, bool) {
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	r := digitRun(s, j, len(s))
	if r == 0 {
		return 0, false
	}
	k := j + r
	if r <= 3 {
		groups := 0
		for {
			sl := separatorAt(s, k)
			if sl == 0 || !digitsAt(s, k+sl, 3) {
				break
			}
			k += sl + 3
			groups++
		}
		if groups == 0 {
			k = j + r
		}
	}
	if k+1 < len(s) && s[k] == '.' && isDigit(s[k+1]) {
		k += 1 + digitRun(s, k+1, len(s))
	}
	return k, true
}

func separatorAt(s string, i int) int {
	switch {
	case i >= len(s):
		return 0
	case s[i] == ',' || s[i] == ' ':
		return 1
	case strings.HasPrefix(s[i:], "\u00a0"):
		return 2
	case strings.HasPrefix(s[i:], "\u202f"):
		return 3
	}
	return 0
}

// percentAfter matches \s?(%|percent\b|per cent\b)? after a number ending
// at e: the space is taken whenever it is there.
func percentAfter(s string, e int) (string, int) {
	if e < len(s) && isSpace(s[e]) {
		e++
	}
	if e < len(s) && s[e] == '%' {
		return "%", e + 1
	}
	for _, w := range []string{"percent", "per cent"} {
		if n, ok := foldPrefix(s, e, w); ok && !wordAt(s, e+n) {
			return s[e : e+n], e + n
		}
	}
	return "", e
}

var (
	separators    = strings.NewReplacer(",", "", " ", "", "\u202f", "", "\u00a0", "")
	currencyUnits = map[string]string{"usd": "$", "eur": "€", "gbp": "£", "jpy": "¥"}
)

func number(cur, digits, pct string) value {
	d := separators.Replace(digits)
	if strings.Contains(d, ".") {
		d = strings.TrimRight(strings.TrimRight(d, "0"), ".")
	}
	v := value{key: "num:" + d}
	switch {
	case pct != "":
		v.unit = "%"
	case cur != "":
		v.unit = currencyUnits[strings.ToLower(strings.TrimSpace(cur))]
		if v.unit == "" {
			v.unit = cur
		}
	}
	return v
}

func month(s string) (string, bool) {
	for i := time.January; i <= time.December; i++ {
		n := strings.ToLower(i.String())
		if l := strings.ToLower(s); l == n || len(l) >= 3 && strings.HasPrefix(n, l) {
			return fmt.Sprintf("%02d", int(i)), true
		}
	}
	return "", false
}

func date(y, m, d string) (string, bool) {
	s := fmt.Sprintf("%s-%s-%02s", y, m, d)
	if len(d) == 1 {
		s = fmt.Sprintf("%s-%s-0%s", y, m, d)
	}
	_, err := time.Parse("2006-01-02", s)
	return s, err == nil
}

// sameValue: the claimed value want is the value have: equal keys, and
// the unit want states (a currency, %) stated with have too. A claim
// without a unit matches the number with any unit; a bare number in the
// document does not ground "$120" or "120%".
func sameValue(want, have value) bool {
	return want.key == have.key && (want.unit == "" || want.unit == have.unit)
}

// valueIndex maps a value key to the elements that state it.
type valueIndex map[string][]struct {
	el int
	v  value
}

func newValueIndex(els []ground.Element) valueIndex {
	ix := valueIndex{}
	for i, e := range els {
		for _, v := range values(e.Text) {
			ix[v.key] = append(ix[v.key], struct {
				el int
				v  value
			}{i, v})
		}
	}
	return ix
}
