// Command sieve-frontier turns records into the next URLs of a crawl:
// sitemap discovery, link following, sharding by host, and the skip of
// targets already written.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/internal/cliutil"
	_ "github.com/sieve-dev/sieve/internal/codec/withsonic" // long streams move to sonic
)

func main() {
	os.Exit(cliutil.Exec("sieve-frontier", frontier.Command()))
}
