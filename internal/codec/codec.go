// Package codec is the one JSON codec every stage uses for records.
//
// On amd64 and arm64 with a Go release sonic supports it is
// github.com/bytedance/sonic, configured to write the same bytes as
// encoding/json (HTML-escaped, sorted map keys, invalid UTF-8 replaced);
// elsewhere it is github.com/segmentio/encoding/json, a portable drop-in.
// Both are deterministic: same value, same bytes.
package codec

// Name reports which implementation this build uses ("sonic" or "segmentio").
func Name() string { return name }

// Marshal encodes v compactly, with no trailing newline.
func Marshal(v any) ([]byte, error) { return marshal(v) }

// Unmarshal decodes data into v.
func Unmarshal(data []byte, v any) error { return unmarshal(data, v) }
