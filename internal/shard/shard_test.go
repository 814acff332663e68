package shard

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// artifactDir writes a fake artifact directory with the files given.
func artifactDir(t *testing.T, files map[string]string) string {
	t.Helper()
	d := t.TempDir()
	for name, body := range files {
		p := filepath.Join(d, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func writeShard(t *testing.T, name string, n int) map[string]map[string]string {
	t.Helper()
	w, err := Create(name)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{}
	for i := 0; i < n; i++ {
		files := map[string]string{
			"manifest.json":                 fmt.Sprintf(`{"url":"http://h/%d"}`, i),
			"content.json":                  strings.Repeat(fmt.Sprintf("block %d ", i), 200),
			"evidence/document.ethos.json":  fmt.Sprintf(`{"doc":%d}`, i),
			"evidence/security.report.json": "{}",
		}
		p := fmt.Sprintf("h/page-%d", i)
		want[p] = files
		e, err := w.Add(Entry{URL: fmt.Sprintf("http://h/%d", i), Path: p, Outcome: "ok", ContentHash: "sha256:x"}, artifactDir(t, files))
		if err != nil {
			t.Fatal(err)
		}
		if e.Files != 4 || e.Length <= 0 {
			t.Fatalf("entry %+v", e)
		}
	}
	if _, err := os.Stat(name + ArchiveExt); err == nil {
		t.Fatal("archive in place before Close")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return want
}

// TestShardRoundTrip: every artifact read back through the index, each
// by URL, path and file; the archive is a .tar.gz tar itself lists with
// the directory tree sieve distill --out writes.
func TestShardRoundTrip(t *testing.T) {
	name := filepath.Join(t.TempDir(), "out", "shard-0001")
	want := writeShard(t, name, 30)
	r, err := Open(name + ArchiveExt)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries()) != 30 {
		t.Fatalf("%d entries", len(r.Entries()))
	}
	for i, e := range r.Entries() {
		got := map[string]string{}
		dir := t.TempDir()
		if err := r.Extract(e, dir); err != nil {
			t.Fatal(err)
		}
		for name := range want[e.Path] {
			b, err := os.ReadFile(filepath.Join(dir, e.Path, name))
			if err != nil {
				t.Fatal(err)
			}
			got[name] = string(b)
		}
		if fmt.Sprint(got) != fmt.Sprint(want[e.Path]) {
			t.Errorf("%s: files differ", e.Path)
		}
		byURL, file, err := r.Find(e.URL)
		if err != nil || byURL.Offset != e.Offset || file != "" {
			t.Errorf("Find(%s) = %+v %q %v", e.URL, byURL, file, err)
		}
		f, file, err := r.Find(e.Path + "/evidence/document.ethos.json")
		if err != nil || f.Path != e.Path || file != "evidence/document.ethos.json" {
			t.Errorf("Find file: %+v %q %v", f, file, err)
		}
		b, err := r.ReadFile(e, file)
		if err != nil || string(b) != fmt.Sprintf(`{"doc":%d}`, i) {
			t.Errorf("ReadFile: %s %v", b, err)
		}
	}
	if _, _, err := r.Find("http://h/none"); !ErrNotFound(err) {
		t.Errorf("Find of an absent key: %v", err)
	}
	if _, err := exec.LookPath("tar"); err == nil {
		out, err := exec.Command("tar", "tzf", name+ArchiveExt).CombinedOutput()
		if err != nil {
			t.Fatalf("tar tzf: %v\n%s", err, out)
		}
		lines := strings.Fields(string(out))
		if len(lines) != 30*4 || !sort.StringsAreSorted(lines[:4]) || lines[0] != "h/page-0/content.json" {
			t.Errorf("tar lists %d members: %v", len(lines), lines[:min(8, len(lines))])
		}
	}
}

// TestShardDeterministic: the same artifacts give the same bytes.
func TestShardDeterministic(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	writeShard(t, a, 5)
	writeShard(t, b, 5)
	for _, ext := range []string{ArchiveExt, IndexExt} {
		x, _ := os.ReadFile(a + ext)
		y, _ := os.ReadFile(b + ext)
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two writes of the same artifacts", ext)
		}
	}
}

// TestShardCorrupt: a damaged member is an error, not wrong bytes; a
// member name outside the artifact is refused; an aborted shard leaves
// nothing.
func TestShardCorrupt(t *testing.T) {
	name := filepath.Join(t.TempDir(), "s")
	writeShard(t, name, 3)
	r, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	e := r.Entries()[1]
	b, _ := os.ReadFile(name + ArchiveExt)
	b[e.Offset+e.Length/2] ^= 0xff
	os.WriteFile(name+ArchiveExt, b, 0o644)
	if _, err := r.ReadFile(e, "content.json"); err == nil {
		t.Error("a damaged member read without an error")
	}
	if _, err := r.ReadFile(r.Entries()[0], "content.json"); err != nil {
		t.Errorf("the member before the damage: %v", err)
	}
	for _, bad := range []string{"../x", "h/page-1/../../x", "/abs/x", "other/x"} {
		if _, err := cleanMember(bad, "h/page-1"); err == nil {
			t.Errorf("member %q accepted", bad)
		}
	}
	w, err := Create(filepath.Join(t.TempDir(), "gone"))
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(w.Archive()), "*"))
	if len(left) != 0 {
		t.Errorf("an aborted shard left %v", left)
	}
}

// TestMaterialize: ARCHIVE#KEY becomes a path of the extracted artifact.
func TestMaterialize(t *testing.T) {
	name := filepath.Join(t.TempDir(), "s")
	writeShard(t, name, 2)
	for key, want := range map[string]string{
		"http://h/1":                            "h/page-1",
		"h/page-0":                              "h/page-0",
		"h/page-1/evidence/document.ethos.json": "h/page-1/evidence/document.ethos.json",
		"http://h/0#fragment-is-not-a-key-separator": "",
	} {
		p, done, err := Materialize(Ref(name+ArchiveExt, key))
		if want == "" {
			if err == nil {
				done()
				t.Errorf("%s: found", key)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !strings.HasSuffix(p, want) {
			t.Errorf("%s: %s", key, p)
		}
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
		done()
		if _, err := os.Stat(p); err == nil {
			t.Error("done left the files")
		}
	}
	if p, _, err := Materialize("plain/dir"); err != nil || p != "plain/dir" {
		t.Errorf("a plain path: %q %v", p, err)
	}
}

// TestOpenAll: a directory gives its shards in name order, passing over a
// .tar.gz without an index; a shard's own name gives it; a directory
// without a shard is an error.
func TestOpenAll(t *testing.T) {
	dir := t.TempDir()
	writeShard(t, filepath.Join(dir, "b"), 2)
	writeShard(t, filepath.Join(dir, "a"), 3)
	if err := os.WriteFile(filepath.Join(dir, "other.tar.gz"), []byte("not a shard"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := OpenAll(dir)
	if err != nil || len(rs) != 2 || filepath.Base(rs[0].Archive()) != "a.tar.gz" || len(rs[1].Entries()) != 2 {
		t.Fatalf("OpenAll(dir): %v %d readers", err, len(rs))
	}
	if rs, err := OpenAll(filepath.Join(dir, "b.tar.gz")); err != nil || len(rs) != 1 {
		t.Errorf("OpenAll(archive): %v", err)
	}
	if _, err := OpenAll(t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no shard") {
		t.Errorf("an empty directory: %v", err)
	}
}
