package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) string {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ethos := mk("a/evidence/document.ethos.json")
	if got, err := Resolve(filepath.Join(dir, "a")); err != nil || got != ethos {
		t.Fatalf("evidence only: %q, %v", got, err)
	}
	content := mk("a/content.json")
	if got, err := Resolve(filepath.Join(dir, "a")); err != nil || got != content {
		t.Fatalf("content.json first: %q, %v", got, err)
	}
	one := mk("out/local/page-1/content.json")
	if got, err := Resolve(filepath.Join(dir, "out")); err != nil || got != one {
		t.Fatalf("one artifact under --out: %q, %v", got, err)
	}
	mk("out/local/page-2/content.json")
	if _, err := Resolve(filepath.Join(dir, "out")); err == nil || !strings.Contains(err.Error(), "holds 2 artifacts") {
		t.Fatalf("two artifacts: %v", err)
	}
	if _, err := Parse([]byte(`{"artifact_type":"something.else"}`)); err != ErrNotDocument {
		t.Fatalf("not a document: %v", err)
	}
}

// Page text cannot drive a terminal: escape sequences and bidi overrides
// print escaped in the text and Markdown renderings.
func TestRenderEscapesControls(t *testing.T) {
	r := &Report{Status: StatusChanged, Sections: []Entry{{Change: Added, NewID: "s_1", NewTitle: "Hi\x1b[31m", OldIndex: -1,
		Blocks: []BlockChange{}}}}
	r.Sections = append(r.Sections, Entry{Change: Changed, OldID: "s_2", NewID: "s_2", NewTitle: "T",
		Blocks: []BlockChange{{Change: Added, NewID: "b_1", Type: "paragraph", NewText: "evil\u202egnp.exe\x07"}}})
	for _, out := range []string{Text(r), Markdown(r)} {
		if strings.ContainsAny(out, "\x1b\x07\u202e") {
			t.Fatalf("control characters in output: %q", out)
		}
		if !strings.Contains(out, `\u202e`) {
			t.Fatalf("the override is not shown escaped: %q", out)
		}
	}
}
