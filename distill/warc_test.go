package distill

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/warctest"
)

// runCLI runs `sieve distill -q args…` in process.
func runCLI(args ...string) (stdout, stderr string, code int) {
	var out, errs bytes.Buffer
	app := cliutil.App("sieve", &cli.Command{Name: "sieve", Subcommands: []*cli.Command{Command()}}, cliutil.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs})
	code = cliutil.Main(app, append([]string{"sieve", "distill", "-q"}, args...))
	return out.String(), errs.String(), code
}

func runDistill(t *testing.T, args ...string) ([]string, string, int) {
	t.Helper()
	stdout, stderr, code := runCLI(args...)
	return strings.Split(strings.TrimSpace(stdout), "\n"), stderr, code
}

// `sieve distill FILE.warc.gz` writes an artifact per page of the file,
// with the content_hash a live read of the same page gives; a record that
// fails its digest is an error record (exit 1) and the rest still reads.
func TestDistillWARC(t *testing.T) {
	page := []byte("<html><head><title>Archived</title></head><body><main><h1>Archived</h1><p>Read from a WARC file, not from the web.</p></main></body></html>")
	srv := warctest.Site(t, "text/html; charset=utf-8", page)
	bad := warctest.Page(srv.URL+"/bad", page)
	bad.PayloadDigest = warctest.WrongDigest
	file := warctest.File(true, warctest.Page(srv.URL+"/one", page), bad, warctest.Page(srv.URL+"/two", page))
	dir := t.TempDir()
	path := filepath.Join(dir, "pages.warc.gz")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	lines, stderr, code := runDistill(t, "--out", filepath.Join(dir, "warc"), path)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one error record)\n%s", code, stderr)
	}
	var kinds []string
	for _, l := range lines {
		kinds = append(kinds, gjson.Get(l, "record").String()+" "+gjson.Get(l, "url").String())
	}
	if want := "artifact " + srv.URL + "/one|error " + srv.URL + "/bad|artifact " + srv.URL + "/two"; strings.Join(kinds, "|") != want {
		t.Fatalf("lines %q, want %q\n%s", kinds, want, stderr)
	}
	if !strings.Contains(stderr, "payload digest mismatch") || !strings.Contains(stderr, "3 WARC records: 2 pages, 1 errors") {
		t.Errorf("stderr does not report the bad record and the counts:\n%s", stderr)
	}
	live, stderr, code := runDistill(t, "--out", filepath.Join(dir, "live"), "--allow-private", "--tier", "static", srv.URL+"/two")
	if code != 0 {
		t.Fatalf("live: exit %d\n%s", code, stderr)
	}
	if lh, wh := gjson.Get(live[0], "content_hash").String(), gjson.Get(lines[2], "content_hash").String(); lh == "" || lh != wh {
		t.Errorf("content_hash live %q, from the WARC file %q", lh, wh)
	}
	if _, stderr, code := runDistill(t, path, srv.URL+"/one"); code != 2 {
		t.Errorf("WARC files and URLs mixed: exit %d, want 2\n%s", code, stderr)
	}
}
