package codec

import "github.com/sieve-dev/sieve/internal/codec/sonicjson"

// The codec's tests run with sonic where it runs, as the stage filters do
// (internal/codec/withsonic registers the same functions).
func init() {
	if sonicjson.Available {
		Use(Fast{
			Name:            "sonic",
			Marshal:         sonicjson.Marshal,
			Unmarshal:       sonicjson.Unmarshal,
			PretouchEncoder: sonicjson.PretouchEncoder,
			PretouchDecoder: sonicjson.PretouchDecoder,
		})
	}
}
