package frontier_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// runFrontier runs sieve-frontier in-process.
func runFrontier(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var o, e bytes.Buffer
	app := cliutil.App("sieve-frontier", frontier.Command(), cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e})
	code := cliutil.Main(app, append([]string{"sieve-frontier"}, args...))
	return o.String(), e.String(), code
}

func urlsOf(out string) []string {
	var urls []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" {
			urls = append(urls, gjson.Get(l, "url").String())
		}
	}
	return urls
}

func TestFrontierSitemapAndLinks(t *testing.T) {
	s := newSite(t, 1, 6, 5)
	root := "http://" + s.Hosts[0]
	seen := filepath.Join(t.TempDir(), "seen.tsv")
	out, stderr, code := runFrontier(t, root+"/\n", "sitemap", "--allow-private", "--seen", seen)
	if code != 0 {
		t.Fatalf("sitemap: exit %d\n%s", code, stderr)
	}
	// The orphans (gzip sitemap, plain sitemap, RSS feed), the home page and /p/0.
	if got := urlsOf(out); len(got) != 7 {
		t.Errorf("sitemap found %d URLs: %q", len(got), got)
	}
	// Again with the same seen-set: nothing new.
	if out, _, _ := runFrontier(t, root+"/\n", "sitemap", "--allow-private", "--seen", seen); out != "" {
		t.Errorf("second sitemap run wrote %q", out)
	}

	graph := fmt.Sprintf(`{"record":"graph","url":"%[1]s/p/1","final_url":"%[1]s/p/1","crawl_depth":2,"links":[
		{"href":"%[1]s/p/3","role":"content"},{"href":"%[1]s/p/3#x","role":"content"},
		{"href":"%[1]s/p/0?utm_source=x","role":"content"},{"href":"%[1]s/nav","role":"chrome"},
		{"href":"%[1]s/ad","role":"content","rel":"sponsored nofollow"},{"href":"http://elsewhere.test/","role":"content"}]}`, root)
	graph = strings.ReplaceAll(graph, "\n\t\t", "") + "\n"
	out, stderr, code = runFrontier(t, graph, "links", "--seen", seen)
	if code != 0 {
		t.Fatalf("links: exit %d\n%s", code, stderr)
	}
	if got := strings.Join(urlsOf(out), " "); got != root+"/p/3 "+root+"/nav" {
		t.Errorf("links: %s", got)
	}
	if d := gjson.Get(out, "crawl_depth").Int(); d != 3 {
		t.Errorf("links: depth %d, want 3", d)
	}
	out, _, _ = runFrontier(t, graph, "links", "--content-links", "--max-depth", "2")
	if out != "" {
		t.Errorf("links beyond --max-depth: %s", out)
	}
	out, _, _ = runFrontier(t, graph, "links", "--content-links")
	if got := strings.Join(urlsOf(out), " "); got != root+"/p/3 "+root+"/p/0" {
		t.Errorf("--content-links: %s", got)
	}
}

func TestFrontierShardAndPending(t *testing.T) {
	in := "http://a.test/1\nhttp://b.test/1\n{\"url\":\"http://a.test/2\"}\nhttp://c.test/\n"
	keyed, _, code := runFrontier(t, in, "shard", "--of", "3", "--key")
	if code != 0 {
		t.Fatal("shard --key failed")
	}
	total := 0
	for i := 0; i < 3; i++ {
		out, _, _ := runFrontier(t, in, "shard", "--of", "3", "--index", fmt.Sprint(i))
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if l == "" {
				continue
			}
			total++
			if !strings.Contains(keyed, fmt.Sprintf("%d\t%s\n", i, l)) {
				t.Errorf("shard %d has %s; --key says otherwise:\n%s", i, l, keyed)
			}
		}
	}
	if total != 4 {
		t.Errorf("the shards hold %d lines, want 4", total)
	}
	if _, _, code := runFrontier(t, in, "shard", "--of", "3"); code != cliutil.ExitUsage {
		t.Errorf("shard without --index or --key: exit %d", code)
	}

	out := t.TempDir()
	rel, _ := render.Dir("http://a.test/1")
	dir := filepath.Join(out, rel)
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "manifest.json"), []byte("{}"), 0o644)
	got, _, _ := runFrontier(t, "http://a.test/1\nhttp://a.test/2\n", "pending", "--out", out)
	if got != "http://a.test/2\n" {
		t.Errorf("pending: %q", got)
	}
}

// graphLines reads urls through capture, normalize and graph in-process.
func graphLines(t *testing.T, urls ...string) string {
	t.Helper()
	cp := capture.New(capture.Options{AllowPrivate: true, Retries: -1})
	defer cp.Close()
	var out bytes.Buffer
	_, err := jsonl.Run(context.Background(), strings.NewReader(strings.Join(urls, "\n")+"\n"), &out, nil,
		jsonl.Chain("test", cp.Stage(), normalize.Stage(), graph.Stage()))
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func TestFrontierSettle(t *testing.T) {
	s := newSite(t, 1, 2, 0)
	u := "http://" + s.Hosts[0] + "/p/1"
	out := t.TempDir()
	good := graphLines(t, u)
	first, stderr, code := runFrontier(t, good, "settle", "--out", out)
	if code != 0 || gjson.Get(first, "outcome").String() != "ok" {
		t.Fatalf("settle: exit %d: %s\n%s", code, first, stderr)
	}
	md := filepath.Join(gjson.Get(first, "dir").String(), "index.md")
	before, _ := os.ReadFile(md)

	again, _, _ := runFrontier(t, graphLines(t, u), "settle", "--out", out)
	if !gjson.Get(again, "unchanged").Bool() {
		t.Errorf("the same page again: %s", again)
	}
	s.SetFail(true)
	failed, _, _ := runFrontier(t, graphLines(t, u), "settle", "--out", out)
	if gjson.Get(failed, "outcome").String() != "ok" || gjson.Get(failed, "reread.outcome").String() != "blocked" {
		t.Errorf("failed re-read: %s", failed)
	}
	if after, _ := os.ReadFile(md); !bytes.Equal(after, before) {
		t.Error("a failed re-read replaced the good index.md")
	}
	if _, err := os.Stat(filepath.Join(gjson.Get(first, "dir").String(), frontier.FileRereadFailed)); err != nil {
		t.Error(err)
	}
}
