// Command sieve-verify checks citation claims (JSONL on stdin) against a
// grounding source and writes one check per line.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/verify"
)

func main() {
	os.Exit(cliutil.Exec("sieve-verify", verify.FilterCommand()))
}
