package record

// Peek reads the kind of a sieve record line without reading the rest of
// it, at a cost that does not grow with the line: the line (white space
// around it allowed) starts with '{' and ends with '}', its first member is
// "record" (the key written without escapes) and that member's value is a
// non-empty string without escapes or control characters, followed by ','
// or '}'. ok is false for any other line, which the caller then walks whole
// (Walk, KindOf).
//
// Nothing between the kind and the final '}' is looked at, so a line Peek
// accepts may still be malformed JSON (a line cut just after a nested
// object's end, say). It is for the lines a stage passes through without
// reading them; the stage that reads a kind checks its lines whole. On a
// line that Walk finds to be a valid object, a kind Peek gives is KindOf's.
func Peek(line []byte) (kind []byte, ok bool) {
	i := skipSpace(line, 0)
	j := len(line)
	for j > i && isSpace(line[j-1]) {
		j--
	}
	if j-i < 2 || line[i] != '{' || line[j-1] != '}' {
		return nil, false
	}
	end := j - 1 // the closing brace
	i = skipSpace(line, i+1)
	const key = `"record"`
	if end-i < len(key) || string(line[i:i+len(key)]) != key {
		return nil, false
	}
	i = skipSpace(line, i+len(key))
	if i >= end || line[i] != ':' {
		return nil, false
	}
	i = skipSpace(line, i+1)
	if i >= end || line[i] != '"' {
		return nil, false
	}
	start := i + 1
	for i = start; i < end; i++ {
		c := line[i]
		if c == '"' {
			break
		}
		if c == '\\' || c < 0x20 {
			return nil, false
		}
	}
	if i >= end || i == start {
		return nil, false
	}
	kind = line[start:i]
	i = skipSpace(line, i+1)
	if i != end && line[i] != ',' {
		return nil, false
	}
	return kind, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// TopEach is Top one member at a time: it calls fn with each top-level
// member of line in order and stops reading as soon as fn returns false,
// so a caller that wants the first few members of a long line reads only
// those. Like Top it trusts the syntax (for lines a stage wrote itself).
// It reports false when the line, as far as it was read, is not an object
// or ends inside one.
func TopEach(line []byte, fn func(Member) bool) bool {
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return skipSpace(line, i+1) == len(line)
	}
	for {
		if i >= len(line) || line[i] != '"' {
			return false
		}
		k := quickString(line, i+1)
		if k < 0 {
			return false
		}
		key := line[i:k]
		i = skipSpace(line, k)
		if i >= len(line) || line[i] != ':' {
			return false
		}
		i = skipSpace(line, i+1)
		e := quickValue(line, i)
		if e < 0 {
			return false
		}
		if !fn(Member{Key: key, Value: line[i:e]}) {
			return true
		}
		i = skipSpace(line, e)
		if i < len(line) && line[i] == ',' {
			i = skipSpace(line, i+1)
			continue
		}
		return i < len(line) && line[i] == '}' && skipSpace(line, i+1) == len(line)
	}
}
