// Command sieve-anchor binds evidence refs (JSONL on stdin) to a grounding
// source and writes one anchor per line.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

func main() {
	os.Exit(cliutil.Exec("sieve-anchor", anchor.FilterCommand()))
}
