// Command sieve-capture fetches URLs and local files into capture records.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
	_ "github.com/sieve-dev/sieve/internal/codec/withsonic" // long streams move to sonic
)

func main() {
	os.Exit(cliutil.Exec("sieve-capture", capture.Command()))
}
