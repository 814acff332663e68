// Command sieve-capture fetches URLs and local files into capture records.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

func main() {
	os.Exit(cliutil.Main(cliutil.App("sieve-capture", capture.Command(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}), os.Args))
}
