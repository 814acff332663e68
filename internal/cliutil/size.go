package cliutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// Size is a byte count flag value that takes units: 100000, 512KiB, 10MiB,
// 1GiB (binary), 10kB, 5MB, 1GB (decimal), 1.5MiB.
type Size struct{ N int64 }

var sizeUnits = []struct {
	suffix string
	mult   float64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
}

var errSize = errors.New("not a size: give bytes, or a number with a unit, as in 100000, 512KiB or 10MiB")

// ParseSize reads a size with an optional unit.
func ParseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && mult == 1 {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f*mult > 1<<62 || s == "" || strings.ContainsAny(s, "eEnN") {
		return 0, errSize
	}
	return int64(f * mult), nil
}

// Set and String make Size a flag.Value.
func (z *Size) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	z.N = n
	return nil
}

func (z *Size) String() string {
	if z == nil {
		return "0"
	}
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if z.N >= u.mult && z.N%u.mult == 0 {
			return fmt.Sprintf("%d%s", z.N/u.mult, u.suffix)
		}
	}
	return strconv.FormatInt(z.N, 10)
}

// SizeFlag is a flag holding a Size.
func SizeFlag(name string, value int64, usage string) cli.Flag {
	return &cli.GenericFlag{Name: name, Value: &Size{value}, Usage: usage + " (bytes; units KiB, MiB, GiB, kB, MB, GB)"}
}

// SizeOf reads a SizeFlag of a running command.
func SizeOf(c *cli.Context, name string) int64 {
	if z, ok := c.Generic(name).(*Size); ok {
		return z.N
	}
	return 0
}
