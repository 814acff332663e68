// Package c14n is sieve's canonical JSON, version 1 (EEF SPEC.md §5.2), and
// the fingerprints computed over it.
//
// Canonical form, c14n v1:
//
//   - UTF-8, no byte order mark, no insignificant white space.
//   - Object members sorted by key in Unicode code point order, after
//     unescaping. This is where c14n v1 departs from RFC 8785, which
//     compares UTF-16 code units (§3.2.3): the two differ only when
//     U+E000–U+FFFF meets U+10000 and up.
//   - Numbers are integers only: an optional minus sign and digits, no
//     fraction, no exponent, no leading zeros. "-0" is written "0". Integers
//     are kept exactly as their digits, of any magnitude up to MaxDigits
//     digits; a consumer that needs I-JSON interoperability should keep
//     values within ±(2^53−1), which every sieve artifact does.
//   - One string escaping rule, RFC 8785's (ECMAScript JSON.stringify):
//     `"` and `\` are escaped with a backslash; U+0008, U+0009, U+000A,
//     U+000C and U+000D as \b \t \n \f \r; every other code point below
//     U+0020 as \u00xx with lower-case hex; everything else, including "/",
//     "<", U+007F, U+2028 and all non-ASCII, as raw UTF-8.
//   - true, false and null as themselves.
//
// Input is rejected, never repaired, when it is not exactly one JSON value:
// invalid UTF-8 (in strings or anywhere else), an escaped lone surrogate,
// a duplicate key within one object, a fraction or an exponent, nesting
// deeper than MaxDepth, or trailing data. encoding/json is not used to
// parse, because it accepts duplicate keys and invalid UTF-8.
//
// Marshal, FingerprintOf and MarshalReusing write Go values' canonical
// bytes directly (encode.go), with each struct type's member order fixed
// once and cached.
package c14n

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"reflect"
	"sync"
)

// Version names this canonicalization in the deterministic profile.
const Version = "ethos_c14n_v1"

// Limits on accepted input.
const (
	MaxDepth  = 512  // nesting of arrays and objects
	MaxDigits = 1000 // digits of one integer
)

// Error codes of rejected input, stable strings tests and callers branch on.
const (
	ErrSyntax        = "syntax"
	ErrInvalidUTF8   = "invalid_utf8"
	ErrLoneSurrogate = "lone_surrogate"
	ErrDuplicateKey  = "duplicate_key"
	ErrFloat         = "float"
	ErrExponent      = "exponent"
	ErrBigInteger    = "big_integer"
	ErrDepth         = "depth"
	ErrTrailing      = "trailing_data"
	ErrEmpty         = "empty"
)

// Error is a rejected input: what was wrong and at which byte offset.
type Error struct {
	Code   string
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("c14n: %s at byte %d: %s", e.Code, e.Offset, e.Msg)
}

// Canonicalize parses one JSON document and writes it in canonical form.
func Canonicalize(in []byte) ([]byte, error) {
	v, err := Parse(in)
	if err != nil {
		return nil, err
	}
	return v.appendTo(make([]byte, 0, len(in))), nil
}

// Marshal is the canonical bytes of any Go value whose numbers are
// integers, written straight from the value (encode.go): the same bytes as
// encoding/json's encoding canonicalized, and an error where that would
// fail. A float field with a fraction is an error, which is how
// quantization is enforced.
func Marshal(v any) ([]byte, error) {
	e := &encState{buf: make([]byte, 0, 256)}
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// MarshalReusing is Marshal(v), writing canon in place of the value part
// points to, wherever v holds it (part must point into v, as &doc.Payload
// into doc): canon is part's canonical bytes computed earlier (Marshal of
// *part), so a large member is encoded once for its hash and for the file.
// The caller keeps canon in step with *part.
func MarshalReusing(v any, part any, canon []byte) ([]byte, error) {
	pv := reflect.ValueOf(part)
	if pv.Kind() != reflect.Pointer || pv.IsNil() {
		return nil, fmt.Errorf("c14n: MarshalReusing needs a non-nil pointer, got %T", part)
	}
	e := &encState{buf: make([]byte, 0, len(canon)+4096), at: pv, atPtr: pv.Pointer(), raw: canon}
	if err := e.value(v); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// Encode writes Marshal(v) to w, giving w the bytes in pieces of about
// 64 KB between the items of arrays, so a value with a long array (a
// document's elements) is never whole in memory. On an error part of the
// bytes may have been written.
func Encode(w io.Writer, v any) error {
	return encodeTo(w, &encState{buf: make([]byte, 0, flushAt+4096), w: w}, v)
}

// EncodeReusing writes MarshalReusing(v, part, canon) to w as Encode
// does; canon is written to w directly.
func EncodeReusing(w io.Writer, v any, part any, canon []byte) error {
	pv := reflect.ValueOf(part)
	if pv.Kind() != reflect.Pointer || pv.IsNil() {
		return fmt.Errorf("c14n: EncodeReusing needs a non-nil pointer, got %T", part)
	}
	return encodeTo(w, &encState{buf: make([]byte, 0, flushAt+4096), w: w, at: pv, atPtr: pv.Pointer(), raw: canon}, v)
}

func encodeTo(w io.Writer, e *encState, v any) error {
	if err := e.value(v); err != nil {
		return err
	}
	return e.flush()
}

// Fingerprint is "sha256:" and the lower-case hex SHA-256 of b.
func Fingerprint(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

var bufPool = sync.Pool{New: func() any { return &encState{buf: make([]byte, 0, 4096)} }}

// FingerprintOf is the fingerprint of v's canonical bytes.
func FingerprintOf(v any) (string, error) {
	e := bufPool.Get().(*encState)
	defer func() {
		if cap(e.buf) <= 1<<20 {
			e.buf = e.buf[:0]
			bufPool.Put(e)
		}
	}()
	if err := e.value(v); err != nil {
		return "", err
	}
	return Fingerprint(e.buf), nil
}

// IsFingerprint reports whether s has the form sha256:<64 lowercase hex>.
func IsFingerprint(s string) bool {
	if len(s) != 71 || s[:7] != "sha256:" {
		return false
	}
	for _, c := range []byte(s[7:]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
