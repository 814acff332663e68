package blob

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestPutGet(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("a screenshot")
	var wg sync.WaitGroup
	keys := make([]string, 8)
	for i := range keys {
		wg.Add(1)
		go func() { defer wg.Done(); keys[i], _ = s.Put(data) }()
	}
	wg.Wait()
	for _, k := range keys {
		if k != Key(data) {
			t.Fatalf("key %q, want %q", k, Key(data))
		}
	}
	got, err := s.Get(keys[0])
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, %v", got, err)
	}
	p, _ := s.Path(keys[0])
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Errorf("directory holds %d entries, want the blob only", len(ents))
	}
	if _, err := s.Path("sha256:../../etc"); err == nil {
		t.Error("a malformed key was accepted")
	}
}

func TestPNGName(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	png := append([]byte("\x89PNG\r\n\x1a\n"), "rest"...)
	key, err := s.Put(png)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path(key)
	if filepath.Ext(p) != ".png" {
		t.Fatalf("a PNG blob lives at %s, want a .png name", p)
	}
	if got, err := s.Get(key); err != nil || !bytes.Equal(got, png) {
		t.Fatalf("Get = %q, %v", got, err)
	}
	// A store written before the extension (bare name) is still read.
	old := []byte("\x89PNG\r\n\x1a\nolder")
	bare, _ := s.bare(Key(old))
	os.MkdirAll(filepath.Dir(bare), 0o755)
	if err := os.WriteFile(bare, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(Key(old)); err != nil || !bytes.Equal(got, old) {
		t.Fatalf("Get of a bare-named PNG = %q, %v", got, err)
	}
	// Other bytes keep the bare name.
	k2, _ := s.Put([]byte("%PDF-1.7"))
	if p2, _ := s.Path(k2); filepath.Ext(p2) != "" {
		t.Errorf("a PDF blob lives at %s, want the bare name", p2)
	}
	// A blob edited in place is refused.
	os.WriteFile(p, []byte("changed"), 0o644)
	if _, err := s.Get(key); err == nil {
		t.Error("Get of a blob whose bytes no longer hash to its key succeeded")
	}
}
