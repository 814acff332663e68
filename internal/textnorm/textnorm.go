// Package textnorm holds sieve's text normalisation rules. Changing what they
// produce changes every cached artifact, so the rules carry a version
// (Version) that is recorded in every normalized and graph record.
//
// Rules, version 1 (normal text):
//  1. Invalid UTF-8 is replaced by U+FFFD.
//  2. Soft hyphen (U+00AD), zero-width space (U+200B), word joiner (U+2060)
//     and BOM (U+FEFF) are removed.
//  3. Every other white space character (ASCII space, tab, CR, LF, FF, and
//     Unicode spaces such as U+00A0, U+2000–U+200A, U+202F, U+3000) becomes
//     one ASCII space, and runs of spaces collapse to one.
//  4. The result is put in Unicode NFC.
//
// Preformatted text (<pre>, <textarea>, <code> blocks) keeps its spaces and
// line breaks: CRLF and CR become LF, rule 2 and 4 apply, nothing collapses.
//
// Leading and trailing spaces are kept at this level (they separate inline
// runs); blocks trim their text when they are built.
package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Version is the normalizer_version recorded in records.
const Version = "1"

func dropped(r rune) bool {
	switch r {
	case '\u00AD', '\u200B', '\u2060', '\uFEFF':
		return true
	}
	return false
}

// Text normalises inline text by rules 1–4.
func Text(s string) string {
	if out, ok := textASCII(s); ok {
		return out
	}
	if normalText(s) {
		return s
	}
	return textRunes(s)
}

// textASCII is Text for ASCII input (ok false otherwise): it returns s
// itself when nothing changes, which is the common case.
func textASCII(s string) (string, bool) {
	clean, blank := true, true
	prevSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		space := asciiSpace(c)
		if space && (c != ' ' || prevSpace) {
			clean = false
		}
		blank = blank && space
		prevSpace = space
	}
	switch {
	case clean:
		return s, true
	case blank: // indentation between tags, the commonest text there is
		return " ", true
	}
	var b strings.Builder
	b.Grow(len(s))
	prevSpace = false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			if !prevSpace {
				b.WriteByte(' ')
			}
			prevSpace = true
			continue
		}
		b.WriteByte(c)
		prevSpace = false
	}
	return b.String(), true
}

// asciiSpace is unicode.IsSpace on ASCII.
func asciiSpace(c byte) bool {
	return c == ' ' || ('\t' <= c && c <= '\r')
}

// normalText reports that Text would return s unchanged: valid UTF-8 with
// no dropped character, no white space but single ASCII spaces, in NFC.
func normalText(s string) bool {
	prevSpace := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError, dropped(r): // U+FFFD itself is kept, but rare: take the long way
			return false
		case r == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
			continue
		case unicode.IsSpace(r):
			return false
		}
		prevSpace = false
	}
	return norm.NFC.IsNormalString(s)
}

// textRunes is Text rune by rune, for input that changes.
func textRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	ascii := true
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteRune(r)
			space = false
		case dropped(r):
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
		default:
			if r >= utf8.RuneSelf {
				ascii = false
			}
			b.WriteRune(r)
			space = false
		}
	}
	out := b.String()
	if !ascii {
		out = norm.NFC.String(out)
	}
	return out
}

// Pre normalises preformatted text: line breaks unified, nothing collapsed.
func Pre(s string) string {
	if asciiNoCR(s) { // nothing to unify, drop or compose
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.Map(func(r rune) rune {
		if dropped(r) {
			return -1
		}
		return r
	}, s)
	return norm.NFC.String(strings.ToValidUTF8(s, "\uFFFD"))
}

func asciiNoCR(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || c == '\r' {
			return false
		}
	}
	return true
}

// Key is the form of a text used for identity (section ids, duplicate
// detection): Text, trimmed, lower-cased.
func Key(s string) string {
	return strings.ToLower(strings.TrimSpace(Text(s)))
}
