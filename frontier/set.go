package frontier

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
)

// Set is an append-only set of URLs with a depth each, kept in a file of
// "DEPTH<TAB>URL" lines so that it survives the process: the seen-set of
// a crawl (every URL ever admitted) and its done-log (every URL whose
// record was written) are Sets. Each Add is one write(2) of one line with
// O_APPEND, so a killed run loses at most the line being written; a torn
// last line is dropped when the file is opened again.
type Set struct {
	mu    sync.Mutex
	f     *os.File
	depth map[string]int
	order []string
}

// OpenSet loads path (creating it) and appends to it from then on. An
// empty path keeps the set in memory only.
func OpenSet(path string) (*Set, error) {
	s := &Set{depth: map[string]int{}}
	if path == "" {
		return s, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	good, err := s.load(f)
	if err == nil {
		// Drop a torn last line, then append after the good ones.
		err = f.Truncate(good)
	}
	if err == nil {
		_, err = f.Seek(good, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.f = f
	return s, nil
}

// load reads the lines of r and returns the offset after the last whole one.
func (s *Set) load(r io.Reader) (int64, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var good int64
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return good, nil // a line without its newline was torn
		}
		if err != nil {
			return good, err
		}
		good += int64(len(line))
		d, u, ok := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte{'\t'})
		if !ok {
			continue
		}
		n, err := strconv.Atoi(string(d))
		if err != nil {
			continue
		}
		s.put(string(u), n)
	}
}

func (s *Set) put(u string, depth int) bool {
	if _, ok := s.depth[u]; ok {
		return false
	}
	s.depth[u] = depth
	s.order = append(s.order, u)
	return true
}

// Add adds u at depth and reports whether it was new; a new URL is
// written to the file before Add returns.
func (s *Set) Add(u string, depth int) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.put(u, depth) {
		return false, nil
	}
	if s.f == nil {
		return true, nil
	}
	_, err := s.f.Write([]byte(strconv.Itoa(depth) + "\t" + u + "\n"))
	return true, err
}

// Has reports whether u is in the set.
func (s *Set) Has(u string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.depth[u]
	return ok
}

// Len is the number of URLs in the set.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.order)
}

// Each calls fn for every URL in the order it was added.
func (s *Set) Each(fn func(u string, depth int)) {
	s.mu.Lock()
	order := append([]string(nil), s.order...)
	s.mu.Unlock()
	for _, u := range order {
		fn(u, s.depth[u])
	}
}

// Close closes the file.
func (s *Set) Close() error {
	if s.f == nil {
		return nil
	}
	return s.f.Close()
}
