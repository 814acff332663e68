package c14n

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the type of a JSON value.
type Kind int

// JSON value kinds.
const (
	Null Kind = iota
	Bool
	Integer
	String
	Array
	Object
)

// Value is one parsed JSON value. Object members are sorted canonically.
type Value struct {
	Kind    Kind
	Str     string // a String's text, an Integer's digits (with "-"), "true"/"false"
	Items   []Value
	Members []Member
}

// Member is one object member.
type Member struct {
	Key   string
	Value Value
}

type parser struct {
	in  []byte
	pos int
}

// Parse parses exactly one JSON document under c14n v1's input rules.
func Parse(in []byte) (Value, error) {
	if !utf8.Valid(in) {
		return Value{}, &Error{ErrInvalidUTF8, invalidAt(in), "input is not valid UTF-8"}
	}
	p := &parser{in: in}
	p.space()
	if p.pos == len(in) {
		return Value{}, p.fail(ErrEmpty, "no JSON value")
	}
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.pos != len(in) {
		return Value{}, p.fail(ErrTrailing, "data after the JSON value")
	}
	return v, nil
}

func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func (p *parser) fail(code, msg string) *Error { return &Error{code, p.pos, msg} }

func (p *parser) space() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (Value, error) {
	if depth > MaxDepth {
		return Value{}, p.fail(ErrDepth, "nesting too deep")
	}
	if p.pos >= len(p.in) {
		return Value{}, p.fail(ErrSyntax, "unexpected end of input")
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		return Value{Kind: String, Str: s}, err
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		text string
		kind Kind
	}{{"true", Bool}, {"false", Bool}, {"null", Null}} {
		if strings.HasPrefix(string(p.in[p.pos:min(len(p.in), p.pos+5)]), lit.text) {
			p.pos += len(lit.text)
			return Value{Kind: lit.kind, Str: lit.text}, nil
		}
	}
	return Value{}, p.fail(ErrSyntax, "unexpected character")
}

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	v := Value{Kind: Object, Members: []Member{}}
	seen := map[string]bool{}
	p.space()
	if p.peek('}') {
		return v, nil
	}
	for {
		p.space()
		if p.pos >= len(p.in) || p.in[p.pos] != '"' {
			return Value{}, p.fail(ErrSyntax, "expected a string key")
		}
		at := p.pos
		k, err := p.str()
		if err != nil {
			return Value{}, err
		}
		if seen[k] {
			return Value{}, &Error{ErrDuplicateKey, at, "duplicate key " + quoteKey(k)}
		}
		seen[k] = true
		p.space()
		if !p.peek(':') {
			return Value{}, p.fail(ErrSyntax, "expected ':'")
		}
		p.space()
		m, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Members = append(v.Members, Member{k, m})
		p.space()
		if p.peek('}') {
			sortMembers(v.Members)
			return v, nil
		}
		if !p.peek(',') {
			return Value{}, p.fail(ErrSyntax, "expected ',' or '}'")
		}
	}
}

func quoteKey(k string) string {
	var b strings.Builder
	writeString(&b, k)
	return b.String()
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	v := Value{Kind: Array, Items: []Value{}}
	p.space()
	if p.peek(']') {
		return v, nil
	}
	for {
		p.space()
		item, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Items = append(v.Items, item)
		p.space()
		if p.peek(']') {
			return v, nil
		}
		if !p.peek(',') {
			return Value{}, p.fail(ErrSyntax, "expected ',' or ']'")
		}
	}
}

// peek consumes c when it is next.
func (p *parser) peek(c byte) bool {
	if p.pos < len(p.in) && p.in[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *parser) number() (Value, error) {
	start := p.pos
	neg := p.peek('-')
	digits := p.pos
	for p.pos < len(p.in) && p.in[p.pos] >= '0' && p.in[p.pos] <= '9' {
		p.pos++
	}
	d := string(p.in[digits:p.pos])
	switch {
	case d == "":
		return Value{}, &Error{ErrSyntax, start, "a minus sign without digits"}
	case len(d) > 1 && d[0] == '0':
		return Value{}, &Error{ErrSyntax, start, "leading zero"}
	case len(d) > MaxDigits:
		return Value{}, &Error{ErrBigInteger, start, "integer longer than the digit limit"}
	}
	if p.pos < len(p.in) {
		switch p.in[p.pos] {
		case '.':
			return Value{}, &Error{ErrFloat, start, "a number with a fraction (c14n v1 allows integers only)"}
		case 'e', 'E':
			return Value{}, &Error{ErrExponent, start, "a number with an exponent (c14n v1 allows integers only)"}
		}
	}
	if neg && d != "0" {
		d = "-" + d
	}
	return Value{Kind: Integer, Str: d}, nil
}

func (p *parser) str() (string, error) {
	p.pos++ // opening quote
	var b strings.Builder
	for {
		if p.pos >= len(p.in) {
			return "", p.fail(ErrSyntax, "unterminated string")
		}
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.fail(ErrSyntax, "control character in string")
		default:
			b.WriteByte(c) // input is valid UTF-8 as a whole
			p.pos++
		}
	}
}

func (p *parser) escape(b *strings.Builder) error {
	if p.pos+1 >= len(p.in) {
		return p.fail(ErrSyntax, "unterminated escape")
	}
	c := p.in[p.pos+1]
	if r, ok := simpleEscapes[c]; ok {
		b.WriteByte(r)
		p.pos += 2
		return nil
	}
	if c != 'u' {
		return p.fail(ErrSyntax, "invalid escape")
	}
	at := p.pos
	r, err := p.hex4()
	if err != nil {
		return err
	}
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if r < 0xDC00 && p.pos+1 < len(p.in) && p.in[p.pos] == '\\' && p.in[p.pos+1] == 'u' {
			if r2, err = p.hex4(); err != nil {
				return err
			}
		}
		if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
			return &Error{ErrLoneSurrogate, at, "an escaped surrogate without its pair"}
		}
	}
	b.WriteRune(r)
	return nil
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads \uXXXX at p.pos.
func (p *parser) hex4() (rune, error) {
	if p.pos+6 > len(p.in) {
		return 0, p.fail(ErrSyntax, "short \\u escape")
	}
	var r rune
	for _, c := range p.in[p.pos+2 : p.pos+6] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, p.fail(ErrSyntax, "invalid \\u escape")
		}
	}
	p.pos += 6
	return r, nil
}

// sortMembers orders members by key in code point order (c14n v1).
func sortMembers(ms []Member) {
	slices.SortFunc(ms, func(a, b Member) int { return CompareKeys(a.Key, b.Key) })
}

// CompareKeys orders two valid UTF-8 keys by Unicode code point, as c14n v1
// sorts object members (not RFC 8785's UTF-16 code units, which put
// U+10000 and up before U+E000–U+FFFF). UTF-8 byte order is code point
// order, so the keys compare as bytes, without decoding.
func CompareKeys(a, b string) int { return strings.Compare(a, b) }
