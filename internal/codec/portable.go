//go:build !((amd64 || arm64) && !go1.28)

package codec

import "reflect"

const name = "segmentio"

const haveFast = false

func fastMarshal(any) ([]byte, error)    { panic("codec: no fast implementation") }
func fastUnmarshal([]byte, any) error    { panic("codec: no fast implementation") }
func pretouchEncoder(reflect.Type) error { return nil }
func pretouchDecoder(reflect.Type) error { return nil }
