// Command sieve is the umbrella binary: sieve distill, and the stages as
// subcommands.
package main

import (
	"os"

	sievecli "github.com/sieve-dev/sieve/cli"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/gcstart"
)

func main() {
	gcstart.Start() // one process per page collects nothing below 32 MB
	os.Exit(cliutil.Exec("sieve", sievecli.Command()))
}
