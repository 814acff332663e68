package pdftest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update regenerates the tagged fixtures with Chromium (make testpdfs).
var update = flag.Bool("update", false, "print testdata/*.html to tagged PDFs with Chromium")

// TestTaggedFixtures checks the committed Chromium-printed PDFs: each is
// there, small and tagged. With -update it prints them again first (the
// embedded copies are then stale until the next build: run it twice).
func TestTaggedFixtures(t *testing.T) {
	if *update {
		if err := PrintFixtures("", "testdata"); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range taggedNames {
		data, err := os.ReadFile(filepath.Join("testdata", name+".pdf"))
		if err != nil {
			t.Fatalf("%v (make testpdfs prints it)", err)
		}
		if len(data) > 50<<10 {
			t.Errorf("%s.pdf is %d bytes: keep the fixtures under 50 KB", name, len(data))
		}
		if !bytes.Contains(data, []byte("/StructTreeRoot")) || !bytes.Contains(data, []byte("/MarkInfo")) {
			t.Errorf("%s.pdf has no structure tree: not tagged", name)
		}
		if !bytes.Contains(data, []byte("(D:20260101000000")) {
			t.Errorf("%s.pdf: print date not fixed", name)
		}
		if !*update && !bytes.Equal(data, Tagged(name)) {
			t.Errorf("%s.pdf differs from the embedded copy", name)
		}
	}
}
