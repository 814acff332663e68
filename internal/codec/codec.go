// Package codec is the one JSON codec every stage uses for records.
//
// Two implementations write the same bytes (encoding/json's, HTML-escaped,
// sorted map keys, invalid UTF-8 replaced, with U+0008 and U+000C written
// as \u0008 and \u000c): github.com/segmentio/encoding/json, portable and
// cheap to start, and, on amd64 and arm64 with a Go release it supports,
// github.com/bytedance/sonic, about 3–10× faster per byte but paying a
// run-time compilation (JIT) of each record type and direction on first
// use. A process therefore starts every type on segmentio and moves one
// direction of a type to sonic only once it has decoded decodeAfter (or
// encoded encodeAfter) bytes of that type (a long stream), compiling it in
// the background meanwhile: one process per page never pays the
// compilation, a long pipe pays it once, and only for what it uses. Which one
// handles a record never shows in the bytes, and a decoding error is always
// segmentio's message, so output does not depend on a record's position in
// the stream (see docs/DECISIONS.md, "Codec per process lifetime").
package codec

import (
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/segmentio/encoding/json"
)

// Name reports which fast implementation this build can move to ("sonic"
// or "segmentio" when there is none).
func Name() string { return name }

// decodeAfter and encodeAfter are how many bytes of one record type a
// process decodes (encodes) with segmentio before it compiles that
// direction of the type for sonic. Measured on the scrapinghub records
// (segmentio against sonic, MB/s, and sonic's compilation of one type and
// direction, 0.03–0.25 s): decoding saves 7–23 ms a MB (normalized records
// most), so a decoder pays for itself within about 5–20 MB; encoding saves
// 1–2.5 ms a MB, so an encoder only past about 60–150 MB. A stage decodes
// one type and encodes another: each direction is compiled on its own, and
// only when the process has used it that much (docs/DECISIONS.md, "Codec
// per process lifetime").
const (
	decodeAfter = 8 << 20
	encodeAfter = 64 << 20
)

// Marshal encodes v compactly, with no trailing newline.
func Marshal(v any) ([]byte, error) {
	st := stateOf(v)
	if st != nil && st.enc.fast.Load() {
		b, err := fastMarshal(v)
		if err == nil {
			return b, nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = shortEscapes(b)
	if st != nil {
		st.enc.count(st.t, len(b), encodeAfter, pretouchEncoder)
	}
	return b, nil
}

// Unmarshal decodes data into v.
func Unmarshal(data []byte, v any) error {
	st := stateOf(v)
	if st != nil && st.dec.fast.Load() {
		if err := fastUnmarshal(data, v); err == nil {
			return nil
		}
		// Decode again for segmentio's error message (the value is
		// overwritten or left as encoding/json would leave it).
	}
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	if st != nil {
		st.dec.count(st.t, len(data), decodeAfter, pretouchDecoder)
	}
	return nil
}

// typeState is one record type's bytes so far in each direction and
// whether sonic has that direction.
type typeState struct {
	t        reflect.Type
	enc, dec direction
}

// direction is one way (encoding or decoding) of a type.
type direction struct {
	bytes   atomic.Int64
	started atomic.Bool // the background compilation has begun
	fast    atomic.Bool // sonic is compiled for it: use it
}

var states sync.Map // reflect.Type (pointers removed) → *typeState

// stateOf is v's type's state; nil when this build has no fast codec or
// v is nil.
func stateOf(v any) *typeState {
	if !haveFast || v == nil {
		return nil
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s, ok := states.Load(t); ok {
		return s.(*typeState)
	}
	s, _ := states.LoadOrStore(t, &typeState{t: t})
	return s.(*typeState)
}

// count adds n bytes; past after, t is compiled for sonic in this
// direction (compile) in the background, and used once compiled.
func (d *direction) count(t reflect.Type, n int, after int64, compile func(reflect.Type) error) {
	if d.bytes.Add(int64(n)) < after || d.started.Swap(true) {
		return
	}
	go func() {
		if compile(t) == nil {
			d.fast.Store(true)
		}
	}()
}

// shortEscapes rewrites segmentio's \b and \f escapes as sonic writes them,
// \u0008 and \u000c, so that both give the same bytes. Every backslash in
// encoded JSON starts an escape (a literal one is the escape \\), so
// walking from escape to escape is exact.
func shortEscapes(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b)-1; i++ {
		if b[i] != '\\' {
			continue
		}
		var rep string
		switch b[i+1] {
		case 'b':
			rep = `\u0008`
		case 'f':
			rep = `\u000c`
		}
		if rep != "" {
			if out == nil {
				out = make([]byte, 0, len(b)+8)
			}
			out = append(append(out, b[last:i]...), rep...)
			last = i + 2
		}
		i++ // the escaped character
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
