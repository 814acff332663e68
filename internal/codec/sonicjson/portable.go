//go:build !((amd64 || arm64) && !go1.28)

package sonicjson

import (
	"errors"
	"reflect"
)

// Available reports whether this build can run sonic.
const Available = false

var errNone = errors.New("sonicjson: sonic does not run on this build")

func Marshal(any) ([]byte, error)        { return nil, errNone }
func Unmarshal([]byte, any) error        { return errNone }
func PretouchEncoder(reflect.Type) error { return errNone }
func PretouchDecoder(reflect.Type) error { return errNone }
