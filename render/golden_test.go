package render

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

var artifactFiles = []string{FileManifest, FileContent, FileMarkdown, FileHTML}

// loadRecord reads a hand-written graph record from testdata.
func loadRecord(t testing.TB, path string) *graph.Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec graph.Record
	if err := codec.Unmarshal(b, &rec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &rec
}

func goldenCases(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.graph.json")
	if err != nil || len(paths) < 4 {
		t.Fatalf("want at least 4 golden inputs, got %d (%v)", len(paths), err)
	}
	cases := map[string]string{}
	for _, p := range paths {
		cases[strings.TrimSuffix(filepath.Base(p), ".graph.json")] = p
	}
	return cases
}

func TestGolden(t *testing.T) {
	for name, path := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			a, err := Write(Options{Out: t.TempDir()}, loadRecord(t, path))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range artifactFiles {
				got, err := os.ReadFile(filepath.Join(a.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				compareGolden(t, filepath.Join("testdata", "golden", name, f), got)
			}
		})
	}
}

func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", path, firstDiff(want, got))
	}
}

func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:", i+1) + "\n want: " + w + "\n  got: " + g
		}
	}
	return "(no line differs)"
}

func TestDeterministic(t *testing.T) {
	for name, path := range goldenCases(t) {
		rec := loadRecord(t, path)
		a1, err := Write(Options{Out: t.TempDir()}, rec)
		if err != nil {
			t.Fatal(err)
		}
		a2, err := Write(Options{Out: t.TempDir()}, loadRecord(t, path))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range artifactFiles {
			b1, _ := os.ReadFile(filepath.Join(a1.Dir, f))
			b2, _ := os.ReadFile(filepath.Join(a2.Dir, f))
			if len(b1) == 0 || !bytes.Equal(b1, b2) {
				t.Errorf("%s/%s: two renders differ (or are empty)", name, f)
			}
		}
	}
}
