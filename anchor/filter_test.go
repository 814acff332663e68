package anchor

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
	"github.com/sieve-dev/sieve/verify"
)

// TestFiltersRecordContract: sieve-verify and sieve-anchor follow the
// record contract of every stage: records of other kinds pass through byte
// for byte, unknown top-level fields ("id") are carried onto the output,
// the output kinds validate as records (schemas.ValidateRecord), and a
// line is held to the same input rule as the commands' files.
func TestFiltersRecordContract(t *testing.T) {
	passthrough := `{"record":"error",  "schema_version":"1.0","stage":"graph","error":{"kind":"x","message":"y"}}`
	cases := []struct {
		name  string
		app   func(in string) (string, int)
		lines []string
		want  []string // "=" passthrough, else a gjson path=value or "error"
	}{
		{"sieve-verify", func(in string) (string, int) {
			var out, errb bytes.Buffer
			app := cliutil.App("sieve-verify", verify.FilterCommand(), cliutil.IO{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb})
			code := cliutil.Main(app, []string{"sieve-verify", "--graph", "../render/testdata/docs.graph.json"})
			return out.String(), code
		}, []string{
			passthrough,
			`{"claim_id":"q","kind":"quote","text":"Unknown options are an error.","id":7,"job":{"n":1}}`,
			`{"record":"claim","claim_id":"r","kind":"quote","text":"Unknown options are an error."}`,
			`{"claim_id":"q","kind":"quote","text":"Unknown options are an error.","locator":{"pgae":"p0001"}}`,
			`{"claim_id":"q","kind":"quote","kind":"value","text":"Unknown options are an error."}`,
			`{"kind":"quote","text":"Unknown options are an error."}`,
		}, []string{"=", "id=7", "status=grounded", "error", "error", "error"}},
		{"sieve-anchor", func(in string) (string, int) {
			var out, errb bytes.Buffer
			app := cliutil.App("sieve-anchor", FilterCommand(), cliutil.IO{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb})
			code := cliutil.Main(app, []string{"sieve-anchor", "--graph", "../render/testdata/docs.graph.json"})
			return out.String(), code
		}, []string{
			passthrough,
			`{"evidence_id":"a","kind":"text","text":"Unknown options are an error.","id":7}`,
			`{"record":"evidence_ref","evidence_id":"b","kind":"text","text":"Unknown options are an error."}`,
			`{"evidence_id":"a","kind":"text","kind":"page","text":"Unknown options are an error."}`,
		}, []string{"=", "id=7", "status=bound", "error"}},
	}
	for _, c := range cases {
		out, code := c.app(strings.Join(c.lines, "\n") + "\n")
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(got) != len(c.lines) {
			t.Fatalf("%s: %d lines out for %d in:\n%s (exit %d)", c.name, len(got), len(c.lines), out, code)
		}
		for i, w := range c.want {
			line := got[i]
			switch {
			case w == "=":
				if line != c.lines[i] {
					t.Errorf("%s line %d: %s, want it passed through byte for byte", c.name, i+1, line)
				}
				continue
			case w == "error":
				if gjson.Get(line, "record").Str != "error" {
					t.Errorf("%s line %d: %s, want an error record", c.name, i+1, line)
				}
			default:
				path, val, _ := strings.Cut(w, "=")
				if gjson.Get(line, path).String() != val {
					t.Errorf("%s line %d: %s, want %s", c.name, i+1, line, w)
				}
			}
			if err := schemas.ValidateRecord([]byte(line)); err != nil {
				t.Errorf("%s line %d: %v", c.name, i+1, err)
			}
		}
	}
}
