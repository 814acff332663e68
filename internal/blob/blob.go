// Package blob is a content-addressed directory of byte blobs (screenshots):
// a blob's key is "sha256:" + the hex SHA-256 of its bytes, and it lives at
// DIR/<first two hex digits>/<hex>. Writes are atomic (a temporary file
// renamed into place), so a reader never sees half a blob, and writing the
// same bytes twice is a no-op.
package blob

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Store is a blob directory. It is safe for concurrent use.
type Store struct{ dir string }

// Open returns the store at dir, creating the directory.
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("blob store: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Key is the key of b.
func Key(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Path is where the blob with key lives (it may not exist).
func (s *Store) Path(key string) (string, error) {
	h, ok := strings.CutPrefix(key, "sha256:")
	if !ok || len(h) != 64 {
		return "", fmt.Errorf("blob store: bad key %q", key)
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", fmt.Errorf("blob store: bad key %q", key)
	}
	return filepath.Join(s.dir, h[:2], h), nil
}

// Put stores b and returns its key.
func (s *Store) Put(b []byte) (string, error) {
	key := Key(b)
	p, _ := s.Path(key)
	if _, err := os.Stat(p); err == nil {
		return key, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("blob store: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return "", fmt.Errorf("blob store: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("blob store: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("blob store: %w", err)
	}
	return key, nil
}

// Get reads the blob with key.
func (s *Store) Get(key string) ([]byte, error) {
	p, err := s.Path(key)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}
