package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/render"
)

// Store keeps artifact directories by key (URL + content_hash) under one
// directory, so that an artifact is reused across tool calls and server
// restarts:
//
//	DIR/artifacts/<key>/manifest.json, content.json, index.md, index.html, evidence/…
//	DIR/tmp/               distillations in progress (renamed into artifacts/)
//	DIR/versions/<url>     the keys of one URL's reads, oldest first (12 hex digits of the URL's SHA-256)
//
// A key is 12 hex digits of SHA-256 over the URL, a dash, and the first 16
// hex digits of the content_hash: the same page read again with the same
// content lands on the same key (its files are replaced by the newer read),
// a changed page gets a new key and the old artifact stays readable. The
// versions file of a URL says which read came last and which before it,
// so a page read again can be diffed against its previous version.
//
// The store also serves, read-only, the artifacts of shard archives
// (sieve mcp --shard; shards.go) under the same keys: every tool reads
// them as it reads a directory.
type Store struct {
	dir string

	shards     map[string]shardArtifact // by key; set before use, then only read
	shardReads map[string][]string      // a URL's keys in the shards, by key prefix, oldest first
	served     struct{ artifacts, archives int }

	mu    sync.Mutex
	cache map[string]*graph.Record // decoded content.json by key
	order []string                 // cache keys, oldest first
}

// cacheSize is how many decoded graphs the store keeps in memory.
const cacheSize = 32

var keyPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{12}-[0-9a-f]{16}$`) })

// OpenStore creates (when needed) and opens the store at dir.
func OpenStore(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("mcp: no store directory")
	}
	for _, sub := range []string{"artifacts", "tmp", "versions"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return nil, fmt.Errorf("mcp: store: %w", err)
		}
	}
	return &Store{dir: dir, cache: map[string]*graph.Record{}, shards: map[string]shardArtifact{}, shardReads: map[string][]string{}}, nil
}

// Key is the store key of url read with contentHash ("sha256:<hex>").
func Key(url, contentHash string) string {
	u := sha256.Sum256([]byte(url))
	h := strings.TrimPrefix(contentHash, "sha256:")
	if len(h) < 16 || !isHex(h[:16]) {
		// Every graph has a content hash; this only guards the shape.
		c := sha256.Sum256([]byte(contentHash))
		h = hex.EncodeToString(c[:])
	}
	return hex.EncodeToString(u[:])[:12] + "-" + h[:16]
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// tempDir is a fresh directory for one distillation's render stage.
func (s *Store) tempDir() (string, error) {
	return os.MkdirTemp(filepath.Join(s.dir, "tmp"), "distill-")
}

// locate finds the artifact of key: its directory in the store, or else
// its place in a shard (dir ""). A key of any other shape is refused, so a
// handle cannot name a path outside the store.
func (s *Store) locate(key string) (dir string, a shardArtifact, err error) {
	if !keyPattern().MatchString(key) {
		return "", a, notFound("%q is not an artifact handle (distill returns one: 12 hex digits, a dash, 16 hex digits)", key)
	}
	d := filepath.Join(s.dir, "artifacts", key)
	if _, err := os.Stat(filepath.Join(d, render.FileManifest)); err == nil {
		return d, a, nil
	}
	if a, ok := s.shards[key]; ok {
		return "", a, nil
	}
	return "", a, notFound("no artifact %s in the store: distill the page first", key)
}

// has says whether the store holds key (a notFound error when not).
func (s *Store) has(key string) error {
	_, _, err := s.locate(key)
	return err
}

// put moves the artifact directory src (written by render.Write) into the
// store under key, replacing an earlier read with the same key.
func (s *Store) put(key, src string) error {
	dst := filepath.Join(s.dir, "artifacts", key)
	s.mu.Lock()
	defer s.mu.Unlock()
	old := ""
	if _, err := os.Stat(dst); err == nil {
		old = dst + ".old"
		os.RemoveAll(old)
		if err := os.Rename(dst, old); err != nil {
			return fmt.Errorf("mcp: store: %w", err)
		}
	}
	if err := os.Rename(src, dst); err != nil {
		if old != "" {
			os.Rename(old, dst) //nolint:errcheck // best effort: keep the earlier read
		}
		return fmt.Errorf("mcp: store: %w", err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	s.forget(key)
	return nil
}

// file reads one file of an artifact.
func (s *Store) file(key, name string) ([]byte, error) {
	d, a, err := s.locate(key)
	if err != nil {
		return nil, err
	}
	var b []byte
	if d != "" {
		b, err = os.ReadFile(filepath.Join(d, name))
	} else {
		b, err = a.r.ReadFile(a.entry(), name)
	}
	if err != nil {
		return nil, internalf("reading %s of %s: %v", name, key, err)
	}
	return b, nil
}

// evidence calls fn with the directory of the artifact's evidence bundle:
// the artifact's own, or for an artifact in a shard a temporary copy of
// the files the evidence tools read (extractEvidence).
func (s *Store) evidence(key string, fn func(dir string) error) error {
	d, a, err := s.locate(key)
	if err != nil {
		return err
	}
	if d != "" {
		return fn(filepath.Join(d, eef.Dir))
	}
	dir, done, err := s.extractEvidence(a)
	if err != nil {
		return err
	}
	defer done()
	return fn(dir)
}

// record is the artifact's graph (content.json), decoded once and cached.
func (s *Store) record(key string) (*graph.Record, error) {
	s.mu.Lock()
	rec, ok := s.cache[key]
	s.mu.Unlock()
	if ok {
		return rec, nil
	}
	b, err := s.file(key, render.FileContent)
	if err != nil {
		return nil, err
	}
	rec = new(graph.Record)
	if err := codec.Unmarshal(b, rec); err != nil {
		return nil, internalf("decoding content.json of %s: %v", key, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.cache[key]; !ok {
		s.cache[key] = rec
		s.order = append(s.order, key)
		if len(s.order) > cacheSize {
			delete(s.cache, s.order[0])
			s.order = s.order[1:]
		}
	}
	return rec, nil
}

// forget drops key from the cache (s.mu held).
func (s *Store) forget(key string) {
	if _, ok := s.cache[key]; !ok {
		return
	}
	delete(s.cache, key)
	for i, k := range s.order {
		if k == key {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

// keys lists the artifacts in the store and its shards, sorted.
func (s *Store) keys() []string {
	entries, _ := os.ReadDir(filepath.Join(s.dir, "artifacts"))
	var keys []string
	for _, e := range entries {
		if e.IsDir() && keyPattern().MatchString(e.Name()) {
			if _, ok := s.shards[e.Name()]; !ok {
				keys = append(keys, e.Name())
			}
		}
	}
	for k := range s.shards {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// versionsFile is the versions file of the URL a key (or a URL's own key
// prefix) belongs to.
func (s *Store) versionsFile(key string) string {
	return filepath.Join(s.dir, "versions", key[:12])
}

// versions lists the keys of the URL of key, oldest first (s.mu held):
// its reads in the shards, then the store's own.
func (s *Store) versions(key string) []string {
	own := s.ownVersions(key)
	var out []string
	for _, k := range s.shardReads[key[:12]] {
		if !slices.Contains(own, k) {
			out = append(out, k)
		}
	}
	return append(out, own...)
}

// ownVersions lists the keys of the URL of key in its versions file,
// oldest first (s.mu held).
func (s *Store) ownVersions(key string) []string {
	b, err := os.ReadFile(s.versionsFile(key))
	if err != nil {
		return nil
	}
	var out []string
	for _, k := range strings.Fields(string(b)) {
		if keyPattern().MatchString(k) && k[:12] == key[:12] {
			out = append(out, k)
		}
	}
	return out
}

// latest is the key of the last read of the URL whose reads are keyed
// with the prefix of key, or "" when it was never read (or its artifact
// is gone).
func (s *Store) latest(key string) string {
	s.mu.Lock()
	vs := s.versions(key)
	s.mu.Unlock()
	for i := len(vs) - 1; i >= 0; i-- {
		if s.has(vs[i]) == nil {
			return vs[i]
		}
	}
	return ""
}

// remember makes key the last read of its URL.
func (s *Store) remember(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keep []string
	for _, k := range s.ownVersions(key) {
		if k != key {
			keep = append(keep, k)
		}
	}
	keep = append(keep, key)
	tmp := s.versionsFile(key) + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(keep, "\n")+"\n"), 0o644); err != nil {
		return fmt.Errorf("mcp: store: %w", err)
	}
	if err := os.Rename(tmp, s.versionsFile(key)); err != nil {
		return fmt.Errorf("mcp: store: %w", err)
	}
	return nil
}

// previous is the read of key's URL stored before key, or "" when key is
// its first (or the earlier artifact is gone).
func (s *Store) previous(key string) string {
	s.mu.Lock()
	vs := s.versions(key)
	s.mu.Unlock()
	for i := len(vs) - 1; i > 0; i-- {
		if vs[i] != key {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if s.has(vs[j]) == nil {
				return vs[j]
			}
		}
	}
	return ""
}
