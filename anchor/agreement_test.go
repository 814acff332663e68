package anchor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
	"github.com/sieve-dev/sieve/verify"
)

const examples = "../schemas/testdata/eef"

// runEEF runs `sieve verify` or `sieve evidence anchor` in-process.
func runEEF(args ...string) (code int, stderr string) {
	var out, errb bytes.Buffer
	root := &cli.Command{Name: "sieve", Subcommands: []*cli.Command{verify.Command(), EvidenceCommand()}}
	app := cliutil.App("sieve", root, cliutil.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return cliutil.Main(app, append([]string{"sieve"}, args...)), errb.String()
}

// TestSchemaCommandAgreement: the commands accept and refuse exactly what
// the EEF schemas accept and refuse (SPEC.md §8). Every example of a
// schema a command reads goes through the command: valid/ must be
// accepted (exit 0), invalid/ refused with the input's coded exit (SPEC.md
// §6.4), and refused/ (schema-valid, against a rule JSON Schema cannot
// state) must pass its schema and be refused by the command all the same.
func TestSchemaCommandAgreement(t *testing.T) {
	doc := filepath.Join(examples, "valid", "ethos-document--static-docs.json")
	cit := filepath.Join(examples, "valid", "ethos-citations--bare-array.json")
	req := filepath.Join(examples, "valid", "ethos-evidence-anchor-request--minimal.json")
	type run struct {
		args func(file string) []string
		exit int
		code string
	}
	readers := map[string][]run{
		"ethos-citations":               {{func(f string) []string { return []string{"verify", doc, "--citations", f} }, cliutil.ExitInvalidCitations, "invalid_citations"}},
		"ethos-evidence-anchor-request": {{func(f string) []string { return []string{"evidence", "anchor", doc, "--evidence-refs", f} }, cliutil.ExitInvalidEvidenceRefs, "invalid_evidence_refs"}},
		"ethos-document": {
			{func(f string) []string { return []string{"verify", f, "--citations", cit} }, cliutil.ExitInvalidSource, "invalid_source"},
			{func(f string) []string { return []string{"evidence", "anchor", f, "--evidence-refs", req} }, cliutil.ExitInvalidSource, "invalid_source"},
		},
	}
	seen := map[string]int{}
	for _, dir := range []string{"valid", "invalid", "refused"} {
		files, _ := filepath.Glob(filepath.Join(examples, dir, "*.json"))
		for _, f := range files {
			schema, _, _ := strings.Cut(filepath.Base(f), "--")
			runs, ok := readers[schema]
			if !ok {
				continue
			}
			seen[dir]++
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			schemaErr := schemas.Validate(schema, b)
			if (schemaErr == nil) != (dir != "invalid") {
				t.Errorf("%s: schema says %v", f, schemaErr)
			}
			for _, r := range runs {
				code, stderr := runEEF(r.args(f)...)
				switch {
				case dir == "valid" && code != 0:
					t.Errorf("%s: the schema accepts it, %v exits %d: %s", f, r.args(f)[:2], code, stderr)
				case dir != "valid" && (code != r.exit || gjson.Get(stderr, "error.code").Str != r.code):
					t.Errorf("%s: the command should refuse it with exit %d %s; got exit %d: %s", f, r.exit, r.code, code, stderr)
				}
			}
		}
	}
	for _, dir := range []string{"valid", "invalid", "refused"} {
		if seen[dir] < 3 {
			t.Errorf("only %d examples in %s/ for the commands' schemas", seen[dir], dir)
		}
	}
}
