package verify

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// A value is a number (thousands separators dropped, decimals kept as
// digits, with a unit: a currency, "%" or none) or a date (ISO 8601).
type value struct {
	key  string // "num:1200", "num:12.5", "date:2024-03-05"
	unit string // "", "%", "$", "€", "£", "usd", …
}

var (
	numberRe = regexp.MustCompile(`(?i)([$€£¥]|\b(?:usd|eur|gbp|jpy)\s?)?(-?\d{1,3}(?:[,\x{202f}\x{a0} ]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b)?`)
	isoDate  = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	textDate = regexp.MustCompile(`(?i)\b(?:(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})|([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4}))\b`)
)

// values lists every value written in s, dates first.
func values(s string) []value {
	var out []value
	rest := s
	for _, m := range isoDate.FindAllStringSubmatch(s, -1) {
		if d, ok := date(m[1], m[2], m[3]); ok {
			out = append(out, value{key: "date:" + d})
		}
	}
	rest = isoDate.ReplaceAllString(rest, " ")
	for _, m := range textDate.FindAllStringSubmatch(rest, -1) {
		day, mon, year := m[1], m[2], m[3]
		if day == "" {
			day, mon, year = m[5], m[4], m[6]
		}
		if mo, ok := month(mon); ok {
			if d, ok := date(year, mo, day); ok {
				out = append(out, value{key: "date:" + d})
			}
		}
	}
	rest = textDate.ReplaceAllString(rest, " ")
	for _, m := range numberRe.FindAllStringSubmatch(rest, -1) {
		out = append(out, number(m[1], m[2], m[3]))
	}
	return out
}

func number(cur, digits, pct string) value {
	d := strings.NewReplacer(",", "", " ", "", "\u202f", "", "\u00a0", "").Replace(digits)
	if strings.Contains(d, ".") {
		d = strings.TrimRight(strings.TrimRight(d, "0"), ".")
	}
	v := value{key: "num:" + d}
	switch {
	case pct != "":
		v.unit = "%"
	case cur != "":
		v.unit = map[string]string{"usd": "$", "eur": "€", "gbp": "£", "jpy": "¥"}[strings.ToLower(strings.TrimSpace(cur))]
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

// sameValue: equal keys, and units equal or one of them unstated.
func sameValue(a, b value) bool {
	return a.key == b.key && (a.unit == b.unit || a.unit == "" || b.unit == "")
}

// valueIndex maps a value key to the elements that state it.
type valueIndex map[string][]struct {
	el int
	v  value
}

func newValueIndex(els []Element) valueIndex {
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
