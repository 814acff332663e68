package distill

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/shard"
	"github.com/sieve-dev/sieve/render"
)

// ShardFlag is sieve distill's --shard: the artifacts of the run go into
// one archive and its index (internal/shard) instead of a directory each.
func ShardFlag() cli.Flag {
	return &cli.StringFlag{Name: "shard", Usage: "batch output: write the run's artifacts into `NAME`.tar.gz (one gzip member per artifact) and its index NAME.index.jsonl (URL → offset) instead of directories under --out; read them back with sieve ls, sieve cat, or ARCHIVE#URL for sieve verify and sieve diff"}
}

// shardOut packs each artifact, rendered into a staging directory beside
// the archive, into the shard as its artifact line reaches stdout: the
// members are in input order, so a run's archive is the same bytes each
// time.
type shardOut struct {
	w       *shard.Writer
	staging string
	packed  map[string]shard.Entry // by URL: a URL twice in a run has the later line's artifact
	bytes   int64                  // the artifacts' bytes before packing
}

// openShard starts the shard --shard names, if it does, and points *out at
// its staging directory.
func openShard(c *cli.Context, format string, out *string) (*shardOut, error) {
	name := c.String("shard")
	switch {
	case name == "":
		return nil, nil
	case c.IsSet("out"):
		return nil, cliutil.Usagef("--shard and --out: give one (--shard writes an archive, --out directories)")
	case format != FormatArtifact:
		return nil, cliutil.Usagef("--shard goes with --format artifact")
	}
	w, err := shard.Create(name)
	if err != nil {
		return nil, err
	}
	staging, err := os.MkdirTemp(filepath.Dir(w.Archive()), ".staging-")
	if err != nil {
		w.Abort()
		return nil, fmt.Errorf("shard: %w", err)
	}
	*out = staging
	return &shardOut{w: w, staging: staging, packed: map[string]shard.Entry{}}, nil
}

// pack moves the artifact of an artifact line into the archive and
// returns the line with dir ARCHIVE#PATH.
func (s *shardOut) pack(line string) (string, error) {
	var a render.Artifact
	if err := codec.Unmarshal([]byte(line), &a); err != nil {
		return "", fmt.Errorf("shard: %w", err)
	}
	rel, err := filepath.Rel(s.staging, a.Dir)
	if err != nil {
		return "", fmt.Errorf("shard: %w", err)
	}
	e := shard.Entry{URL: a.URL, Path: filepath.ToSlash(rel), Outcome: a.Outcome, ContentHash: a.ContentHash, Evidence: a.Evidence}
	if _, err := os.Stat(a.Dir); os.IsNotExist(err) {
		// An earlier line of the same URL packed the later line's
		// artifact (jsonl.Latest): it is in the archive already.
		prev, ok := s.packed[a.URL]
		if !ok {
			return "", fmt.Errorf("shard: %s: the artifact of %s is missing", a.Dir, a.URL)
		}
		e = prev
	} else {
		if e, err = s.w.Add(e, a.Dir); err != nil {
			return "", err
		}
		s.bytes += e.Size
		s.packed[a.URL] = e
		if err := os.RemoveAll(a.Dir); err != nil {
			return "", fmt.Errorf("shard: %w", err)
		}
	}
	a.Dir = shard.Ref(s.w.Archive(), e.Path)
	b, err := codec.Marshal(a)
	if err != nil {
		return "", err
	}
	return string(b) + "\n", nil
}

// close finishes the shard when the run went through (some targets may
// have failed: their lines say so) and removes it when the run broke off,
// so that a shard in place is a whole one; the staging directory goes
// either way. The shard's size goes to stderr unless quiet.
func (s *shardOut) close(runErr error, stderr io.Writer, quiet bool) error {
	if s == nil {
		return runErr
	}
	defer os.RemoveAll(s.staging)
	if runErr != nil && !errors.Is(runErr, jsonl.ErrFailedLines) {
		s.w.Abort()
		return runErr
	}
	if err := s.w.Close(); err != nil {
		return err
	}
	if !quiet {
		fi, err := os.Stat(s.w.Archive())
		if err == nil && s.w.Len() > 0 {
			n := int64(s.w.Len())
			fmt.Fprintf(stderr, "sieve distill: %s: %d artifacts, %d bytes (%d per artifact; %d before packing)\n",
				s.w.Archive(), n, fi.Size(), fi.Size()/n, s.bytes/n)
		}
	}
	return runErr
}
