// Package shard is the container of sieve's sharded output (sieve distill
// --shard): a shard's artifacts in one tar archive, compressed as one gzip
// member per artifact, with an index of URL → member offset beside it.
//
// The archive is an ordinary .tar.gz: the gzip members concatenate into
// one gzip stream (RFC 1952 §2.2) and the tar entries of the members into
// one tar stream ending with the end-of-archive blocks, so `tar xzf
// NAME.tar.gz` gives the directory tree `sieve distill --out` writes
// (HOST/SLUG/manifest.json, …). The index lets a reader decompress one
// artifact without reading the others, as Common Crawl's CDX index does
// for its gzip-per-record WARC files.
//
// The index, NAME.index.jsonl, holds one Entry per artifact in archive
// order. A URL packed twice (the same URL twice in one run) has the later
// entry; Reader.Find returns it.
//
// Package shard imports no stage: render-side writing (distill) and
// reading (verify, diff, sieve ls / sieve cat) both sit above it.
package shard

import (
	"fmt"
	"path"
	"strings"
)

// File name suffixes of a shard NAME.
const (
	ArchiveExt = ".tar.gz"
	IndexExt   = ".index.jsonl"
)

// Entry is one line of the index: an artifact in the archive.
type Entry struct {
	URL  string `json:"url"`
	Path string `json:"path"` // the artifact's directory in the archive (render.Dir of the URL)
	// Offset and Length are the artifact's gzip member in the archive, in
	// bytes; Size is its files' bytes before compression.
	Offset      int64  `json:"offset"`
	Length      int64  `json:"length"`
	Size        int64  `json:"size"`
	Files       int    `json:"files"`
	Outcome     string `json:"outcome"`
	ContentHash string `json:"content_hash"`
	Evidence    string `json:"evidence,omitempty"`
}

// Names returns the archive and index file names of the shard named by
// name, which may end in .tar.gz or not.
func Names(name string) (archive, index string) {
	base := strings.TrimSuffix(name, ArchiveExt)
	return base + ArchiveExt, base + IndexExt
}

// Ref is how an artifact in a shard is named on a command line:
// ARCHIVE#KEY, KEY the artifact's URL, its path in the archive, or a file
// below that path (HOST/SLUG/content.json).
func Ref(archive, key string) string { return archive + "#" + key }

// SplitRef splits ARCHIVE#KEY; ok is false when s names no shard archive.
func SplitRef(s string) (archive, key string, ok bool) {
	i := strings.Index(s, ArchiveExt+"#")
	if i < 0 {
		return "", "", false
	}
	return s[:i+len(ArchiveExt)], s[i+len(ArchiveExt)+1:], true
}

// cleanMember checks a tar member's name: relative, no "..", below dir.
func cleanMember(name, dir string) (string, error) {
	c := path.Clean(name)
	if c != name || path.IsAbs(c) || c == ".." || strings.HasPrefix(c, "../") || !strings.HasPrefix(c, dir+"/") {
		return "", fmt.Errorf("shard: member %q is not a file of %s", name, dir)
	}
	return c, nil
}
