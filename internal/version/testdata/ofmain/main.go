// Command ofmain prints version.Of for its arguments, one "name version"
// line each; version_test builds it to see real build information.
package main

import (
	"fmt"
	"os"

	"github.com/sieve-dev/sieve/internal/version"
)

func main() {
	for _, l := range version.Of(os.Args[1:]...) {
		fmt.Println(l.Name, l.Version)
	}
	c := version.Codec()
	fmt.Println("codec", c.Name, c.Version)
}
