package shard

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Reader reads a shard through its index.
type Reader struct {
	archive string
	entries []Entry
	byKey   map[string]int // URL and path → the entry (the later one)
}

// Open reads the index of the shard named name (Names).
func Open(name string) (*Reader, error) {
	archive, index := Names(name)
	if _, err := os.Stat(archive); err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	f, err := os.Open(index)
	if err != nil {
		return nil, fmt.Errorf("shard: the index of %s: %w", archive, err)
	}
	defer f.Close()
	r := &Reader{archive: archive, byKey: map[string]int{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("shard: %s line %d: %w", index, line, err)
		}
		if e.URL == "" || e.Path == "" || e.Offset < 0 || e.Length <= 0 {
			return nil, fmt.Errorf("shard: %s line %d: not an index entry", index, line)
		}
		r.byKey[e.URL] = len(r.entries)
		r.byKey[e.Path] = len(r.entries)
		r.entries = append(r.entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("shard: %s: %w", index, err)
	}
	return r, nil
}

// Archive is the archive's file name.
func (r *Reader) Archive() string { return r.archive }

// Entries are the index's entries in archive order; a URL packed twice
// has both (Find gives the later one).
func (r *Reader) Entries() []Entry { return r.entries }

// Latest reports whether e is the entry Find gives for its URL.
func (r *Reader) Latest(i int) bool { return r.byKey[r.entries[i].URL] == i }

// Find returns the artifact key names (its URL, its path, or a file
// below its path) and the file's name within the artifact ("" for the
// artifact itself).
func (r *Reader) Find(key string) (Entry, string, error) {
	if i, ok := r.byKey[key]; ok {
		return r.entries[i], "", nil
	}
	for p := key; ; {
		j := strings.LastIndexByte(p, '/')
		if j <= 0 {
			break
		}
		p = p[:j]
		if i, ok := r.byKey[p]; ok && r.entries[i].Path == p {
			return r.entries[i], key[j+1:], nil
		}
	}
	return Entry{}, "", fmt.Errorf("shard: %s: %q: %w", r.archive, key, errNotFound)
}

var errNotFound = errors.New("not in the shard")

// ErrNotFound is Find's error for a key no artifact has.
func ErrNotFound(err error) bool { return errors.Is(err, errNotFound) }

// Walk calls fn for each file of e's artifact, in archive order, with its
// name within the artifact (content.json, evidence/document.ethos.json);
// the member's gzip checksum is checked after its last file.
func (r *Reader) Walk(e Entry, fn func(name string, rd io.Reader) error) error {
	f, err := os.Open(r.archive)
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(bufio.NewReader(io.NewSectionReader(f, e.Offset, e.Length)))
	if err != nil {
		return fmt.Errorf("shard: %s at %d: %w", r.archive, e.Offset, err)
	}
	gz.Multistream(false)
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("shard: %s at %d: %w", r.archive, e.Offset, err)
		}
		name, err := cleanMember(h.Name, e.Path)
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if err := fn(strings.TrimPrefix(name, e.Path+"/"), tr); err != nil {
			return err
		}
	}
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return fmt.Errorf("shard: %s at %d: %w", r.archive, e.Offset, err)
	}
	return nil
}

// ReadFile returns one file of e's artifact.
func (r *Reader) ReadFile(e Entry, name string) ([]byte, error) {
	var b []byte
	found := false
	err := r.Walk(e, func(n string, rd io.Reader) error {
		if n != name {
			return nil
		}
		found = true
		var err error
		b, err = io.ReadAll(rd)
		return err
	})
	if err == nil && !found {
		err = fmt.Errorf("shard: %s#%s has no %s", r.archive, e.Path, name)
	}
	return b, err
}

// Extract writes e's artifact under dir as sieve distill --out dir does:
// dir/HOST/SLUG/….
func (r *Reader) Extract(e Entry, dir string) error { return r.ExtractOnly(e, dir, nil) }

// ExtractOnly is Extract of the files keep accepts (by their name within
// the artifact: evidence/document.ethos.json); nil keeps them all.
func (r *Reader) ExtractOnly(e Entry, dir string, keep func(name string) bool) error {
	return r.Walk(e, func(name string, rd io.Reader) error {
		if keep != nil && !keep(name) {
			return nil
		}
		p := filepath.Join(dir, filepath.FromSlash(e.Path), filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(f, rd)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// Materialize makes a path that commands reading artifact files can take
// for s: s itself unless it is ARCHIVE#KEY (Ref); then the artifact KEY
// names, extracted into a temporary directory, and the file KEY names in
// it (the artifact's directory when KEY names the artifact). done removes
// the directory.
func Materialize(s string) (p string, done func(), err error) {
	archive, key, ok := SplitRef(s)
	if !ok {
		return s, func() {}, nil
	}
	r, err := Open(archive)
	if err != nil {
		return "", nil, err
	}
	e, file, err := r.Find(key)
	if err != nil {
		return "", nil, err
	}
	tmp, err := os.MkdirTemp("", "sieve-shard-")
	if err != nil {
		return "", nil, fmt.Errorf("shard: %w", err)
	}
	done = func() { os.RemoveAll(tmp) }
	if err := r.Extract(e, tmp); err != nil {
		done()
		return "", nil, err
	}
	return filepath.Join(tmp, filepath.FromSlash(e.Path), filepath.FromSlash(file)), done, nil
}

// OpenAll opens the shards path names: a shard (NAME.tar.gz or NAME), or
// a directory, whose shards (the NAME.tar.gz files with their index
// beside them) are opened in name order. A directory without a shard is
// an error: a path given to read from must hold something to read.
func OpenAll(path string) ([]*Reader, error) {
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		r, err := Open(path)
		if err != nil {
			return nil, err
		}
		return []*Reader{r}, nil
	}
	archives, err := filepath.Glob(filepath.Join(path, "*"+ArchiveExt))
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	var rs []*Reader
	for _, a := range archives { // Glob sorts
		if _, idx := Names(a); !fileExists(idx) {
			continue // not a shard (a .tar.gz of something else)
		}
		r, err := Open(a)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("shard: %s holds no shard (NAME%s with NAME%s beside it)", path, ArchiveExt, IndexExt)
	}
	return rs, nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
