// Package withsonic, imported for its side effect, gives the codec its fast
// implementation (sonic, where it runs). The stage filters import it: a
// long stream pays sonic's start-up once and gains on every MB after it,
// while the one-process-per-page `sieve` binary does not link sonic at all.
package withsonic

import (
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/codec/sonicjson"
)

func init() {
	if sonicjson.Available {
		codec.Use(codec.Fast{
			Name:            "sonic",
			Marshal:         sonicjson.Marshal,
			Unmarshal:       sonicjson.Unmarshal,
			PretouchEncoder: sonicjson.PretouchEncoder,
			PretouchDecoder: sonicjson.PretouchDecoder,
		})
	}
}
