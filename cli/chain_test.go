package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// budgets are the chain's budget flags the commands are given: small
// enough that both cut the page short.
var budgets = []string{"--max-nodes", "400", "--max-blocks", "12"}

// TestOneChain: sieve distill, sieve crawl and sieve mcp read a page
// through the one chain: each honours --max-nodes and --max-blocks, and
// the three write the same artifact files, byte for byte but for the
// capture's clock.
func TestOneChain(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, longPage())
	}))
	defer srv.Close()
	url := srv.URL + "/page"
	common := append([]string{"--tier", "static", "--allow-private", "-q", "--blobs", t.TempDir()}, budgets...)

	distilled := t.TempDir()
	runSieve(t, "", append(append([]string{"sieve", "distill"}, common...), "--out", distilled, url)...)
	crawled := t.TempDir()
	runSieve(t, "", append(append([]string{"sieve", "crawl"}, common...), "--no-sitemaps", "--no-links", "--out", crawled, url)...)
	store := mcpDistill(t, url, append([]string{"sieve", "mcp", "--store", t.TempDir()}, common...))

	want := artifactFiles(t, distilled)
	if len(want) < 4 {
		t.Fatalf("sieve distill wrote %d files", len(want))
	}
	checkBudgets(t, want)
	for name, dir := range map[string]string{"crawl": crawled, "mcp": store} {
		got := artifactFiles(t, dir)
		for f, w := range want {
			if g, ok := got[f]; !ok {
				t.Errorf("sieve %s wrote no %s", name, f)
			} else if !bytes.Equal(g, w) {
				t.Errorf("sieve %s: %s differs from sieve distill's:\n%s\n---\n%s", name, f, clip(g), clip(w))
			}
		}
		for f := range got {
			if _, ok := want[f]; !ok {
				t.Errorf("sieve %s wrote %s, sieve distill did not", name, f)
			}
		}
	}
}

// longPage has more nodes and blocks than the budgets let through.
func longPage() string {
	var b strings.Builder
	b.WriteString("<!doctype html><html lang=en><head><title>Long</title></head><body><main><h1>Long page</h1>")
	for i := range 200 {
		fmt.Fprintf(&b, "<h2>Part %d</h2><p>Paragraph %d says <em>something</em> of its own, in words enough to be a block.</p>", i, i)
	}
	b.WriteString("</main></body></html>")
	return b.String()
}

// checkBudgets: the page read is cut by the budgets (partial, at most
// --max-blocks blocks).
func checkBudgets(t *testing.T, files map[string][]byte) {
	t.Helper()
	m := files["manifest.json"]
	if s := gjson.GetBytes(m, "outcome.status").String(); s != "partial" {
		t.Errorf("outcome %q, want partial (the budgets cut the page)", s)
	}
	if n := gjson.GetBytes(files["content.json"], "blocks.#").Int(); n == 0 || n > 12 {
		t.Errorf("%d blocks, want 1..12 (--max-blocks 12)", n)
	}
}

func runSieve(t *testing.T, stdin string, args ...string) {
	t.Helper()
	var stderr bytes.Buffer
	app := cliutil.App("sieve", Command(), cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: io.Discard, Stderr: &stderr})
	if code := cliutil.Main(app, args); code != 0 && code != cliutil.ExitOutcome {
		t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
	}
}

// mcpDistill runs `sieve mcp` (args) over stdio, calls distill on url and
// returns the stored artifact's directory.
func mcpDistill(t *testing.T, url string, args []string) string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	app := cliutil.App("sieve", Command(), cliutil.IO{Stdin: inR, Stdout: outW, Stderr: &stderr})
	done := make(chan int)
	go func() { done <- cliutil.Main(app, args); outW.Close() }()
	client := mcp.NewClient(&mcp.Implementation{Name: "sieve-test", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"url": url}})
	if err != nil || res.IsError {
		t.Fatalf("distill: %v %+v", err, res)
	}
	cs.Close()
	if code := <-done; code != 0 {
		t.Fatalf("sieve mcp: exit %d\n%s", code, stderr.String())
	}
	store := args[3]
	var dir string
	filepath.WalkDir(store, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Name() == "manifest.json" {
			dir = filepath.Dir(p)
		}
		return nil
	})
	if dir == "" {
		t.Fatalf("no artifact in the store %s", store)
	}
	return dir
}

// clock matches the capture's clock in compact and indented JSON and in
// index.html's meta list (second resolution: reads a second apart differ).
var clock = regexp.MustCompile(`"(started_at|distilled_at|fetched_at|captured_at)":\s*"[^"]*"|"duration_ms":\s*[0-9]+|<dt>distilled_at</dt><dd>[^<]*</dd>`)

// artifactFiles are the files of the one artifact directory under root,
// by path within it, the capture's clock blanked.
func artifactFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	var dir string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Name() == "manifest.json" {
			dir = filepath.Dir(p)
		}
		return nil
	})
	if dir == "" {
		t.Fatalf("no artifact under %s", root)
	}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = clock.ReplaceAllFunc(b, func(m []byte) []byte { return bytes.Repeat([]byte("_"), len(m)) })
		return nil
	})
	return files
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
