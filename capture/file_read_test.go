package capture

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestReadFileAsReadAll: readFile gives what io.ReadAll of the limited
// file gives, at every size around the limit.
func TestReadFileAsReadAll(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 511, 512, 513, 4096, 70_000} {
		data := bytes.Repeat([]byte("abcdefghij"), size/10+1)[:size]
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int64{1, 512, int64(size), int64(size) + 1, 1 << 20} {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := io.ReadAll(io.LimitReader(f, limit))
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			got, err := readFile(f, limit)
			f.Close()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("size %d, limit %d: %d bytes (%v), want %d", size, limit, len(got), err, len(want))
			}
		}
	}
	// a pipe has no size: read all the same
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.Write(bytes.Repeat([]byte("x"), 3000)); w.Close() }()
	got, err := readFile(r, 1<<20)
	r.Close()
	if err != nil || len(got) != 3000 {
		t.Errorf("pipe: %d bytes (%v), want 3000", len(got), err)
	}
}
