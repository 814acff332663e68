package c14n

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The encoder writes a Go value's canonical bytes straight from the value,
// without encoding/json and a second parse. It follows encoding/json's
// rules for which fields exist and what they are called (tags, omitempty,
// embedded structs, Marshaler and TextMarshaler, invalid UTF-8 coerced to
// U+FFFD), then writes them under c14n v1: members in key order (fixed once
// per struct type), integers only, RFC 8785 string escaping. The result is
// byte for byte what json.Marshal followed by Canonicalize gives, and the
// same values are rejected (the fuzz test holds it to that).

type encState struct {
	buf   []byte
	at    reflect.Value // a value written as raw instead of encoded
	atPtr uintptr
	raw   []byte

	// w, when set, takes buf whenever it passes flushAt between the items
	// of an array (Encode): a long array is never whole in memory.
	w       io.Writer
	flushed int // bytes already given to w
	werr    error
}

// flushAt is how much Encode buffers before writing to its writer.
const flushAt = 64 << 10

// off is the offset of the next byte written: errors name it.
func (e *encState) off() int { return e.flushed + len(e.buf) }

// flush gives buf to w; a write error stops the encoding at the next item.
func (e *encState) flush() error {
	if e.werr == nil && len(e.buf) > 0 {
		_, e.werr = e.w.Write(e.buf)
	}
	e.flushed += len(e.buf)
	e.buf = e.buf[:0]
	return e.werr
}

type encoderFunc func(e *encState, v reflect.Value, depth int) error

func (e *encState) encode(v reflect.Value, depth int) error {
	if depth > MaxDepth {
		return &Error{ErrDepth, e.off(), "nesting too deep"}
	}
	if e.atPtr != 0 && v.CanAddr() && v.Type() == e.at.Type().Elem() && v.Addr().Pointer() == e.atPtr {
		if e.w != nil && len(e.raw) >= flushAt {
			if err := e.flush(); err != nil {
				return err
			}
			if _, e.werr = e.w.Write(e.raw); e.werr != nil {
				return e.werr
			}
			e.flushed += len(e.raw)
			return nil
		}
		e.buf = append(e.buf, e.raw...)
		return nil
	}
	return typeEncoder(v.Type())(e, v, depth)
}

func (e *encState) value(v any) error {
	if v == nil {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	return e.encode(reflect.ValueOf(v), 0)
}

var encoderCache sync.Map // reflect.Type → encoderFunc

func typeEncoder(t reflect.Type) encoderFunc {
	if f, ok := encoderCache.Load(t); ok {
		return f.(encoderFunc)
	}
	// A recursive type reaches itself while its encoder is being built:
	// it gets an indirect function that waits for the real one.
	var (
		wg sync.WaitGroup
		f  encoderFunc
	)
	wg.Add(1)
	fi, loaded := encoderCache.LoadOrStore(t, encoderFunc(func(e *encState, v reflect.Value, depth int) error {
		wg.Wait()
		return f(e, v, depth)
	}))
	if loaded {
		return fi.(encoderFunc)
	}
	f = newTypeEncoder(t, true)
	wg.Done()
	encoderCache.Store(t, f)
	return f
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	numberType        = reflect.TypeFor[json.Number]()
)

func newTypeEncoder(t reflect.Type, allowAddr bool) encoderFunc {
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(marshalerType) {
		return condAddrEncoder(marshalerEncoder(false), newTypeEncoder(t, false))
	}
	if t.Implements(marshalerType) {
		return marshalerEncoder(true)
	}
	if t.Kind() != reflect.Pointer && allowAddr && reflect.PointerTo(t).Implements(textMarshalerType) {
		return condAddrEncoder(textMarshalerEncoder(false), newTypeEncoder(t, false))
	}
	if t.Implements(textMarshalerType) {
		return textMarshalerEncoder(true)
	}
	if t == numberType {
		return numberEncoder
	}
	switch t.Kind() {
	case reflect.Bool:
		return boolEncoder
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intEncoder
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintEncoder
	case reflect.Float32, reflect.Float64:
		return floatEncoder(t.Bits())
	case reflect.String:
		return stringEncoder
	case reflect.Interface:
		return interfaceEncoder
	case reflect.Struct:
		return newStructEncoder(t)
	case reflect.Map:
		return newMapEncoder(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(marshalerType) &&
			!reflect.PointerTo(t.Elem()).Implements(textMarshalerType) {
			return bytesEncoder
		}
		return newSliceEncoder(t)
	case reflect.Array:
		return newArrayEncoder(t)
	case reflect.Pointer:
		return newPtrEncoder(t)
	}
	return func(*encState, reflect.Value, int) error {
		return fmt.Errorf("c14n: json: unsupported type: %s", t)
	}
}

func condAddrEncoder(canAddr, elseEnc encoderFunc) encoderFunc {
	return func(e *encState, v reflect.Value, depth int) error {
		if v.CanAddr() {
			return canAddr(e, v, depth)
		}
		return elseEnc(e, v, depth)
	}
}

// marshalerEncoder writes what a json.Marshaler returns, canonicalized.
func marshalerEncoder(direct bool) encoderFunc {
	return func(e *encState, v reflect.Value, depth int) error {
		if direct && v.Kind() == reflect.Pointer && v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if !direct {
			v = v.Addr()
		}
		b, err := json.Marshal(v.Interface())
		if err != nil {
			return fmt.Errorf("c14n: %w", err)
		}
		return e.canonical(b, depth)
	}
}

// canonical appends JSON text b in canonical form, as a value nested at depth.
func (e *encState) canonical(b []byte, depth int) error {
	p, err := Parse(b)
	if err != nil {
		return err
	}
	if d := p.depth(); depth+d > MaxDepth {
		return &Error{ErrDepth, e.off(), "nesting too deep"}
	}
	e.buf = p.appendTo(e.buf)
	return nil
}

func (v Value) depth() int {
	d := 0
	for _, it := range v.Items {
		d = max(d, 1+it.depth())
	}
	for _, m := range v.Members {
		d = max(d, 1+m.Value.depth())
	}
	return d
}

func textMarshalerEncoder(direct bool) encoderFunc {
	return func(e *encState, v reflect.Value, _ int) error {
		if direct && v.Kind() == reflect.Pointer && v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		if !direct {
			v = v.Addr()
		}
		m, ok := v.Interface().(encoding.TextMarshaler)
		if !ok {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		b, err := m.MarshalText()
		if err != nil {
			return fmt.Errorf("c14n: %w", err)
		}
		e.buf = appendString(e.buf, string(b))
		return nil
	}
}

func numberEncoder(e *encState, v reflect.Value, depth int) error {
	s := v.String()
	if s == "" {
		s = "0"
	}
	if !isValidNumber(s) {
		return fmt.Errorf("c14n: json: invalid number literal %q", s)
	}
	return e.canonical([]byte(s), depth)
}

// isValidNumber is encoding/json's test of a json.Number.
func isValidNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		if s = s[1:]; s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			if s = s[1:]; s == "" {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return s == ""
}

func boolEncoder(e *encState, v reflect.Value, _ int) error {
	if v.Bool() {
		e.buf = append(e.buf, "true"...)
	} else {
		e.buf = append(e.buf, "false"...)
	}
	return nil
}

func intEncoder(e *encState, v reflect.Value, _ int) error {
	e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	return nil
}

func uintEncoder(e *encState, v reflect.Value, _ int) error {
	e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	return nil
}

// floatEncoder accepts the floats encoding/json writes as integer digits
// (integral, below 1e21 in magnitude) and rejects the rest, as parsing
// encoding/json's text would.
func floatEncoder(bits int) encoderFunc {
	return func(e *encState, v reflect.Value, _ int) error {
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return fmt.Errorf("c14n: json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, bits))
		}
		abs := math.Abs(f)
		if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
			return &Error{ErrExponent, e.off(), "a number with an exponent (c14n v1 allows integers only)"}
		}
		if f != math.Trunc(f) {
			return &Error{ErrFloat, e.off(), "a number with a fraction (c14n v1 allows integers only)"}
		}
		if f == 0 {
			e.buf = append(e.buf, '0')
			return nil
		}
		e.buf = strconv.AppendFloat(e.buf, f, 'f', -1, bits)
		return nil
	}
}

func stringEncoder(e *encState, v reflect.Value, _ int) error {
	e.buf = appendString(e.buf, v.String())
	return nil
}

func bytesEncoder(e *encState, v reflect.Value, _ int) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b := v.Bytes()
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
	return nil
}

func interfaceEncoder(e *encState, v reflect.Value, depth int) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	return e.encode(v.Elem(), depth)
}

func newPtrEncoder(t reflect.Type) encoderFunc {
	return func(e *encState, v reflect.Value, depth int) error {
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.encode(v.Elem(), depth)
	}
}

func newSliceEncoder(t reflect.Type) encoderFunc {
	return func(e *encState, v reflect.Value, depth int) error {
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return encodeArray(e, v, depth)
	}
}

func newArrayEncoder(t reflect.Type) encoderFunc { return encodeArray }

func encodeArray(e *encState, v reflect.Value, depth int) error {
	e.buf = append(e.buf, '[')
	for i, n := 0, v.Len(); i < n; i++ {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.encode(v.Index(i), depth+1); err != nil {
			return err
		}
		if e.w != nil && len(e.buf) >= flushAt {
			if err := e.flush(); err != nil {
				return err
			}
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

type mapEntry struct {
	key string
	v   reflect.Value
}

func newMapEncoder(t reflect.Type) encoderFunc {
	kt := t.Key()
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !kt.Implements(textMarshalerType) {
			return func(*encState, reflect.Value, int) error {
				return fmt.Errorf("c14n: json: unsupported type: %s", t)
			}
		}
	}
	return func(e *encState, v reflect.Value, depth int) error {
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		entries := make([]mapEntry, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			k, err := mapKey(it.Key())
			if err != nil {
				return err
			}
			entries = append(entries, mapEntry{coerceUTF8(k), it.Value()})
		}
		slices.SortFunc(entries, func(a, b mapEntry) int { return CompareKeys(a.key, b.key) })
		e.buf = append(e.buf, '{')
		for i, en := range entries {
			if i > 0 {
				if en.key == entries[i-1].key {
					return &Error{ErrDuplicateKey, e.off(), "duplicate key " + quoteKey(en.key)}
				}
				e.buf = append(e.buf, ',')
			}
			e.buf = appendString(e.buf, en.key)
			e.buf = append(e.buf, ':')
			if err := e.encode(en.v, depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
		return nil
	}
}

// mapKey is the member name encoding/json gives a map key.
func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if tm, ok := k.Interface().(encoding.TextMarshaler); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		b, err := tm.MarshalText()
		if err != nil {
			return "", fmt.Errorf("c14n: %w", err)
		}
		return string(b), nil
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("c14n: json: unexpected map key type %s", k.Type())
}

// coerceUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func coerceUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// appendString appends s as a canonical JSON string: RFC 8785's escaping,
// each invalid UTF-8 byte written as U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\t':
				b = append(b, '\\', 't')
			case '\n':
				b = append(b, '\\', 'n')
			case '\f':
				b = append(b, '\\', 'f')
			case '\r':
				b = append(b, '\\', 'r')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\uFFFD"...)
			i++
			start = i
			continue
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// field is one member of a struct type's canonical form.
type field struct {
	name      string
	nameJSON  []byte // "name": already escaped
	index     []int
	typ       reflect.Type
	omitEmpty bool
	tagged    bool
}

func newStructEncoder(t reflect.Type) encoderFunc {
	fields, ok := typeFields(t)
	if !ok {
		// A tag option this encoder does not reproduce (",string",
		// ",omitzero"): the type takes the long way round.
		return func(e *encState, v reflect.Value, depth int) error {
			x := v.Interface()
			if v.CanAddr() {
				x = v.Addr().Interface()
			}
			b, err := json.Marshal(x)
			if err != nil {
				return fmt.Errorf("c14n: %w", err)
			}
			return e.canonical(b, depth)
		}
	}
	return func(e *encState, v reflect.Value, depth int) error {
		e.buf = append(e.buf, '{')
		first := true
	next:
		for i := range fields {
			f := &fields[i]
			fv := v
			for _, j := range f.index[:len(f.index)-1] {
				fv = fv.Field(j)
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						continue next
					}
					fv = fv.Elem()
				}
			}
			fv = fv.Field(f.index[len(f.index)-1])
			if f.omitEmpty && isEmptyValue(fv) {
				continue
			}
			if !first {
				e.buf = append(e.buf, ',')
			}
			first = false
			e.buf = append(e.buf, f.nameJSON...)
			if err := e.encode(fv, depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
		return nil
	}
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// typeFields is encoding/json's field resolution (breadth first through
// embedded structs, the shallowest field winning, a tagged one at equal
// depth, none when still ambiguous), sorted once into canonical order.
// ok is false for a tag option the encoder does not reproduce.
func typeFields(t reflect.Type) ([]field, bool) {
	type scan struct {
		typ   reflect.Type
		index []int
	}
	current, next := []scan{}, []scan{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []field
	ok := true
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					ft := sf.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				omitEmpty := false
				for opt := range strings.SplitSeq(opts, ",") {
					switch opt {
					case "omitempty":
						omitEmpty = true
					case "string", "omitzero":
						ok = false
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, field{name: name, index: index, typ: ft, omitEmpty: omitEmpty, tagged: tagged})
					if count[f.typ] > 1 {
						// The same embedded type twice at one depth: both
						// copies annihilate; one extra entry is enough.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, scan{typ: ft, index: index})
				}
			}
		}
	}
	// Dominance: by name, then depth, then tagged, then index sequence.
	slices.SortStableFunc(fields, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 {
			out = append(out, group[0])
		} else if d := len(group[0].index); len(group[1].index) > d || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	out = slices.Clone(out)
	for i := range out {
		out[i].name = coerceUTF8(out[i].name)
		out[i].nameJSON = append(appendString(nil, out[i].name), ':')
	}
	slices.SortFunc(out, func(a, b field) int { return CompareKeys(a.name, b.name) })
	for i := 1; i < len(out); i++ {
		if out[i].name == out[i-1].name {
			ok = false // two names that coerce to one: let the parser reject it
		}
	}
	return out, ok
}

func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
