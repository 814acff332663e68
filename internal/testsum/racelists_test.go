package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRaceLists checks the Makefile's split of the tests between the unit
// and the race pass: every name in UNIT_TESTS is a top-level test of
// UNIT_TESTS_PKGS and every name in RACE_TESTS one of RACE_TESTS_PKGS, so
// a renamed test goes back to its package's pass instead of dropping out
// of make test; and the patterns the recipes pass to -run and -skip select
// those tests and no others in RACE_PKGS (a test the race pass skips and
// the unit pass does not run would never run).
func TestRaceLists(t *testing.T) {
	vars := makeVars(t, "../../Makefile")
	split := func(name string) []string {
		v := strings.Fields(vars[name])
		if len(v) == 0 {
			t.Fatalf("the Makefile sets no %s", name)
		}
		return v
	}
	racePkgs, unitPkgs := split("RACE_PKGS"), split("UNIT_TESTS_PKGS")
	for _, p := range unitPkgs {
		if !slices.Contains(racePkgs, p) {
			t.Errorf("UNIT_TESTS_PKGS has %s, which is not in RACE_PKGS: the unit pass runs its other tests already", p)
		}
	}
	raceTestPkgs := split("RACE_TESTS_PKGS")
	for _, p := range raceTestPkgs {
		if slices.Contains(racePkgs, p) {
			t.Errorf("RACE_TESTS_PKGS has %s, which is in RACE_PKGS: all its tests run under -race already", p)
		}
	}
	checkList(t, "UNIT_TESTS", split("UNIT_TESTS"), testsIn(t, unitPkgs), testsIn(t, racePkgs))
	checkList(t, "RACE_TESTS", split("RACE_TESTS"), testsIn(t, raceTestPkgs), testsIn(t, raceTestPkgs))
	for _, want := range []string{"-skip '$(call tests-pattern,$(UNIT_TESTS))' $(RACE_PKGS)",
		"-run '$(call tests-pattern,$(UNIT_TESTS))' $(UNIT_TESTS_PKGS)",
		"-run '$(call tests-pattern,$(RACE_TESTS))' $(RACE_TESTS_PKGS)"} {
		if !strings.Contains(vars["\x00recipes"], want) {
			t.Errorf("no recipe runs go test %s", want)
		}
	}
}

// checkList: each of names is a test in own (package → tests), and the
// pattern made of them (as the Makefile's tests-pattern makes it) matches
// exactly those tests of own among all the tests of scope.
func checkList(t *testing.T, list string, names []string, own, scope map[string][]string) {
	t.Helper()
	pattern := regexp.MustCompile("^(" + strings.Join(names, "|") + ")$")
	for _, n := range names {
		if !regexp.MustCompile(`^Test\w*$`).MatchString(n) {
			t.Errorf("%s: %q is not a test name", list, n)
			continue
		}
		if len(pkgsWith(own, n)) == 0 {
			t.Errorf("%s names %s, which is not a test of its packages any more (renamed? update the Makefile)", list, n)
		}
	}
	for pkg, tests := range scope {
		for _, n := range tests {
			if pattern.MatchString(n) && !slices.Contains(own[pkg], n) {
				t.Errorf("%s's pattern matches %s in %s, outside its packages", list, n, pkg)
			}
		}
	}
}

func pkgsWith(tests map[string][]string, name string) []string {
	var out []string
	for pkg, ts := range tests {
		if slices.Contains(ts, name) {
			out = append(out, pkg)
		}
	}
	return out
}

// testsIn lists the top-level test functions of each package dir
// (./dir, or ./dir/... for it and the dirs under it), relative to the
// module root.
func testsIn(t *testing.T, pkgs []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, p := range pkgs {
		root, all := strings.CutSuffix(filepath.Join("../..", p), string(filepath.Separator)+"...")
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != root && (!all || d.Name() == "testdata") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(path, "_test.go") {
				out[filepath.Dir(path)] = append(out[filepath.Dir(path)], testFuncs(t, path)...)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	return out
}

// testFuncs are the Test functions go test runs from one file.
func testFuncs(t *testing.T, path string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if ok && fn.Recv == nil && regexp.MustCompile(`^Test($|[^a-z])`).MatchString(fn.Name.Name) && fn.Name.Name != "TestMain" {
			out = append(out, fn.Name.Name)
		}
	}
	return out
}

// makeVars reads the simple variables (NAME := value, backslash
// continuations joined) of a Makefile, and its recipe lines joined under
// the key "\x00recipes".
func makeVars(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\\\n", " ")
	vars := map[string]string{}
	assign := regexp.MustCompile(`^([A-Z_]+)\s*:=\s*(.*)$`)
	var recipes strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		if m := assign.FindStringSubmatch(line); m != nil {
			vars[m[1]] = strings.Join(strings.Fields(m[2]), " ")
		} else if strings.HasPrefix(line, "\t") {
			recipes.WriteString(strings.Join(strings.Fields(line), " ") + "\n")
		}
	}
	vars["\x00recipes"] = recipes.String()
	return vars
}
