// Command sieve-render writes artifact directories from graph records.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/internal/cliutil"
	_ "github.com/sieve-dev/sieve/internal/codec/withsonic" // long streams move to sonic
	"github.com/sieve-dev/sieve/render"
)

func main() {
	os.Exit(cliutil.Exec("sieve-render", render.Command()))
}
