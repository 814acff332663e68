// Command sieve-verify checks citation claims (JSONL on stdin) against a
// grounding source and writes one check per line.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/verify"
)

func main() {
	os.Exit(cliutil.Main(cliutil.App("sieve-verify", verify.FilterCommand(), cliutil.IO{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
	}), os.Args))
}
