package normalize

import "strings"

// cleanCSS prepares CSS text for douceur, whose parser loops forever on a
// stray ";" where a rule should start, builds preludes and values by
// repeated string concatenation, and whose tokenizer rescans the rest of
// the input for an unclosed url(. So: url(...) contents are dropped (they
// never decide visibility) and the text is cut at an unclosed url(; empty
// declarations (";;", "{;") and semicolons where a rule should start are
// removed. decls says s is a declaration list (a style attribute) rather
// than a style sheet. Callers check cheapToParse on what they hand douceur.
func cleanCSS(s string, decls bool) string {
	c := cssCleaner{s: strings.TrimPrefix(s, "\uFEFF"), decls: decls, last: '{', stmtStart: true}
	c.b.Grow(len(c.s))
	c.run()
	return c.b.String()
}

// cheapToParse reports that douceur's work on s stays about linear.
func cheapToParse(s string) bool { return cssCost(s) <= 64*len(s)+1<<20 }

type cssCleaner struct {
	s         string
	b         strings.Builder
	decls     bool
	blocks    []bool // open braces: true for a block of rules (@media…)
	last      byte   // last non-space byte written
	stmtStart bool   // at the start of a statement
	atName    int    // output offset of the current statement's at-keyword, or -1
}

func (c *cssCleaner) run() {
	c.atName = -1
	for i := 0; i < len(c.s); i++ {
		ch := c.s[i]
		if !c.stmtStart && !cssSpecial[ch] { // copy a plain run at once
			j := i + 1
			for j < len(c.s) && !cssSpecial[c.s[j]] {
				j++
			}
			c.b.WriteString(c.s[i:j])
			if t := strings.TrimRight(c.s[i:j], " \t\n\r\f"); t != "" {
				c.last = t[len(t)-1]
			}
			i = j - 1
			continue
		}
		switch {
		case (ch == 'u' || ch == 'U') && strings.HasPrefix(strings.ToLower(c.s[i:min(i+4, len(c.s))]), "url("):
			j := strings.IndexByte(c.s[i+4:], ')')
			if j < 0 {
				return
			}
			c.write("url()")
			i += 4 + j
			continue
		case ch == '"' || ch == '\'':
			j := strings.IndexByte(c.s[i+1:], ch)
			if j < 0 {
				return
			}
			c.write(c.s[i : i+j+2])
			i += j + 1
			continue
		case ch == '\\':
			end := min(i+2, len(c.s))
			c.write(c.s[i:end])
			i = end - 1
			continue
		case ch == '/' && strings.HasPrefix(c.s[i:], "/*"):
			j := strings.Index(c.s[i+2:], "*/")
			if j < 0 {
				return
			}
			c.b.WriteString(c.s[i : i+j+4])
			i += j + 3
			continue
		case ch == ';':
			if c.last == ';' || c.last == '{' || (c.inRules() && c.atName < 0) {
				continue
			}
			c.endStatement()
		case ch == '{' && c.stmtStart && c.inRules():
			return // a block without a prelude: douceur stops (or worse) here
		case ch == '{':
			c.blocks = append(c.blocks, c.atName >= 0 && douceurEmbedsRules(c.atKeyword()))
			c.endStatement()
		case ch == '}':
			if len(c.blocks) > 0 {
				c.blocks = c.blocks[:len(c.blocks)-1]
			}
			c.endStatement()
		case c.stmtStart && !cssSpace(ch):
			c.stmtStart = false
			if ch == '@' && c.inRules() && atKeywordAt(c.s, i) {
				c.atName = c.b.Len()
			}
		}
		c.b.WriteByte(ch)
		if !cssSpace(ch) {
			c.last = ch
		}
	}
}

// cssSpecial are the bytes cssCleaner looks at; it copies others through.
var cssSpecial = byteSet(`uU"'\/;{}`)

func byteSet(s string) (t [256]bool) {
	for i := 0; i < len(s); i++ {
		t[s[i]] = true
	}
	return t
}

func (c *cssCleaner) write(s string) {
	c.stmtStart = false
	c.b.WriteString(s)
	c.last = s[len(s)-1]
}

func (c *cssCleaner) inRules() bool {
	if len(c.blocks) == 0 {
		return !c.decls
	}
	return c.blocks[len(c.blocks)-1]
}

func (c *cssCleaner) endStatement() { c.stmtStart, c.atName = true, -1 }

// atKeyword is the current statement's at-keyword ("@media").
func (c *cssCleaner) atKeyword() string {
	s := c.b.String()[c.atName:]
	end := 1
	for end < len(s) && charClass(s[end]) == 1 {
		end++
	}
	return s[:end]
}

// atKeywordAt reports whether s[i] ("@") starts an at-keyword token: "@",
// an optional "-", then a name-start character.
func atKeywordAt(s string, i int) bool {
	i++
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i >= len(s) {
		return false
	}
	ch := s[i]
	return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch == '_' || ch == '\\' || ch >= 0x80
}

// douceurEmbedsRules mirrors douceur's list of at-rules whose block holds
// rules (css.Rule.EmbedsRules), names compared as douceur does.
func douceurEmbedsRules(name string) bool {
	switch name {
	case "@document", "@font-feature-values", "@keyframes", "@media", "@supports":
		return true
	}
	return false
}

func cssSpace(ch byte) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f'
}

// cssCost estimates the parser's work: a run of t tokens over b bytes
// between ";", "{" and "}" costs about t×b to concatenate.
func cssCost(s string) int {
	cost, bytes, tokens := 0, 0, 0
	prev := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ';', '{', '}':
			cost += bytes * tokens
			bytes, tokens, prev = 0, 0, 0
			continue
		case '"', '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				j = len(s) - i - 1
			}
			bytes += j + 2
			tokens++
			i += j + 1
			prev = 0
			continue
		}
		cl := charClass(c)
		if cl == 3 || cl != prev {
			tokens++
		}
		prev = cl
		bytes++
	}
	return cost + bytes*tokens
}

// charClass: 1 name characters, 2 white space, 3 anything else (each its
// own token, as a run of "-" is to the tokenizer).
func charClass(c byte) int {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c >= 0x80:
		return 1
	case c == ' ', c == '\t', c == '\n', c == '\r', c == '\f':
		return 2
	}
	return 3
}
