//go:build (amd64 || arm64) && !go1.28

package codec

import (
	"reflect"

	"github.com/bytedance/sonic"
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
func pretouch(t reflect.Type) error          { return sonic.Pretouch(t) }
