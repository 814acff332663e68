package render

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/schemas"
)

var evidenceFileNames = []string{eef.FileDocument, eef.FileChunks, eef.FileSecurityReport, eef.FileMarkdown, eef.FileText, eef.FileProfile, eef.FileSource}

func TestEvidenceGolden(t *testing.T) {
	for name, path := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			a, err := Write(Options{Out: t.TempDir()}, loadRecord(t, path))
			if err != nil {
				t.Fatal(err)
			}
			if a.Evidence == "" {
				t.Fatal("artifact record has no evidence fingerprint")
			}
			for _, f := range evidenceFileNames {
				got, err := os.ReadFile(filepath.Join(a.Dir, eef.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				compareGolden(t, filepath.Join("testdata", "golden", name, eef.Dir, f), got)
			}
			validateEvidence(t, filepath.Join(a.Dir, eef.Dir))
		})
	}
}

// validateEvidence checks every JSON file of an evidence directory against
// its EEF schema.
func validateEvidence(t *testing.T, dir string) {
	t.Helper()
	for file, schema := range map[string]string{eef.FileDocument: "ethos-document", eef.FileSecurityReport: "ethos-security-report", eef.FileProfile: "ethos-deterministic-profile", eef.FileSource: "ethos-source-pointer"} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate(schema, b); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, eef.FileChunks))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if err := schemas.Validate("ethos-chunks", line); err != nil {
			t.Errorf("%s: %v", eef.FileChunks, err)
		}
	}
}

func TestNoEvidence(t *testing.T) {
	a, err := Write(Options{Out: t.TempDir(), NoEvidence: true}, sampleRecord(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, eef.Dir)); !os.IsNotExist(err) || a.Evidence != "" {
		t.Errorf("--no-evidence still wrote evidence: %v, %q", err, a.Evidence)
	}
}
