// Command sieve is the umbrella binary: sieve distill, and the stages as
// subcommands.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/sieve"
)

func main() {
	app := cliutil.App("sieve", sieve.Command(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	os.Exit(cliutil.Main(app, os.Args))
}
