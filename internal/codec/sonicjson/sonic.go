//go:build (amd64 || arm64) && !go1.28

// Package sonicjson is github.com/bytedance/sonic configured to write
// encoding/json's bytes, the codec's fast implementation (codec.Fast). It
// imports nothing of sieve's, so the codec's own tests can use it too.
package sonicjson

import (
	"reflect"

	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/decoder"
	"github.com/bytedance/sonic/encoder"
)

// Available reports whether this build can run sonic.
const Available = true

// api matches encoding/json's output byte for byte (see FACTS.md) but for
// \b and \f, which segmentio's output is rewritten to match: the default
// sonic config leaves <>& and U+2028 raw and orders map keys randomly,
// which would break golden files and content hashes.
var api = sonic.Config{
	EscapeHTML:       true,
	SortMapKeys:      true,
	CompactMarshaler: true,
	ValidateString:   true,
}.Froze()

// Marshal and Unmarshal are sonic's, configured as above.
func Marshal(v any) ([]byte, error)      { return api.Marshal(v) }
func Unmarshal(data []byte, v any) error { return api.Unmarshal(data, v) }

// PretouchEncoder and PretouchDecoder compile one direction of t (and of
// *t, as sonic.Pretouch does for both directions).
func PretouchEncoder(t reflect.Type) error {
	return encoder.PretouchMany([]reflect.Type{t, reflect.PointerTo(t)})
}

func PretouchDecoder(t reflect.Type) error {
	return decoder.PretouchMany([]reflect.Type{t, reflect.PointerTo(t)})
}
