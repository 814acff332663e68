package mcp

import (
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/internal/shard"
)

// shardArtifact is an artifact a shard archive holds (sieve distill
// --shard): entry i of r's index.
type shardArtifact struct {
	r *shard.Reader
	i int
}

func (a shardArtifact) entry() shard.Entry { return a.r.Entries()[a.i] }

// addShards serves the artifacts of the shards each path names (an
// archive, or a directory of them: shard.OpenAll) under the keys distill
// gives the same reads: Key(URL, content_hash), and counts them in
// s.served. Called before the store is used:
// s.shards is read without the lock afterwards.
//
// The archives are read, never written: distill stores a new read as a
// directory, which then comes before a shard's artifact of the same key
// (the same URL and content). A URL in several shards (or twice in one)
// has its reads as versions in the order the paths and the archives give
// them, before the store's own reads of it, so diff and distill's changes
// compare a live read with the archived one.
func (s *Store) addShards(paths []string) error {
	for _, p := range paths {
		rs, err := shard.OpenAll(p)
		if err != nil {
			return fmt.Errorf("mcp: --shard %s: %w", p, err)
		}
		for _, r := range rs {
			s.served.archives++
			for i, e := range r.Entries() {
				key := Key(e.URL, e.ContentHash)
				if _, ok := s.shards[key]; !ok {
					s.served.artifacts++
				}
				s.shards[key] = shardArtifact{r, i}
				s.shardReads[key[:12]] = appendVersion(s.shardReads[key[:12]], key)
			}
		}
	}
	return nil
}

// appendVersion makes key the last of vs.
func appendVersion(vs []string, key string) []string {
	out := vs[:0]
	for _, k := range vs {
		if k != key {
			out = append(out, k)
		}
	}
	return append(out, key)
}

// shardEvidence are the files of an evidence bundle the evidence tools
// read: the document, the security report evcmd loads beside it, and a
// PDF's source bytes for get_crop.
var shardEvidence = map[string]bool{
	path.Join(eef.Dir, eef.FileDocument):       true,
	path.Join(eef.Dir, eef.FileSecurityReport): true,
	path.Join(eef.Dir, eef.FileSourcePDF):      true,
}

// extractEvidence writes the evidence files of a's artifact that the
// evidence tools read into a new directory of the store's tmp/ and
// returns the bundle directory in it; done removes it. The tools then
// read a shard's artifact through the very code that reads a directory's.
func (s *Store) extractEvidence(a shardArtifact) (dir string, done func(), err error) {
	tmp, err := s.tempDir()
	if err != nil {
		return "", nil, internalf("%v", err)
	}
	done = func() { os.RemoveAll(tmp) }
	e := a.entry()
	if err := a.r.ExtractOnly(e, tmp, func(name string) bool { return shardEvidence[name] }); err != nil {
		done()
		return "", nil, internalf("reading the evidence of %s: %v", shard.Ref(a.r.Archive(), e.Path), err)
	}
	return filepath.Join(tmp, filepath.FromSlash(e.Path), eef.Dir), done, nil
}
