// Command sieve-frontier turns records into the next URLs of a crawl:
// sitemap discovery, link following, sharding by host, and the skip of
// targets already written.
package main

import (
	"os"

	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

func main() {
	os.Exit(cliutil.Main(cliutil.App("sieve-frontier", frontier.Command(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}), os.Args))
}
