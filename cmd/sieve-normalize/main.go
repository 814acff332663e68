// Command sieve-normalize is the normalize stage as a Unix filter; see
// package normalize.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	_ "github.com/sieve-dev/sieve/internal/codec/withsonic" // long streams move to sonic
	"github.com/sieve-dev/sieve/normalize"
)

func main() {
	os.Exit(cliutil.Exec("sieve-normalize", normalize.Command()))
}
