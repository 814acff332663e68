package verify

import (
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/evcmd"
)

// interspersed applies flags given after DOC (`sieve verify DOC --citations
// F`, EEF's shape): urfave/cli stops parsing flags at the first argument.
func interspersed(c *cli.Context) ([]string, error) {
	return evcmd.Interspersed(c, "fail-on-ungrounded")
}
