//go:build (amd64 || arm64) && !go1.28

package codec

import (
	"reflect"

	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/decoder"
	"github.com/bytedance/sonic/encoder"
)

const name = "sonic"

const haveFast = true

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

func fastMarshal(v any) ([]byte, error)      { return api.Marshal(v) }
func fastUnmarshal(data []byte, v any) error { return api.Unmarshal(data, v) }

// pretouchEncoder and pretouchDecoder compile one direction of t (and of
// *t, as sonic.Pretouch does for both directions).
func pretouchEncoder(t reflect.Type) error {
	return encoder.PretouchMany([]reflect.Type{t, reflect.PointerTo(t)})
}

func pretouchDecoder(t reflect.Type) error {
	return decoder.PretouchMany([]reflect.Type{t, reflect.PointerTo(t)})
}
