package render

import (
	"fmt"
	"strings"
)

// Page text in index.md goes through one function, escapeMarkdown, so that
// a CommonMark reader (and a GFM one, for tables and strikethrough) shows it
// as the literal text it is. It adds a backslash before an ASCII
// punctuation character that could open structure, and nothing else:
//
//   - everywhere: \ ` * ~ [ ] < (no code span, emphasis, strikethrough,
//     link, image, link definition, footnote, raw HTML, comment or
//     autolink can start); "_" unless it sits between two ASCII letters
//     or digits (snake_case cannot open emphasis); "&" when it starts
//     something shaped like an entity or a numeric character reference
//     ("&amp;", "&#60;", "&#x3c;"), so "Tom & Jerry" and "?a=1&b=2" stay
//     as they are;
//   - at the start of a line (mdLineStart: a paragraph line, a list item's
//     or a quote line's text), after its leading spaces and tabs, which are
//     dropped: # > - + = | : (heading, quote, list, setext underline,
//     thematic break, table, front matter), and the "." or ")" after a run
//     of one to nine digits ("1." would start an ordered list);
//   - in a heading (mdHeading): a "#" that ends the text, which would
//     otherwise be read as a closing sequence;
//   - in a table cell (mdCell): every "|".
//
// A line break becomes a space: only escapeLines keeps them, and it escapes
// each line as the start of a line. Code blocks are not escaped but fenced
// with a fence longer than any backtick run inside (fenced); link
// destinations are sieve's own and only http(s) (destination, webURL).

// mdPlace is where in index.md a piece of page text is written.
type mdPlace int

const (
	mdInline    mdPlace = iota // inside a line sieve started, or inside sieve's "[…]"
	mdLineStart                // at the start of a line or of a list item's or quote's text
	mdHeading                  // the text of an ATX heading, after "## "
	mdCell                     // a GFM table cell
)

var lineBreaks = strings.NewReplacer("\r", " ", "\n", " ")

// escapeMarkdown escapes page text for the place it is written to.
func escapeMarkdown(s string, at mdPlace) string {
	s = lineBreaks.Replace(s)
	if at == mdLineStart {
		s = strings.TrimLeft(s, " \t")
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); i++ {
		if mdEscapes(s, i, at) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mdEscapes reports whether s[i] needs a backslash at place at.
func mdEscapes(s string, i int, at mdPlace) bool {
	switch c := s[i]; c {
	case '\\', '`', '*', '~', '[', ']', '<':
		return true
	case '_':
		return i == 0 || i+1 == len(s) || !asciiAlnum(s[i-1]) || !asciiAlnum(s[i+1])
	case '&':
		return entityAt(s[i:])
	case '|':
		if at == mdCell {
			return true
		}
	case '#':
		if at == mdHeading && i+1 == len(s) {
			return true
		}
	}
	if at != mdLineStart {
		return false
	}
	if i == 0 {
		return strings.IndexByte("#>-+=|:", s[0]) >= 0
	}
	return (s[i] == '.' || s[i] == ')') && i <= 9 && allDigits(s[:i])
}

// entityAt reports whether s starts with "&" and the shape of an HTML
// entity or numeric character reference: "&" name ";", "&#" digits ";" or
// "&#x" hex digits ";". Names are not checked against HTML's list, and
// lengths are not capped, so the test errs towards escaping.
func entityAt(s string) bool {
	if len(s) < 3 || s[0] != '&' {
		return false
	}
	body, ok := strings.CutPrefix(s[1:], "#")
	valid := asciiAlpha
	if ok {
		valid = asciiDigit
		if len(body) > 0 && (body[0] == 'x' || body[0] == 'X') {
			body, valid = body[1:], asciiHex
		}
	} else if !asciiAlpha(body[0]) {
		return false
	} else {
		valid = asciiAlnum
	}
	n := 0
	for n < len(body) && valid(body[n]) {
		n++
	}
	return n > 0 && n < len(body) && body[n] == ';'
}

func asciiAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func asciiDigit(c byte) bool { return c >= '0' && c <= '9' }
func asciiAlnum(c byte) bool { return asciiAlpha(c) || asciiDigit(c) }
func asciiHex(c byte) bool   { return asciiDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }

func allDigits(s string) bool {
	for i := range len(s) {
		if !asciiDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// escapeLines escapes multi-line text line by line, each as the start of
// a line, dropping blank lines so that the text stays one paragraph.
func escapeLines(s string) string {
	var lines []string
	for _, l := range splitLines(s) {
		if l = escapeMarkdown(strings.TrimRight(l, " \t"), mdLineStart); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// headingText is a heading's text on one line, escaped.
func headingText(s string) string {
	return escapeMarkdown(oneLine(s), mdHeading)
}

// inlineText is text on one line, escaped for a place inside a line.
func inlineText(s string) string {
	return escapeMarkdown(oneLine(s), mdInline)
}

// destination writes an http(s) URL as a Markdown link destination: the
// characters that would end or break it are percent-encoded, and an "&"
// that starts an entity shape gets a backslash, so the URL a reader follows
// is href byte for byte.
func destination(href string) string {
	var b strings.Builder
	for i := 0; i < len(href); i++ {
		c := href[i]
		switch {
		case c <= ' ' || c == 0x7f || strings.IndexByte(`()<>\`+"`", c) >= 0:
			fmt.Fprintf(&b, "%%%02X", c)
		case entityAt(href[i:]):
			b.WriteString(`\&`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// fenced writes text as a fenced code block whose fence is longer than any
// run of backticks inside it.
func fenced(text, lang string) string {
	run, longest := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimSuffix(text, "\n") + "\n" + fence
}

// splitLines splits s at every Markdown line ending: LF, CRLF and a lone CR.
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Split(strings.ReplaceAll(s, "\r", "\n"), "\n")
}

// yamlString quotes s as a YAML double-quoted scalar on one line, so a
// front matter value can neither break its line nor close the block. A
// JSON string is a YAML 1.2 double-quoted scalar (JSON escapes every
// control character, '"' and '\'); the characters YAML 1.2 does not allow
// unescaped (DEL, the C1 controls, U+FEFF, U+FFFE, U+FFFF) and those YAML
// 1.1 reads as line breaks (U+0085, U+2028, U+2029) become \u escapes too.
func yamlString(s string) string {
	var b strings.Builder
	for _, r := range jsonString(s) {
		if r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
