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
