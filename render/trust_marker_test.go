package render

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/graph"
)

// TestEveryLatentCopyIsMarked walks every file of the hidden-text
// fixture's artifact, evidence bundle and index.txt included: latent text
// appears only where its trust marker goes with it (ARTIFACT.md: "a
// fragment copied out of it still says what it is") — a JSON string that
// starts with the marker, or the text of an entry whose trust field is
// the marker — and nowhere else (index.md, index.html, chunks, document.md
// and .txt never carry it).
func TestEveryLatentCopyIsMarked(t *testing.T) {
	rec := sampleRecord(t)
	a, err := Write(Options{Out: t.TempDir(), Text: true}, rec)
	if err != nil {
		t.Fatal(err)
	}
	canaries := []string{"LATENT-CANARY-4f9a", "LATENT-CANARY-b81e"}
	marked := "[" + graph.TrustMarker + "] "
	seen := map[string]int{}
	err = filepath.WalkDir(a.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name, _ := filepath.Rel(a.Dir, path)
		has := false
		for _, c := range canaries {
			has = has || strings.Contains(string(b), c)
		}
		if !has {
			return nil
		}
		if !strings.HasSuffix(name, ".json") {
			t.Errorf("%s carries latent text", name)
			return nil
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Errorf("%s: %v", name, err)
			return nil
		}
		var walk func(v any, trusted bool)
		walk = func(v any, trusted bool) {
			switch x := v.(type) {
			case map[string]any:
				tr := x["trust"] == graph.TrustMarker
				for _, e := range x {
					walk(e, tr)
				}
			case []any:
				for _, e := range x {
					walk(e, false)
				}
			case string:
				for _, c := range canaries {
					if !strings.Contains(x, c) {
						continue
					}
					seen[name]++
					if !trusted && !strings.HasPrefix(x, marked) {
						t.Errorf("%s: latent text without its trust marker: %.120q", name, x)
					}
				}
			}
		}
		walk(v, false)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{FileContent, "evidence/document.ethos.json", "evidence/security_report.json"} {
		if seen[f] == 0 {
			t.Errorf("%s: no latent text found (the check saw nothing): %v", f, seen)
		}
	}
}
