//go:build (amd64 || arm64) && !go1.28

package codec

import "github.com/bytedance/sonic"

const name = "sonic"

// api matches encoding/json's output byte for byte (see FACTS.md): the
// default sonic config leaves <>& and U+2028 raw and orders map keys
// randomly, which would break golden files and content hashes.
var api = sonic.Config{
	EscapeHTML:       true,
	SortMapKeys:      true,
	CompactMarshaler: true,
	ValidateString:   true,
}.Froze()

func marshal(v any) ([]byte, error)      { return api.Marshal(v) }
func unmarshal(data []byte, v any) error { return api.Unmarshal(data, v) }
