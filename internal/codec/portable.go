//go:build !((amd64 || arm64) && !go1.28)

package codec

import "github.com/segmentio/encoding/json"

const name = "segmentio"

func marshal(v any) ([]byte, error)      { return json.Marshal(v) }
func unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
