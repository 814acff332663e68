package c14n

import (
	"bytes"
	"strings"
)

type writer interface {
	WriteByte(byte) error
	WriteString(string) (int, error)
}

var (
	_ writer = (*bytes.Buffer)(nil)
	_ writer = (*strings.Builder)(nil)
)

// Bytes is v in canonical form.
func (v Value) Bytes() []byte {
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes()
}

func (v Value) write(w writer) {
	switch v.Kind {
	case String:
		writeString(w, v.Str)
	case Array:
		w.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				w.WriteByte(',')
			}
			it.write(w)
		}
		w.WriteByte(']')
	case Object:
		w.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				w.WriteByte(',')
			}
			writeString(w, m.Key)
			w.WriteByte(':')
			m.Value.write(w)
		}
		w.WriteByte('}')
	default: // null, booleans, integers: their canonical text
		w.WriteString(v.Str)
	}
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JSON string under RFC 8785's escaping rule.
func writeString(w writer, s string) {
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		w.WriteString(s[start:i])
		start = i + 1
		switch c {
		case '"', '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case '\b':
			w.WriteString(`\b`)
		case '\t':
			w.WriteString(`\t`)
		case '\n':
			w.WriteString(`\n`)
		case '\f':
			w.WriteString(`\f`)
		case '\r':
			w.WriteString(`\r`)
		default:
			w.WriteString(`\u00`)
			w.WriteByte(hexDigits[c>>4])
			w.WriteByte(hexDigits[c&0xf])
		}
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}

// appendTo appends v in canonical form to b.
func (v Value) appendTo(b []byte) []byte {
	switch v.Kind {
	case String:
		return appendString(b, v.Str)
	case Array:
		b = append(b, '[')
		for i, it := range v.Items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendTo(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.Key)
			b = append(b, ':')
			b = m.Value.appendTo(b)
		}
		return append(b, '}')
	default: // null, booleans, integers: their canonical text
		return append(b, v.Str...)
	}
}
