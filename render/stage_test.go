package render

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
)

// graphLine is a testdata record as one JSONL line, with a user's "id"
// spliced in after "record".
func graphLine(t *testing.T, name, id string) []byte {
	t.Helper()
	b, err := codec.Marshal(loadRecord(t, "testdata/"+name+".graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	if id != "" {
		b = bytes.Replace(b, []byte(`"record":"graph",`), []byte(`"record":"graph","id":`+id+`,`), 1)
	}
	return b
}

func TestStage(t *testing.T) {
	out := t.TempDir()
	errLine := `{"record":"error","schema_version":"1.0","stage":"graph","line":3,"error":"boom"}`
	other := `{"record":"capture","schema_version":"1.0","url":"http://x/"}`
	in := strings.Join([]string{
		string(graphLine(t, "article", `"job-1"`)),
		errLine,
		string(graphLine(t, "blocked", `{"batch":7}`)),
		other,
		`{"record":"graph","url":`,
		`{"record":"graph","schema_version":"1.0","url":""}`,
	}, "\n") + "\n"
	var stdout, stderr bytes.Buffer
	res, err := jsonl.Run(context.Background(), strings.NewReader(in), &stdout, &stderr, Stage(Options{Out: out}))
	if !errors.Is(err, jsonl.ErrFailedLines) || res.Failed != 2 || res.Lines != 6 {
		t.Fatalf("Run: %+v, %v", res, err)
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d output lines, want 6:\n%s", len(lines), stdout.String())
	}
	a := gjson.Parse(lines[0])
	if a.Get("record").Str != "artifact" || a.Get("id").Str != "job-1" || a.Get("outcome").Str != "ok" ||
		a.Get("url").Str != "https://example.com/" || a.Get("dir").Str != filepath.Join(out, "example.com", "index") ||
		!strings.HasPrefix(a.Get("content_hash").Str, "sha256:") {
		t.Errorf("artifact record: %s", lines[0])
	}
	if a.Get("blocks").Exists() || a.Get("title").Exists() || a.Get("sections").Exists() {
		t.Errorf("graph fields leaked onto the artifact record: %s", lines[0])
	}
	if lines[1] != errLine || lines[3] != other {
		t.Errorf("other records not passed through untouched:\n%s\n%s", lines[1], lines[3])
	}
	b := gjson.Parse(lines[2])
	if b.Get("outcome").Str != "blocked" || b.Get("id.batch").Raw != "7" {
		t.Errorf("blocked artifact record: %s", lines[2])
	}
	for _, l := range lines[4:] {
		if gjson.Get(l, "record").Str != "error" || gjson.Get(l, "stage").Str != "render" {
			t.Errorf("bad line did not become a render error record: %s", l)
		}
	}
	for _, f := range artifactFiles {
		if _, err := os.Stat(filepath.Join(a.Get("dir").Str, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "arts")
	run := func(stdin string, args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		app := cliutil.App("sieve-render", Command(), cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: &stdout, Stderr: &stderr})
		return cliutil.Main(app, append([]string{"sieve-render"}, args...)), stdout.String(), stderr.String()
	}
	code, stdout, stderr := run(string(graphLine(t, "docs", ""))+"\n", "--out", out)
	if code != cliutil.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dir := gjson.Get(stdout, "dir").Str
	if !strings.HasPrefix(dir, out+string(filepath.Separator)+"127.0.0.1_8080"+string(filepath.Separator)) {
		t.Errorf("dir %q not under --out", dir)
	}
	if code, _, _ := run("", "--out", out, "extra"); code != cliutil.ExitUsage {
		t.Errorf("positional argument: exit %d, want %d", code, cliutil.ExitUsage)
	}
	if code, _, _ := run("", "--bogus"); code != cliutil.ExitUsage {
		t.Errorf("unknown flag: exit %d, want %d", code, cliutil.ExitUsage)
	}
	if code, _, _ := run("not json\n", "--out", out); code != cliutil.ExitFailed {
		t.Errorf("malformed line: exit %d, want %d", code, cliutil.ExitFailed)
	}
}
