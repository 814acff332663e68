package anchor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/schemas"
)

// run runs `sieve evidence anchor` in-process.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	root := &cli.Command{Name: "sieve", Subcommands: []*cli.Command{EvidenceCommand()}}
	app := cliutil.App("sieve", root, cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	code = cliutil.Main(app, append([]string{"sieve"}, args...))
	return code, out.String(), errb.String()
}

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const reqHead = `{"artifact_type":"ethos.evidence_anchor_request.v1","schema_version":"1.0.0","evidence_refs":`

func TestCommandExitContract(t *testing.T) {
	dir := t.TempDir()
	doc := "../render/testdata/docs.graph.json"
	good := write(t, dir, "good.json", reqHead+`[{"evidence_id":"a","kind":"text","text":"Unknown options are an error."}]}`)
	unbound := write(t, dir, "unbound.json", reqHead+`[{"evidence_id":"a","kind":"text","text":"Unknown options are fine."}]}`)
	bad := write(t, dir, "bad.json", reqHead+`[{"evidence_id":"a","kind":"region","page_ref":"p0001","bbox":[-1,0,5,5]}]}`)
	notJSON := write(t, dir, "notjson.json", `{"kids":`)
	out := filepath.Join(dir, "report.json")
	cases := []struct {
		name     string
		args     []string
		code     int
		errCode  string // the coded error, for exits 3–12
		errPlain string // the start of a usage error
	}{
		{"ok", []string{"evidence", "anchor", doc, "--evidence-refs", good}, 0, "", ""},
		{"ok, flags first, --out", []string{"evidence", "anchor", "--evidence-refs", good, "--out", out, doc}, 0, "", ""},
		{"no DOC", []string{"evidence", "anchor", "--evidence-refs", good}, 2, "", "error (usage): "},
		{"two DOCs", []string{"evidence", "anchor", doc, doc, "--evidence-refs", good}, 2, "", "error (usage): "},
		{"no refs flag", []string{"evidence", "anchor", doc}, 2, "", "error (usage): --evidence-refs"},
		{"unknown flag", []string{"evidence", "anchor", doc, "--evidence-refs", good, "--colour"}, 2, "", "error (usage): "},
		{"bad grounding", []string{"evidence", "anchor", doc, "--evidence-refs", good, "--grounding", "pdf"}, 2, "", "error (usage): "},
		{"missing DOC file", []string{"evidence", "anchor", filepath.Join(dir, "nope.json"), "--evidence-refs", good}, 4, "io_error", ""},
		{"missing refs file", []string{"evidence", "anchor", doc, "--evidence-refs", filepath.Join(dir, "nope.json")}, 4, "io_error", ""},
		{"not a source", []string{"evidence", "anchor", notJSON, "--evidence-refs", good}, 5, "invalid_source", ""},
		{"bad request", []string{"evidence", "anchor", doc, "--evidence-refs", bad}, 8, "invalid_evidence_refs", ""},
		{"unbound, report only", []string{"evidence", "anchor", doc, "--evidence-refs", unbound}, 0, "", ""},
		{"unbound, --fail-on-unbound", []string{"evidence", "anchor", doc, "--evidence-refs", unbound, "--fail-on-unbound"}, 9, "evidence_unbound", ""},
		{"bound, --fail-on-unbound", []string{"evidence", "anchor", doc, "--fail-on-unbound", "--evidence-refs", good}, 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := run(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, c.code, stderr)
			}
			switch {
			case c.errCode != "":
				var e struct {
					Error struct{ Code, Message string }
				}
				if err := codec.Unmarshal([]byte(strings.TrimSpace(stderr)), &e); err != nil || e.Error.Code != c.errCode || e.Error.Message == "" {
					t.Errorf("stderr %q is not the coded error %s (%v)", stderr, c.errCode, err)
				}
			case c.errPlain != "":
				if !strings.HasPrefix(stderr, c.errPlain) || strings.Contains(stderr, "{") {
					t.Errorf("stderr %q, want plain %q…", stderr, c.errPlain)
				}
			case code == 0 && !strings.Contains(strings.Join(c.args, " "), "--out"):
				if !strings.HasPrefix(stdout, `{"all_bound":`) || !strings.Contains(stderr, "bound") {
					t.Errorf("stdout %q stderr %q", stdout, stderr)
				}
			}
		})
	}
	b, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(b, []byte(`{"all_bound":true,`)) {
		t.Errorf("--out: %s %v", b, err)
	}
	if err := schemas.Validate("ethos-evidence-anchor-report", b); err != nil {
		t.Error(err)
	}
}

func TestFilter(t *testing.T) {
	var out, errb bytes.Buffer
	in := `{"evidence_id":"a","kind":"text","text":"Unknown options are an error."}
{"evidence_id":"b","kind":"region","page_ref":"p0001","bbox":[0,0,5,5]}
{"evidence_id":"c","kind":"text"}
{"evidence_id":"d","kind":"sentiment"}
{"evidence_id":"e","kind":"other","text":"Unknown options are an error."}
`
	app := cliutil.App("sieve-anchor", FilterCommand(), cliutil.IO{Stdin: strings.NewReader(in), Stdout: &out, Stderr: &errb})
	code := cliutil.Main(app, []string{"sieve-anchor", "--graph", "../render/testdata/docs.graph.json"})
	if code != cliutil.ExitFailed {
		t.Errorf("exit %d, want 1 (one bad line); stderr %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines out for 5 in:\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if strings.Contains(l, `"record":"anchor"`) {
			if err := schemas.Validate("ethos-anchor-line", []byte(l)); err != nil {
				t.Error(err)
			}
		}
	}
	for i, want := range []string{`"status":"bound"`, `"status":"capability_limited"`, `"record":"error"`, `"status":"unsupported_evidence_kind"`, `"status":"bound"`} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d: %s, want %s", i+1, lines[i], want)
		}
	}
	if code := cliutil.Main(cliutil.App("sieve-anchor", FilterCommand(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}), []string{"sieve-anchor"}); code != cliutil.ExitUsage {
		t.Errorf("no --graph: exit %d", code)
	}
}
