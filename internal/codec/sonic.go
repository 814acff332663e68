package codec

import "reflect"

// Fast is a faster implementation that writes the same bytes
// (github.com/bytedance/sonic, in package sonicjson). The codec moves a
// record type to it only after a long stream, and a binary links it in only
// when it streams: sonic's package initialisation loads its native code on
// every start, whether a record ever reaches it or not (about 2 MB
// allocated before main), so the one-process-per-page `sieve` binary
// leaves it out and the stage filters import internal/codec/withsonic.
type Fast struct {
	Name                             string
	Marshal                          func(any) ([]byte, error)
	Unmarshal                        func([]byte, any) error
	PretouchEncoder, PretouchDecoder func(reflect.Type) error
}

var (
	fast     Fast
	haveFast bool
	name     = "segmentio"
)

// Use makes f the implementation record types move to. Call it before the
// first record is coded (from a package's init).
func Use(f Fast) { fast, haveFast, name = f, true, f.Name }

func fastMarshal(v any) ([]byte, error)      { return fast.Marshal(v) }
func fastUnmarshal(data []byte, v any) error { return fast.Unmarshal(data, v) }

// pretouchEncoder and pretouchDecoder compile one direction of t (and of
// *t) for the fast implementation.
func pretouchEncoder(t reflect.Type) error { return fast.PretouchEncoder(t) }
func pretouchDecoder(t reflect.Type) error { return fast.PretouchDecoder(t) }
