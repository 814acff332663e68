package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// devTools are mains under cmd/ that are no binary of sieve's (not
// installed, no man page).
var devTools = []string{"sievepdfgen"}

// TestBinaries: Programs is the one list of sieve's binaries. cmd/ has a
// main for each, run through cliutil.Exec under its name; the Makefile's
// CMDS builds and installs each; sieve man --dir writes a page for each.
func TestBinaries(t *testing.T) {
	want := sortedKeys(Programs())

	entries, err := os.ReadDir(filepath.Join("..", "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for _, e := range entries {
		if e.IsDir() && !slices.Contains(devTools, e.Name()) {
			cmds = append(cmds, e.Name())
			checkMain(t, e.Name())
		}
	}
	if !slices.Equal(cmds, want) {
		t.Errorf("cmd/ has %v, Programs %v", cmds, want)
	}

	mk, err := os.ReadFile(filepath.Join("..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^CMDS\s*:=\s*(.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile sets no CMDS")
	}
	made := strings.Fields(string(m[1]))
	sort.Strings(made)
	if !slices.Equal(made, want) {
		t.Errorf("the Makefile's CMDS %v, Programs %v", made, want)
	}

	dir := t.TempDir()
	runMan(t, dir)
	pages, _ := filepath.Glob(filepath.Join(dir, "*.1"))
	var names []string
	for _, p := range pages {
		names = append(names, strings.TrimSuffix(filepath.Base(p), ".1"))
	}
	sort.Strings(names)
	if !slices.Equal(names, want) {
		t.Errorf("sieve man --dir wrote %v, Programs %v", names, want)
	}
}

// checkMain: cmd/name's main runs its command through cliutil.Exec, under
// its own name.
func checkMain(t *testing.T, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "cmd", name, "main.go"))
	if err != nil {
		t.Error(err)
		return
	}
	if !strings.Contains(string(b), `cliutil.Exec("`+name+`", `) {
		t.Errorf("cmd/%s/main.go does not run through cliutil.Exec(%q, …)", name, name)
	}
}

func runMan(t *testing.T, dir string) {
	t.Helper()
	app := cliutil.App("sieve", Command(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if code := cliutil.Main(app, []string{"sieve", "man", "--dir", dir}); code != 0 {
		t.Fatalf("sieve man --dir: exit %d", code)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestStages: cliutil.Stages, the one table of what wrap does for a
// command by its name (--fail-on, the stdin hint), has a row for every
// binary's command, and every row names a command of sieve or of a binary:
// a binary added without its row, or a row whose command is gone or
// renamed, fails here.
func TestStages(t *testing.T) {
	known := map[string]bool{}
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			known[c.Name] = true
			walk(c.Subcommands)
		}
	}
	walk(Command().Subcommands)
	for name, cmd := range Binaries() {
		c := cmd()
		known[c.Name] = true
		if _, ok := cliutil.Stages[c.Name]; !ok {
			t.Errorf("%s: its command %q has no row in cliutil.Stages (an empty row says it takes no --fail-on and no stdin hint)", name, c.Name)
		}
	}
	for name, s := range cliutil.Stages {
		if !known[name] {
			t.Errorf("cliutil.Stages has a row for %q (%+v), no command of sieve or of a binary", name, s)
		}
	}
}
