package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/schemas"
)

// TestSchemas validates every file and record the stage writes for the
// testdata records against schemas/.
func TestSchemas(t *testing.T) {
	for name, path := range goldenCases(t) {
		rec := loadRecord(t, path)
		line, err := codec.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate("graph", line); err != nil {
			t.Errorf("%s: testdata record is not a valid graph record: %v", name, err)
		}
		a, err := Write(Options{Out: t.TempDir()}, rec)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := codec.Marshal(a)
		if err := schemas.Validate("artifact", out); err != nil {
			t.Errorf("%s: artifact record: %v", name, err)
		}
		for file, schema := range map[string]string{FileManifest: "manifest", FileContent: "content"} {
			b, err := os.ReadFile(filepath.Join(a.Dir, file))
			if err != nil {
				t.Fatal(err)
			}
			if err := schemas.Validate(schema, b); err != nil {
				t.Errorf("%s/%s: %v", name, file, err)
			}
		}
	}
}
