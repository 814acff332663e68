package verify

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// interspersed applies flags given after DOC (`sieve verify DOC --citations
// F`, EEF's shape): urfave/cli stops parsing flags at the first argument.
func interspersed(c *cli.Context) ([]string, error) { return Interspersed(c, "fail-on-ungrounded") }

// Interspersed returns c's positional arguments after applying the flags
// among them; bools names the boolean flags (which take no separate value).
func Interspersed(c *cli.Context, bools ...string) ([]string, error) {
	args := c.Args().Slice()
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if slices.Contains(bools, name) {
			if err := c.Set(name, orDefault(val, "true")); err != nil {
				return nil, cliutil.Usagef("%s: %v", a, err)
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, cliutil.Usagef("flag needs an argument: %s", a)
			}
			i++
			val = args[i]
		}
		if err := c.Set(name, val); err != nil {
			return nil, cliutil.Usagef("flag provided but not defined: %s", a)
		}
	}
	return pos, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
