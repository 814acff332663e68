package frontier_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/blob"
)

// sourceInBundle checks that the artifact dir of an artifact line holds
// the page's served bytes as evidence/source.html, and that
// evidence/source.json says they are there.
func sourceInBundle(t *testing.T, line string, served []byte) {
	t.Helper()
	dir := gjson.Get(line, "dir").String()
	got, err := os.ReadFile(filepath.Join(dir, "evidence", "source.html"))
	if err != nil || !bytes.Equal(got, served) {
		t.Errorf("%s: evidence/source.html: %v (%d bytes, want the %d served)", dir, err, len(got), len(served))
	}
	ptr, err := os.ReadFile(filepath.Join(dir, "evidence", "source.json"))
	if err != nil || gjson.GetBytes(ptr, "file").String() != "source.html" {
		t.Errorf("%s: evidence/source.json does not say the bytes are included: %s %v", dir, ptr, err)
	}
}

// TestCrawlBlobsInBundle: sieve crawl --blobs DIR puts each page's source
// bytes into its evidence bundle, as sieve distill --blobs does, and so
// does sieve-frontier settle --blobs.
func TestCrawlBlobsInBundle(t *testing.T) {
	page := []byte("<html><head><title>Blobs</title></head><body><main><h1>Blobs</h1><p>The served bytes of this page go into its bundle.</p></main></body></html>")
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	ts := httptest.NewServer(mux)
	defer ts.Close()
	srv := ts.URL
	blobs := t.TempDir()
	out := t.TempDir()
	stdout, stderr, code := runCrawl(t, "--tier", "static", "--allow-private", "--no-sitemaps", "--no-links",
		"--blobs", blobs, "--out", out, srv+"/")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 1 || gjson.Get(lines[0], "outcome").String() != "ok" {
		t.Fatalf("crawl output: %s\n%s", stdout, stderr)
	}
	sourceInBundle(t, lines[0], page)
	if store, err := blob.Open(blobs); err != nil {
		t.Fatal(err)
	} else if _, err := store.Get(blob.Key(page)); err != nil {
		t.Errorf("the blob store lacks the page: %v", err)
	}

	settled, stderr, code := runFrontier(t, graphLines(t, srv+"/"), "settle", "--blobs", blobs, "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("settle: exit %d\n%s", code, stderr)
	}
	sourceInBundle(t, settled, page)
}
