package schemas

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The EEF examples under testdata/eef are named SCHEMA--CASE.json: every
// file under valid/ must pass its schema and every file under invalid/
// must fail it. scripts/ajv-validate.sh checks the same files with an
// independent validator (ajv).
func TestEEFExamples(t *testing.T) {
	seen := map[string]map[string]int{"valid": {}, "invalid": {}}
	for dir := range seen {
		files, err := filepath.Glob(filepath.Join("testdata", "eef", dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no examples in %s: %v", dir, err)
		}
		for _, f := range files {
			schema, _, ok := strings.Cut(filepath.Base(f), "--")
			if !ok {
				t.Errorf("%s: not named SCHEMA--CASE.json", f)
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			err = Validate(schema, b)
			switch {
			case dir == "valid" && err != nil:
				t.Errorf("%s: %v", f, err)
			case dir == "invalid" && err == nil:
				t.Errorf("%s: passed its schema", f)
			}
			seen[dir][schema]++
		}
	}
	for _, n := range eefSchemas() {
		if seen["valid"][n] == 0 || seen["invalid"][n] == 0 {
			t.Errorf("schema %s has %d valid and %d invalid examples; want at least one of each", n, seen["valid"][n], seen["invalid"][n])
		}
	}
}

// eefSchemas are the EEF schemas and the line schemas of the EEF filters.
func eefSchemas() []string {
	var out []string
	for _, n := range Names() {
		if strings.HasPrefix(n, "ethos-") {
			out = append(out, n)
		}
	}
	for n := range lineSchemas {
		out = append(out, n)
	}
	return out
}
