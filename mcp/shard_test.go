package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/distill"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/shard"
	"github.com/sieve-dev/sieve/render"
)

// shardDistill runs `sieve distill --shard name` on targets and returns
// the artifact lines.
func shardDistill(t *testing.T, name string, args ...string) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	app := cliutil.App("sieve", &cli.Command{Name: "sieve", Subcommands: []*cli.Command{distill.Command()}},
		cliutil.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	if code := cliutil.Main(app, append([]string{"sieve", "distill", "-q", "--shard", name}, args...)); code != 0 {
		t.Fatalf("sieve distill --shard: exit %d\n%s", code, stderr.String())
	}
	return strings.Split(strings.TrimSpace(stdout.String()), "\n")
}

// readingCalls are the reading tools' calls on one artifact: every
// section, every block, a search, the hidden text, citations, anchors,
// crops (of a grounded check and of a box), and a diff.
func readingCalls(t *testing.T, s *session, key string, claims []map[string]any) []struct {
	name string
	args map[string]any
} {
	t.Helper()
	rec, err := s.srv.store.record(key)
	if err != nil {
		t.Fatal(err)
	}
	type call = struct {
		name string
		args map[string]any
	}
	var calls []call
	for _, sec := range rec.Sections {
		calls = append(calls, call{"get_section", map[string]any{"artifact": key, "section_id": sec.ID, "include_chrome": true}})
	}
	last := rec.Blocks[min(len(rec.Blocks), maxBlocks)-1].ID
	calls = append(calls,
		call{"get_blocks", map[string]any{"artifact": key, "from": rec.Blocks[0].ID, "to": last}},
		call{"search", map[string]any{"artifact": key, "query": "the ledger \"single binary\" harbour tide"}},
		call{"get_hidden_content", map[string]any{"artifact": key}},
		call{"verify_citations", map[string]any{"artifact": key, "claims": claims}},
		call{"anchor_evidence", map[string]any{"artifact": key, "refs": []map[string]any{{"evidence_id": "p", "kind": "page", "page_ref": "p0001"}}}},
		call{"get_crop", map[string]any{"artifact": key, "check_id": "v0001"}},
		call{"get_crop", map[string]any{"artifact": key, "page_ref": "p0001", "bbox": []int{72, 72, 200, 40}}},
		call{"diff", map[string]any{"artifact": key, "since": key}},
	)
	return calls
}

// TestToolsReadShards: the tools give an agent the same results, byte for
// byte, on artifacts served from sieve distill --shard archives (a
// read-only store) as on the same artifacts unpacked into a store's
// directories, and as on the same pages distilled by the server (but for
// diff, whose report names each read's capture time), under the same
// handles; distill then reads the archived URL live against its archived
// read, and the archives are not written.
func TestToolsReadShards(t *testing.T) {
	f := serveSample(t)
	pdfPath, err := filepath.Abs("../internal/pdf/pdftest/testdata/article.pdf")
	if err != nil {
		t.Fatal(err)
	}
	web := []string{f.base + "/docs.html", f.base + "/hidden.html", f.base + "/article.html"}
	allow := strings.TrimPrefix(f.base, "http://")
	dir := t.TempDir()
	blobs := filepath.Join(dir, "blobs") // the worker's: source.pdf joins the PDF's bundle
	lines := shardDistill(t, filepath.Join(dir, "shards", "web-0001"), append([]string{"--tier", "static", "--allow-addr", allow}, web...)...)
	lines = append(lines, shardDistill(t, filepath.Join(dir, "shards", "pdf-0001"), "--blobs", blobs, pdfPath)...)
	sum := archiveSums(t, filepath.Join(dir, "shards"))

	// The directory sides: the same pages read by distill into a store,
	// and the shards' artifacts unpacked into one (tar xzf's tree).
	dirs := connect(t, Options{Capture: f.opts, AllowPaths: true})
	unpacked := connect(t, Options{Capture: capture.DefaultOptions(), Store: unpack(t, filepath.Join(dir, "shards"))})
	// The shard side: a store with nothing of its own and no address
	// allowed, so nothing it serves can come from a fetch.
	shards := connect(t, Options{Capture: capture.DefaultOptions(), Shards: []string{filepath.Join(dir, "shards")}})
	// What the compared results must hold between them, so that they
	// compare answers rather than errors.
	seen := map[string]bool{}
	seenMarks := map[string]string{"a PNG crop": `"mimeType":"image/png"`, "a grounded check": `"status":"grounded"`,
		"hidden text": `"reason":"`, "a search match": `"matches":[{`, "a section": `"section":{`}
	pdfClaims := []map[string]any{{"claim_id": "tide", "kind": "quote", "text": "The harbour master logged the first high tide at six in the morning"}}
	for i, line := range lines {
		u, hash := gjson.Get(line, "url").String(), gjson.Get(line, "content_hash").String()
		var d distilled
		args, claims := map[string]any{"url": u}, sampleClaims
		if i == len(lines)-1 {
			args, claims = map[string]any{"path": pdfPath}, pdfClaims
		}
		if text, isErr := dirs.call(t, "distill", args, &d); isErr {
			t.Fatalf("distill %s: %s", u, text)
		}
		key := Key(u, hash)
		if d.Artifact != key {
			t.Fatalf("%s: distill's handle %s, the shard's %s (content_hash %s, distill %s)", u, d.Artifact, key, hash, d.Manifest.ContentHash)
		}
		if _, err := os.Stat(filepath.Join(shards.srv.opts.Store, "artifacts", key)); err == nil {
			t.Fatalf("%s: the shard's artifact was written into the store", key)
		}
		for _, c := range readingCalls(t, shards, key, claims) {
			got := shards.wholeResult(t, c.name, c.args)
			if want := unpacked.wholeResult(t, c.name, c.args); got != want {
				t.Errorf("%s %s on the shard:\n%.600s\nunpacked into the store's directory:\n%.600s", c.name, u, got, want)
			}
			if want := dirs.wholeResult(t, c.name, c.args); got != want && c.name != "diff" {
				t.Errorf("%s %s on the shard:\n%.600s\ndistilled into the store's directory:\n%.600s", c.name, u, got, want)
			}
			if strings.Contains(got, `"isError":true`) && c.name != "get_crop" {
				t.Errorf("%s %s: %.300s", c.name, u, got)
			}
			for what, mark := range seenMarks {
				if strings.Contains(got, mark) {
					seen[what] = true
				}
			}
		}
		shardResources(t, shards, key, filepath.Join(dir, "shards"), u)
	}

	for what := range seenMarks {
		if !seen[what] {
			t.Errorf("no result held %s", what)
		}
	}

	// A live read of an archived URL is stored beside the archive, which
	// stays as it was, and is compared with the archived read.
	live := connect(t, Options{Capture: f.opts, Shards: []string{filepath.Join(dir, "shards")}})
	u := web[0]
	d := live.distill(t, u)
	if key := Key(u, gjson.Get(lines[0], "content_hash").String()); !d.Reused || d.Artifact != key {
		t.Errorf("distill of an archived page: reused %v handle %s, want the archive's %s", d.Reused, d.Artifact, key)
	}
	var out distillOutput
	live.call(t, "distill", map[string]any{"url": u}, &out)
	if out.Changes == nil || out.Changes.Since != d.Artifact || out.Changes.Status != "unchanged" {
		t.Errorf("changes since the archived read: %+v", out.Changes)
	}
	if got := archiveSums(t, filepath.Join(dir, "shards")); got != sum {
		t.Errorf("the archives changed: %s, before %s", got, sum)
	}
}

// unpack is a store directory holding the artifacts of the shards under
// dir unpacked, each under its handle.
func unpack(t *testing.T, dir string) string {
	t.Helper()
	store, tmp := t.TempDir(), t.TempDir()
	rs, err := shard.OpenAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		for _, e := range r.Entries() {
			if err := r.Extract(e, tmp); err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(store, "artifacts"), 0o755)
			if err := os.Rename(filepath.Join(tmp, filepath.FromSlash(e.Path)), filepath.Join(store, "artifacts", Key(e.URL, e.ContentHash))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return store
}

// shardResources: the artifact's resources are listed and read as the
// archive holds them (sieve cat's bytes).
func shardResources(t *testing.T, s *session, key, shards, url string) {
	t.Helper()
	listed := false
	for r, err := range s.cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed = listed || r.URI == resourceURI(key, render.FileManifest)
	}
	if !listed {
		t.Errorf("%s (%s) is not listed as a resource", key, url)
	}
	rs, err := shard.OpenAll(shards)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		e, _, err := r.Find(url)
		if err != nil {
			continue
		}
		for _, name := range []string{render.FileManifest, render.FileMarkdown} {
			want, err := r.ReadFile(e, name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: resourceURI(key, name)})
			if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != string(want) {
				t.Errorf("resource %s of %s: %v", name, url, err)
			}
		}
		return
	}
	t.Fatalf("%s is in no shard", url)
}

// archiveSums is a digest of every file under dir.
func archiveSums(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s %d %x\n", p, len(b), sha256.Sum256(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestShardFlagErrors: a --shard path without a shard stops the server
// before it serves, naming the path.
func TestShardFlagErrors(t *testing.T) {
	empty := t.TempDir()
	for _, p := range []string{filepath.Join(empty, "missing.tar.gz"), empty} {
		_, err := New(Options{Store: t.TempDir(), Shards: []string{p}})
		if err == nil || !strings.Contains(err.Error(), "--shard "+p) {
			t.Errorf("--shard %s: %v", p, err)
		}
	}
}
