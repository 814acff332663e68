// Command sieve is the umbrella binary: sieve distill, and the stages as
// subcommands.
package main

import (
	"os"
	"runtime"

	sievecli "github.com/sieve-dev/sieve/cli"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/gcstart"
)

func main() {
	// Nothing in sieve reads a heap profile, but a linked library reaches
	// runtime.MemProfile, so the runtime samples a stack every 512 KB
	// allocated: about 1 % of a one-page `sieve distill` (issue 27).
	runtime.MemProfileRate = 0
	gcstart.Start() // one process per page collects nothing below 32 MB
	os.Exit(cliutil.Exec("sieve", sievecli.Command()))
}
