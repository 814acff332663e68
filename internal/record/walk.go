package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// Member is one top-level member of a JSON object line, as raw bytes of
// the line: Key with its quotes and any escapes, Value exactly as written.
type Member struct {
	Key, Value []byte
}

// Name is the member's key as a string: its bytes between the quotes, or
// the unescaped text when the key holds an escape.
func (m Member) Name() string {
	raw := m.Key[1 : len(m.Key)-1]
	for _, c := range raw {
		if c == '\\' {
			var s string
			if json.Unmarshal(m.Key, &s) == nil {
				return s
			}
			break
		}
	}
	return string(raw)
}

// Is reports whether the member's key is name, comparing the raw bytes
// unless the key holds an escape.
func (m Member) Is(name string) bool {
	k := m.Key
	if len(k) == len(name)+2 && string(k[1:len(k)-1]) == name {
		return true
	}
	return bytes.IndexByte(k, '\\') >= 0 && m.Name() == name
}

// Walk reads one JSON line in a single pass: valid reports that line is
// exactly one JSON value (white space around it allowed), object that the
// value is an object, whose top-level members are appended to ms. Values
// are skipped, never decoded: strings are scanned eight bytes at a time
// for a quote, a backslash or a control character and never unescaped,
// and nothing is allocated but ms and, past 64 levels, the nesting stack.
// The syntax is RFC 8259's, as gjson.ValidBytes and encoding/json.Valid
// check it (strings are not checked for valid UTF-8, as neither does).
func Walk(line []byte, ms []Member) (out []Member, valid, object bool) {
	i := skipSpace(line, 0)
	if i < len(line) && line[i] == '{' {
		i = skipSpace(line, i+1)
		if i < len(line) && line[i] == '}' {
			return ms, skipSpace(line, i+1) == len(line), true
		}
		for {
			if i >= len(line) || line[i] != '"' {
				return ms, false, false
			}
			k, ok := skipString(line, i+1)
			if !ok {
				return ms, false, false
			}
			key := line[i:k]
			i = skipSpace(line, k)
			if i >= len(line) || line[i] != ':' {
				return ms, false, false
			}
			i = skipSpace(line, i+1)
			e, ok := skipValue(line, i)
			if !ok {
				return ms, false, false
			}
			ms = append(ms, Member{Key: key, Value: line[i:e]})
			i = skipSpace(line, e)
			if i < len(line) && line[i] == ',' {
				i = skipSpace(line, i+1)
				continue
			}
			if i < len(line) && line[i] == '}' {
				return ms, skipSpace(line, i+1) == len(line), true
			}
			return ms, false, false
		}
	}
	e, ok := skipValue(line, i)
	return ms, ok && skipSpace(line, e) == len(line), false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// skipString returns the end of the string whose opening quote is just
// before i.
func skipString(b []byte, i int) (int, bool) {
	for {
		// Eight bytes at a time: the lowest byte flagged is exactly the
		// first quote, backslash or byte below 0x20 (a borrow only runs
		// upwards, past a byte already flagged).
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			q := x ^ (ones * '"')
			s := x ^ (ones * '\\')
			m := ((q - ones) &^ q) | ((s - ones) &^ s) | ((x - ones*0x20) &^ x)
			if m &= highs; m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c == '\\':
			if i+1 >= len(b) {
				return i, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return i, false
				}
				i += 6
			default:
				return i, false
			}
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func skipNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, false
		}
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		}
	}
	return i, true
}

func skipLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// skipValue returns the end of the JSON value at i, without recursion:
// the open arrays and objects are a stack of their opening bytes.
func skipValue(b []byte, i int) (int, bool) {
	var buf [64]byte
	stack := buf[:0]
	var ok bool
	for {
		// A value at i.
		i = skipSpace(b, i)
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case '"':
			i, ok = skipString(b, i+1)
		case '{':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == '}' {
				i, ok = i+1, true
				break
			}
			stack = append(stack, '{')
			if i, ok = skipKey(b, i); !ok {
				return i, false
			}
			continue
		case '[':
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i, ok = i+1, true
				break
			}
			stack = append(stack, '[')
			continue
		case 't':
			i, ok = skipLiteral(b, i, "true")
		case 'f':
			i, ok = skipLiteral(b, i, "false")
		case 'n':
			i, ok = skipLiteral(b, i, "null")
		default:
			i, ok = skipNumber(b, i)
		}
		if !ok {
			return i, false
		}
		// After a value: close what ends here, or go on to the next one.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				i++
				if top == '{' {
					if i, ok = skipKey(b, skipSpace(b, i)); !ok {
						return i, false
					}
				}
				break
			}
			if top == '{' && b[i] == '}' || top == '[' && b[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return i, false
		}
	}
}

// skipKey skips `"key" :` at i.
func skipKey(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, ok := skipString(b, i+1)
	if !ok {
		return i, false
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return i + 1, true
}

// Top lists the top-level members of a JSON object line without checking
// the line's syntax: strings are skipped by looking for their closing
// quote (bytes.IndexByte, then the backslashes before it), nested values
// by counting brackets outside strings. It is for lines a stage wrote
// itself, which are valid JSON by construction; on a valid object it
// gives Walk's members, and ok is false when the line is not an object or
// ends inside one.
func Top(line []byte, ms []Member) (out []Member, ok bool) {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return ms, false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return ms, skipSpace(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return ms, false
		}
		k := quickString(line, i+1)
		if k < 0 {
			return ms, false
		}
		key := line[i:k]
		i = skipSpace(line, k)
		if i >= len(line) || line[i] != ':' {
			return ms, false
		}
		i = skipSpace(line, i+1)
		e := quickValue(line, i)
		if e < 0 {
			return ms, false
		}
		ms = append(ms, Member{Key: key, Value: line[i:e]})
		i = skipSpace(line, e)
		if i < len(line) && line[i] == ',' {
			i = skipSpace(line, i+1)
			continue
		}
		return ms, i < len(line) && line[i] == '}' && skipSpace(line, i+1) == len(line)
	}
}

// quickString is the end of the string whose opening quote is just before
// i (-1 when it does not end): the first quote not escaped, i.e. preceded
// by an even number of backslashes.
func quickString(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		q := i + j
		n := 0
		for q-1-n >= i && b[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
}

// quickValue is the end of the value at i (-1 when it does not end).
func quickValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			if i = quickString(b, i+1); i < 0 {
				return -1
			}
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // a scalar just before its object's end
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		case ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	if depth == 0 {
		return i
	}
	return -1
}
