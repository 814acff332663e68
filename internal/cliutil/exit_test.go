package cliutil

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestExitTable: exit.go is the one table of exit codes. No other file of
// the module declares an Exit constant with a number of its own; the
// docs' exit tables (the ones whose header is "| exit | meaning |":
// README.md's and docs/CLI.md's, the same table) have a row for each code
// and name no other, and a command's own exit table elsewhere in docs/
// names only codes of exit.go. A code the exit table covers with a range
// only (4–12, the coded failures) has its own row in docs/CLI.md's coded
// failures table ("| exit | code | message |").
func TestExitTable(t *testing.T) {
	codes := exitConstants(t, "exit.go")
	if len(codes) < 8 {
		t.Fatalf("exit.go declares %d codes", len(codes))
	}
	root := filepath.Join("..", "..")
	checkNoOtherExits(t, root)
	declared := map[int]bool{}
	for _, c := range codes {
		declared[c] = true
	}
	tables := exitTables(t, root)
	if len(tables) == 0 {
		t.Fatal(`no exit table (a table whose header is "| exit | meaning |") in README.md or docs/*.md`)
	}
	for i, tb := range tables {
		for _, r := range tb.rows {
			if !declaresSome(declared, r) {
				t.Errorf("%s: the exit table has a row for %d–%d, and exit.go declares none of it", tb.file, r[0], r[1])
			}
		}
		if i > 0 && filepath.Base(tb.file) != "CLI.md" {
			continue
		}
		for name, code := range codes {
			if !coveredBy(tb.rows, code) {
				t.Errorf("%s (%d) has no row in the exit table of %s", name, code, tb.file)
			}
		}
	}
	checkRangeCodes(t, root, codes, tables[0])
}

// checkRangeCodes: a code main covers with a range row only has a row of
// its own in docs/CLI.md's coded failures table.
func checkRangeCodes(t *testing.T, root string, codes map[string]int, main exitTable) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "CLI.md"))
	if err != nil {
		t.Fatal(err)
	}
	own := map[int]bool{}
	for _, table := range strings.Split(string(b), "\n| exit | code | message |\n")[1:] {
		for _, r := range exitRows(t, "docs/CLI.md", table) {
			if r[0] == r[1] {
				own[r[0]] = true
			}
		}
	}
	for name, code := range codes {
		if !coveredBy(main.rows, code) || own[code] {
			continue
		}
		if !slices.ContainsFunc(main.rows, func(r [2]int) bool { return r == [2]int{code, code} }) {
			t.Errorf("%s (%d) is covered by a range row of %s only, and docs/CLI.md's coded failures table has no row for it", name, code, main.file)
		}
	}
}

// declaresSome: a one-code row names a declared code; a range row (4–12,
// the coded failures, some kept free) holds at least one.
func declaresSome(declared map[int]bool, r [2]int) bool {
	for c := r[0]; c <= r[1]; c++ {
		if declared[c] {
			return true
		}
	}
	return false
}

// exitConstants are the Exit* constants with a number in file.
func exitConstants(t *testing.T, file string) map[string]int {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, id := range vs.Names {
			if i >= len(vs.Values) || !strings.HasPrefix(id.Name, "Exit") {
				continue
			}
			if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.INT {
				out[id.Name], _ = strconv.Atoi(lit.Value)
			}
		}
		return true
	})
	return out
}

// checkNoOtherExits: outside exit.go, an Exit constant is a name for one
// of exit.go's (cliutil.ExitX), never a number.
func checkNoOtherExits(t *testing.T, root string) {
	t.Helper()
	own, _ := filepath.Abs("exit.go")
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && (strings.HasPrefix(e.Name(), ".") && p != root || e.Name() == "testdata") {
			return filepath.SkipDir
		}
		if e.IsDir() && p != root {
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		if e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if abs, _ := filepath.Abs(p); abs == own {
			return nil
		}
		for name, code := range exitConstants(t, p) {
			t.Errorf("%s declares %s = %d: exit codes live in internal/cliutil/exit.go", p, name, code)
		}
		return nil
	})
}

var exitRow = regexp.MustCompile(`^\|\s*(\d+)(?:\s*[–-]\s*(\d+))?\s*\|`)

// exitTable is one "| exit | meaning |" table of the docs.
type exitTable struct {
	file string
	rows [][2]int // the codes of each row, lowest and highest
}

// exitTables are the docs' exit tables, the main one first: README.md's,
// else docs/CLI.md's.
func exitTables(t *testing.T, root string) []exitTable {
	t.Helper()
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	cli := filepath.Join(root, "docs", "CLI.md")
	files := []string{filepath.Join(root, "README.md"), cli}
	for _, p := range docs {
		if p != cli {
			files = append(files, p)
		}
	}
	var tables []exitTable
	for _, p := range files {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		for _, table := range strings.Split(string(b), "\n| exit | meaning |\n")[1:] {
			tables = append(tables, exitTable{file: p, rows: exitRows(t, p, table)})
		}
	}
	return tables
}

// exitRows are the code ranges of the rows of table (the text after its
// header).
func exitRows(t *testing.T, file, table string) [][2]int {
	var rows [][2]int
	for _, line := range strings.Split(table, "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		m := exitRow.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("%s: an exit table row without a code: %s", file, line)
			continue
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
		}
		rows = append(rows, [2]int{lo, hi})
	}
	return rows
}

func coveredBy(rows [][2]int, code int) bool {
	for _, r := range rows {
		if r[0] <= code && code <= r[1] {
			return true
		}
	}
	return false
}
