// Command sieve-sample serves the bundled sample site on 127.0.0.1 for the
// tests and `make demo`.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/sample"
)

func main() {
	os.Exit(cliutil.Exec("sieve-sample", sample.Command()))
}
