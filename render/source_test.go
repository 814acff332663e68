package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/internal/blob"
)

// TestEvidenceSourceBytes: with the capture's blob store, the bundle holds
// the source bytes (source.html for a web page, source.pdf for a PDF)
// and they hash to the document's source fingerprint; source.json says
// where they are, and why not when they are not there.
func TestEvidenceSourceBytes(t *testing.T) {
	cases := []struct{ graph, file string }{
		{"testdata/docs.graph.json", eef.FileSourceHTML},
		{"testdata/pdf-report.graph.json", eef.FileSourcePDF},
	}
	for _, c := range cases {
		store := t.TempDir()
		st, err := blob.Open(store)
		if err != nil {
			t.Fatal(err)
		}
		src := []byte("the served bytes of " + c.graph + "\n")
		if c.file == eef.FileSourcePDF {
			src = append([]byte("%PDF-1.7\n"), src...)
		}
		key, err := st.Put(src)
		if err != nil {
			t.Fatal(err)
		}
		rec := loadRecord(t, c.graph)
		rec.SourceFingerprint = key
		a, err := Write(Options{Out: t.TempDir(), Blobs: store}, rec)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(a.Dir, eef.Dir)
		got, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.graph, err)
		}
		doc, _ := os.ReadFile(filepath.Join(dir, eef.FileDocument))
		if fp := gjson.GetBytes(doc, "source.fingerprint").String(); blob.Key(got) != fp || fp != key {
			t.Errorf("%s: %s hashes to %s, the document's source fingerprint is %s", c.graph, c.file, blob.Key(got), fp)
		}
		ptr, _ := os.ReadFile(filepath.Join(dir, eef.FileSource))
		if f := gjson.GetBytes(ptr, "file").String(); f != c.file {
			t.Errorf("%s: source.json file %q, want %q: %s", c.graph, f, c.file, ptr)
		}
		if bp := gjson.GetBytes(ptr, "blob_path").String(); bp != key[7:9]+"/"+key[7:] {
			t.Errorf("%s: blob_path %q", c.graph, bp)
		}
		validateEvidence(t, dir)

		// Without the store, or with a store that lacks them, the bytes
		// are not there and source.json says why.
		for _, blobs := range []string{"", t.TempDir()} {
			a, err := Write(Options{Out: t.TempDir(), Blobs: blobs}, rec)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(a.Dir, eef.Dir)
			if _, err := os.Stat(filepath.Join(dir, c.file)); !os.IsNotExist(err) {
				t.Errorf("%s (blobs %q): %s written without its bytes", c.graph, blobs, c.file)
			}
			ptr, _ := os.ReadFile(filepath.Join(dir, eef.FileSource))
			if p := gjson.ParseBytes(ptr); p.Get("file").Type != gjson.Null || p.Get("note").String() == "" {
				t.Errorf("%s (blobs %q): source.json %s", c.graph, blobs, ptr)
			}
			validateEvidence(t, dir)
		}

		// A blob edited in place is not the source: it stays out.
		p, _ := st.Path(key)
		if err := os.WriteFile(p, []byte("edited"), 0o644); err != nil {
			t.Fatal(err)
		}
		a, err = Write(Options{Out: t.TempDir(), Blobs: store}, rec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(a.Dir, eef.Dir, c.file)); !os.IsNotExist(err) {
			t.Errorf("%s: bytes that do not hash to the fingerprint went into the bundle", c.graph)
		}
	}
}
