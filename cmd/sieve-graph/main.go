// Command sieve-graph builds content graphs from normalized records.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	_ "github.com/sieve-dev/sieve/internal/codec/withsonic" // long streams move to sonic
)

func main() {
	os.Exit(cliutil.Exec("sieve-graph", graph.Command()))
}
