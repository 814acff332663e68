// Package testbin gives tests the sieve commands as programs: the ones
// `make test` built once into the directory named by $SIEVE_TEST_BIN, or,
// when that is unset (a plain `go test`), ones it builds itself, once per
// test process. Either way they are built as `make build` builds them
// (CGO_ENABLED=0: static executables, which the shipped recipes copy to
// other machines), so every test runs the binaries users get. Not with
// -trimpath as `make static`: that would compile every package once more
// on a cold build cache (minutes), for a flag no test looks at.
//
// Linking a command that holds the browser driver and the PDF engine costs
// seconds of CPU; before this package, tests linked sieve five times and
// sieve-capture twice per `make test`.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// Env names the directory of prebuilt commands. `make test` sets it to the
// directory it has just built them into; a directory left from an older
// tree would test old code, so set it by hand only with fresh binaries.
const Env = "SIEVE_TEST_BIN"

// Module is the module whose cmd/ directory holds the commands.
const Module = "github.com/sieve-dev/sieve"

var built struct {
	sync.Mutex
	dir   string
	names []string
}

// Dir returns a directory holding the commands names (cmd/NAME).
func Dir(tb testing.TB, names ...string) string {
	tb.Helper()
	if dir := os.Getenv(Env); dir != "" {
		for _, n := range names {
			if fi, err := os.Stat(filepath.Join(dir, n)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				tb.Fatalf("$%s=%s holds no program %s (make test builds them; unset %s to build here)", Env, dir, n, Env)
			}
		}
		return dir
	}
	dir, err := build(names)
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Path returns the path of the command name.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Dir(tb, name), name)
}

// build links the commands of names not built yet into the process's
// directory, all in one go build.
func build(names []string) (string, error) {
	built.Lock()
	defer built.Unlock()
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "sieve-testbin-")
		if err != nil {
			return "", err
		}
		built.dir = dir
	}
	args := []string{"build", "-o", built.dir + string(filepath.Separator)}
	var todo []string
	for _, n := range names {
		if !slices.Contains(built.names, n) && !slices.Contains(todo, n) {
			todo = append(todo, n)
			args = append(args, Module+"/cmd/"+n)
		}
	}
	if len(todo) == 0 {
		return built.dir, nil
	}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("CGO_ENABLED=0 go build %v: %v\n%s", todo, err, out)
	}
	built.names = append(built.names, todo...)
	return built.dir, nil
}

// Cleanup removes the commands this process built; TestMain calls it after
// the tests ran.
func Cleanup() {
	built.Lock()
	defer built.Unlock()
	if built.dir != "" {
		os.RemoveAll(built.dir)
		built.dir, built.names = "", nil
	}
}

// Main runs the tests of m, removes the commands they built and returns
// the exit code, for a TestMain: os.Exit(testbin.Main(m)).
func Main(m interface{ Run() int }) int {
	defer Cleanup()
	return m.Run()
}
