package distill

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// warcResponse is a response record for uri serving body as HTML, in a
// gzip member of its own; corrupt breaks its payload digest.
func warcResponse(uri string, body []byte, corrupt bool) []byte {
	block := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n" + string(body))
	sum := sha1.Sum(body)
	if corrupt {
		sum[0] ^= 1
	}
	rec := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%x>\r\nWARC-Date: 2026-01-02T03:04:05Z\r\n"+
		"WARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nWARC-Payload-Digest: sha1:%s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
		sha1.Sum([]byte(uri)), uri, base32.StdEncoding.EncodeToString(sum[:]), len(block), block)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(rec))
	zw.Close()
	return b.Bytes()
}

func runDistill(t *testing.T, args ...string) ([]string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	app := cliutil.App("sieve", &cli.Command{Name: "sieve", Subcommands: []*cli.Command{Command()}}, cliutil.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	code := cliutil.Main(app, append([]string{"sieve", "distill", "-q"}, args...))
	return strings.Split(strings.TrimSpace(stdout.String()), "\n"), stderr.String(), code
}

// `sieve distill FILE.warc.gz` writes an artifact per page of the file,
// with the content_hash a live read of the same page gives; a record that
// fails its digest is an error record (exit 1) and the rest still reads.
func TestDistillWARC(t *testing.T) {
	page := []byte("<html><head><title>Archived</title></head><body><main><h1>Archived</h1><p>Read from a WARC file, not from the web.</p></main></body></html>")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer srv.Close()
	file := append(append(warcResponse(srv.URL+"/one", page, false), warcResponse(srv.URL+"/bad", page, true)...),
		warcResponse(srv.URL+"/two", page, false)...)
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
