// Package blob is a content-addressed directory of byte blobs (screenshots,
// PDF source bytes): a blob's key is "sha256:" + the hex SHA-256 of its
// bytes, and it lives at DIR/<first two hex digits>/<hex>, with ".png"
// appended when the bytes are a PNG image, so that a person can open a
// screenshot from a file browser. Keys do not change with the name: a
// store written before PNGs got their extension is still read. Writes are
// atomic (a temporary file renamed into place), so a reader never sees
// half a blob, and writing the same bytes twice is a no-op.
package blob

import (
	"bytes"
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

// MediaPNG is the media type of a PNG blob.
const MediaPNG = "image/png"

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// Ext is the file extension a blob of bytes b is stored under: ".png" for
// a PNG image, "" otherwise (PDF source bytes keep the bare name their
// documented path, DIR/<hex[:2]>/<hex>, gives).
func Ext(b []byte) string {
	if bytes.HasPrefix(b, pngMagic) {
		return ".png"
	}
	return ""
}

// bare is the extensionless path of key.
func (s *Store) bare(key string) (string, error) {
	h, ok := strings.CutPrefix(key, "sha256:")
	if !ok || len(h) != 64 {
		return "", fmt.Errorf("blob store: bad key %q", key)
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", fmt.Errorf("blob store: bad key %q", key)
	}
	return filepath.Join(s.dir, h[:2], h), nil
}

// Path is where the blob with key lives: the ".png" file when one
// exists, else the bare name (which may not exist).
func (s *Store) Path(key string) (string, error) {
	p, err := s.bare(key)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p + ".png"); err == nil {
		return p + ".png", nil
	}
	return p, nil
}

// Put stores b and returns its key.
func (s *Store) Put(b []byte) (string, error) {
	key := Key(b)
	bare, _ := s.bare(key)
	p := bare + Ext(b)
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

// Get reads the blob with key, and checks that its bytes still hash to
// key (a file edited in place is an error, not evidence).
func (s *Store) Get(key string) ([]byte, error) {
	p, err := s.Path(key)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if Key(b) != key {
		return nil, fmt.Errorf("blob store: %s does not hash to its key %s", p, key)
	}
	return b, nil
}
