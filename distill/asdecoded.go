package distill

import (
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// asDecoded turns the record *v into the value the next stage would have
// decoded from its JSON line, so that handing Go values from stage to stage
// gives the same bytes as the pipe. For the record types of the chain (no
// unexported or "-" fields, no custom marshalers, no ",string": a test
// holds them to that) a JSON round trip changes exactly two things: an
// invalid UTF-8 byte in a string becomes U+FFFD (encoding/json's rule, one
// per byte), and an empty slice or map in an omitempty field is left out
// and comes back nil.
func asDecoded(v any) {
	walk(reflect.ValueOf(v))
}

func walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if v.Kind() == reflect.Interface {
			// An interface holds its value unaddressably: fix a copy.
			if needsCopy(e) {
				c := reflect.New(e.Type()).Elem()
				c.Set(e)
				walk(c)
				v.Set(c)
			} else {
				walk(e)
			}
			return
		}
		walk(e)
	case reflect.String:
		if s := v.String(); !utf8.ValidString(s) {
			v.SetString(validUTF8(s))
		}
	case reflect.Struct:
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if f.drop {
				if !fv.IsZero() {
					reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem().SetZero()
				}
				continue
			}
			if f.omitEmpty && (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 {
				fv.SetZero()
				continue
			}
			walk(fv)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // []byte: base64 both ways
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i))
		}
	case reflect.Map:
		walkMap(v)
	}
}

// needsCopy reports whether e (an interface's dynamic value) can only be
// fixed through a copy: a string or a struct, not a map, slice or pointer.
func needsCopy(e reflect.Value) bool {
	k := e.Kind()
	return k == reflect.String || k == reflect.Struct
}

// walkMap fixes keys and values; map entries are not addressable, so each
// is copied, fixed and stored again under its (fixed) key.
func walkMap(m reflect.Value) {
	if m.Len() == 0 {
		return
	}
	kt, vt := m.Type().Key(), m.Type().Elem()
	simple := vt.Kind() == reflect.String && kt.Kind() == reflect.String
	iter := m.MapRange()
	type entry struct{ oldKey, key, val reflect.Value }
	var fixed []entry
	for iter.Next() {
		k, val := iter.Key(), iter.Value()
		if simple {
			ks, vs := k.String(), val.String()
			if utf8.ValidString(ks) && utf8.ValidString(vs) {
				continue
			}
		}
		nk := k
		if kt.Kind() == reflect.String && !utf8.ValidString(k.String()) {
			nk = reflect.New(kt).Elem()
			nk.SetString(validUTF8(k.String()))
		}
		nv := reflect.New(vt).Elem()
		nv.Set(val)
		walk(nv)
		fixed = append(fixed, entry{k, nk, nv})
	}
	for _, e := range fixed {
		if !e.key.Equal(e.oldKey) {
			m.SetMapIndex(e.oldKey, reflect.Value{})
		}
		m.SetMapIndex(e.key, e.val)
	}
}

// validUTF8 replaces each invalid byte of s with U+FFFD, as encoding/json
// (and both codecs) write it.
func validUTF8(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

type fieldInfo struct {
	index     int
	omitEmpty bool
	drop      bool // not encoded: zero after a round trip
}

var fieldCache sync.Map // reflect.Type → []fieldInfo

// fieldsOf lists the JSON fields of struct type t.
func fieldsOf(t reflect.Type) []fieldInfo {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]fieldInfo)
	}
	var fs []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || (!sf.IsExported() && !sf.Anonymous) {
			fs = append(fs, fieldInfo{index: i, drop: true})
			continue
		}
		_, opts, _ := strings.Cut(tag, ",")
		fs = append(fs, fieldInfo{index: i, omitEmpty: hasOpt(opts, "omitempty")})
	}
	fieldCache.Store(t, fs)
	return fs
}

func hasOpt(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}
