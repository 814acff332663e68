// Command sieve-graph builds content graphs from normalized records.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

func main() {
	app := cliutil.App("sieve-graph", graph.Command(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	os.Exit(cliutil.Main(app, os.Args))
}
