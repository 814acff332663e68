// Command sieve-crop cuts the cited evidence of a verification report out
// of the page as PNGs with their EEF crop descriptors (crop.Command).
package main

import (
	"os"

	"github.com/sieve-dev/sieve/crop"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

func main() {
	os.Exit(cliutil.Exec("sieve-crop", crop.Command()))
}
