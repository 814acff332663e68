package render

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeFiles maps every file under dir (by its path below dir) to its bytes.
func treeFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestConcurrentEvidenceSameBytes: a page's evidence bundle written beside
// its other files (a small page) and written after them (a page above
// concurrentEvidence) give the same artifact, file for file, with the
// same fingerprint in the artifact record.
func TestConcurrentEvidenceSameBytes(t *testing.T) {
	defer func(n int) { concurrentEvidence = n }(concurrentEvidence)
	for name, path := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			rec := loadRecord(t, path)
			concurrentEvidence = 1 << 30
			beside, err := Write(Options{Out: t.TempDir(), Text: true}, rec)
			if err != nil {
				t.Fatal(err)
			}
			concurrentEvidence = -1
			after, err := Write(Options{Out: t.TempDir(), Text: true}, rec)
			if err != nil {
				t.Fatal(err)
			}
			if beside.Evidence == "" || beside.Evidence != after.Evidence {
				t.Errorf("fingerprints %q (beside) and %q (after)", beside.Evidence, after.Evidence)
			}
			a, b := treeFiles(t, beside.Dir), treeFiles(t, after.Dir)
			if len(a) != len(b) || len(a) < 10 {
				t.Fatalf("%d files beside, %d after", len(a), len(b))
			}
			for p, want := range b {
				if !bytes.Equal(a[p], want) {
					t.Errorf("%s differs", p)
				}
			}
		})
	}
}

// TestConcurrentEvidenceFailureLeavesNothing: when a file of the artifact,
// or one of the bundle being written beside it, cannot be written, Write
// fails with that error, waits for the other side, and leaves no
// temporary directory behind.
func TestConcurrentEvidenceFailureLeavesNothing(t *testing.T) {
	defer func(n int) { concurrentEvidence = n }(concurrentEvidence)
	defer func() { failPut = nil }()
	concurrentEvidence = 1 << 30
	for _, name := range []string{FileHTML, FileText, "evidence/document.md", "evidence/source.json"} {
		t.Run(name, func(t *testing.T) {
			failPut = func(n string) error {
				if n == name {
					return errors.New("disk full for " + n)
				}
				return nil
			}
			rec := sampleRecord(t)
			out := t.TempDir()
			_, err := Write(Options{Out: out, Text: true}, rec)
			if err == nil || !strings.Contains(err.Error(), "disk full for "+name) {
				t.Fatalf("Write: %v, want the failure of %s", err, name)
			}
			rel, _ := Dir(rec.URL)
			parent := filepath.Dir(filepath.Join(out, rel))
			assertNoLeftovers(t, parent)
			if entries, _ := os.ReadDir(parent); len(entries) != 0 {
				t.Errorf("%d entries left in %s", len(entries), parent)
			}
		})
	}
}
