// Command sieve is the umbrella binary: sieve distill, and the stages as
// subcommands.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/gcstart"
	"github.com/sieve-dev/sieve/internal/sieve"
)

func main() {
	gcstart.Start() // one process per page collects nothing below 32 MB
	os.Exit(cliutil.Exec("sieve", sieve.Command()))
}
