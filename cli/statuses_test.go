package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/record"
)

// TestStatusTables: every table of the docs whose first column is
// "status" (README's Outcomes, docs/FORMAT.md's) has one row for each of
// record.Statuses, the one list of outcome statuses, and no other.
func TestStatusTables(t *testing.T) {
	docs, _ := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	want := slices.Sorted(slices.Values(record.Statuses))
	tables := 0
	for _, p := range append([]string{filepath.Join("..", "README.md")}, docs...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range strings.Split(string(b), "\n| status |")[1:] {
			tables++
			if got := statusRows(table); !slices.Equal(got, want) {
				t.Errorf("%s: a status table lists %v, record.Statuses %v", p, got, want)
			}
		}
	}
	if tables < 2 {
		t.Errorf("found %d status tables, want README's and docs/FORMAT.md's", tables)
	}
}

// statusRows are the first cells of a table's rows (the text after its
// header's first cell), backquotes removed, sorted.
func statusRows(table string) []string {
	var out []string
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cell := strings.Split(line, "|")[1]
		out = append(out, strings.Trim(strings.TrimSpace(cell), "`"))
	}
	slices.Sort(out)
	return out
}
