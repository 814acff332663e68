// Command sieve-diff compares two reads of one page: sections added,
// removed, renamed, changed and moved, with word-level edits (diff.Command).
package main

import (
	"os"

	"github.com/sieve-dev/sieve/diff"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

func main() {
	os.Exit(cliutil.Exec("sieve-diff", diff.Command()))
}
