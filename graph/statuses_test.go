package graph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/record"
)

// TestStatusesAreTheOneList: graph's Status constants, in the order they
// are declared, are record.Statuses, the list --fail-on, the views and the
// MCP tool text read. A new status goes in both.
func TestStatusesAreTheOneList(t *testing.T) {
	got := statusConstants(t)
	if !slices.Equal(got, record.Statuses) {
		t.Errorf("graph's Status constants %v, record.Statuses %v: add a new status to both", got, record.Statuses)
	}
	for _, s := range record.Statuses {
		if s != StatusOK && !slices.Contains(precedence, s) {
			t.Errorf("status %q is in no precedence step", s)
		}
	}
}

// statusConstants are the values of the package's Status* constants, in
// declaration order.
func statusConstants(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				if !strings.HasPrefix(id.Name, "Status") || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, _ := strconv.Unquote(lit.Value)
					out = append(out, v)
				}
			}
			return true
		})
	}
	return out
}
