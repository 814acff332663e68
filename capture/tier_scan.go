package capture

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// spacedLen is utf8.RuneCountInString(strings.Join(strings.Fields(s), " "))
// without building the joined string: the visible characters of a text
// node with its white space collapsed (the tier decision counts them on
// every text node of a page).
func spacedLen(s string) int {
	n, words, in := 0, 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
			continue
		}
		if !in {
			words, in = words+1, true
		}
		n++
	}
	if words > 1 {
		n += words - 1
	}
	return n
}

// marker notes the first of challengeMarkers that parts, lower-cased and
// joined by spaces, contain. ASCII parts are lowered into a buffer the scan
// reuses (a marker holds no space, so none spans two parts); others go
// through strings.ToLower as a whole.
func (s *staticRead) marker(parts ...string) {
	if s.vendor != "" {
		return
	}
	b := s.low[:0]
	for i, p := range parts {
		if i > 0 {
			b = append(b, ' ')
		}
		for j := 0; j < len(p); j++ {
			c := p[j]
			if c >= utf8.RuneSelf {
				s.low = b
				s.markerIn(strings.ToLower(strings.Join(parts, " ")))
				return
			}
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
	}
	s.low = b
	for _, m := range challengeMarkers {
		if bytes.Contains(b, []byte(m)) {
			s.vendor = m
			return
		}
	}
}

// markerIn notes the first of challengeMarkers that low contains.
func (s *staticRead) markerIn(low string) {
	for _, m := range challengeMarkers {
		if strings.Contains(low, m) {
			s.vendor = m
			return
		}
	}
}
