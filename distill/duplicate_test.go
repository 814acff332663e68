package distill

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// TestDistillSameURLTwiceLastStands: a batch that names one URL several
// times, whose page changes on every read and whose earlier reads answer
// later, leaves the artifact directory of the last line, the one its
// last artifact line describes, as sieve-render does reading the lines one
// by one. Each line still gets its own artifact line.
func TestDistillSameURLTwiceLastStands(t *testing.T) {
	const reads = 8
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		k := n.Add(1)
		time.Sleep(time.Duration(reads-k) * 15 * time.Millisecond) // earlier reads answer later
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Read %d</title></head><body><main><h1>Read %d</h1><p>Read number %d of one page that changes on every read.</p></main></body></html>", k, k, k)
	}))
	defer srv.Close()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	in := strings.Repeat(srv.URL+"/page\n", reads)
	app := cliutil.App("sieve", &cli.Command{Name: "sieve", Subcommands: []*cli.Command{Command()}}, cliutil.IO{Stdin: strings.NewReader(in), Stdout: &stdout, Stderr: &stderr})
	if code := cliutil.Main(app, []string{"sieve", "distill", "-q", "--allow-private", "--tier", "static", "--concurrency", "4", "--out", out}); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != reads {
		t.Fatalf("%d artifact lines, want %d", len(lines), reads)
	}
	last := lines[len(lines)-1]
	manifest, err := os.ReadFile(filepath.Join(gjson.Get(last, "dir").String(), "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := gjson.GetBytes(manifest, "content_hash").String(), gjson.Get(last, "content_hash").String(); got != want {
		t.Errorf("the artifact directory holds content_hash %s, the last line says %s (an earlier read's directory stands)", got, want)
	}
	entries, _ := os.ReadDir(filepath.Dir(gjson.Get(last, "dir").String()))
	if len(entries) != 1 {
		t.Errorf("%d entries beside the artifact (temporary directories left?)", len(entries))
	}
}
