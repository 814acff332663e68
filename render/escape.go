package render

import (
	"fmt"
	"strings"
)

// Markdown escaping, the one minimal rule for page text in index.md:
//
//   - everywhere: "\" becomes "\\", "<" becomes "\<" (no inline HTML, no
//     comments, no autolinks) and "![" becomes "!\[" (no images the reader
//     did not ask for);
//   - at the start of a line (after its leading spaces, which are dropped):
//     a character that can open a Markdown block (# > - + * = _ ~ ` | [ :
//     or "<") gets a backslash, and so does the "." or ")" after a run of
//     digits ("1." would start an ordered list).
//
// So page text cannot start a heading, quote, list, fence, table, thematic
// break, setext underline, link definition or HTML block, and cannot forge
// front matter or the "<!-- section: ID -->" lines.

// escapeInline escapes text that sits inside a line sieve started.
func escapeInline(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "<", `\<`)
	return strings.ReplaceAll(s, "![", `!\[`)
}

// escapeLine escapes text that starts a line.
func escapeLine(s string) string {
	s = escapeInline(strings.TrimLeft(s, " \t"))
	if s == "" {
		return s
	}
	if strings.ContainsRune("#>-+*=_~`|[:", rune(s[0])) {
		return `\` + s
	}
	// s cannot start with "<" any more: escapeInline made it "\<".
	d := 0
	for d < len(s) && d < 10 && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d > 0 && d < len(s) && (s[d] == '.' || s[d] == ')') {
		return s[:d] + `\` + s[d:]
	}
	return s
}

// escapeLines escapes multi-line text line by line, dropping blank lines so
// that the text stays one paragraph.
func escapeLines(s string) string {
	var lines []string
	for _, l := range splitLines(s) {
		if l = escapeLine(strings.TrimRight(l, " \t")); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// headingText escapes a heading's text; a trailing "#" is escaped so it
// is not taken for a closing sequence.
func headingText(s string) string {
	s = escapeInline(oneLine(s))
	if strings.HasSuffix(s, "#") {
		s = s[:len(s)-1] + `\#`
	}
	return s
}

// linkText escapes text inside "[…]".
func linkText(s string) string {
	s = escapeInline(oneLine(s))
	s = strings.ReplaceAll(s, "[", `\[`)
	return strings.ReplaceAll(s, "]", `\]`)
}

// destination percent-encodes the characters that would end or break a
// Markdown link destination.
func destination(href string) string {
	var b strings.Builder
	for i := 0; i < len(href); i++ {
		c := href[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`()<>\`+"`", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
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
