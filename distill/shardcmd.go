package distill

import (
	"bufio"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/shard"
	"github.com/sieve-dev/sieve/render"
)

// LsCommand is `sieve ls`: the artifacts of shards, as artifact lines.
func LsCommand() *cli.Command {
	return &cli.Command{
		Name:      "ls",
		Usage:     "list the artifacts of shards written by sieve distill --shard",
		UsageText: "sieve ls SHARD.tar.gz...",
		Description: `Prints one artifact line per artifact of each shard, from its index
(SHARD.index.jsonl), in archive order: the lines sieve distill --shard
printed, dir ARCHIVE#HOST/SLUG (what sieve cat, sieve verify and sieve diff
take). A URL packed twice is listed once, with its later artifact.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cliutil.Usagef("sieve ls needs a shard: sieve ls SHARD.tar.gz...")
			}
			w := bufio.NewWriter(cliutil.Stdout(c))
			for _, name := range c.Args().Slice() {
				if err := list(w, name); err != nil {
					return err
				}
			}
			return w.Flush()
		},
	}
}

func list(w io.Writer, name string) error {
	r, err := shard.Open(name)
	if err != nil {
		return err
	}
	for i, e := range r.Entries() {
		if !r.Latest(i) {
			continue
		}
		b, err := codec.Marshal(render.Artifact{Record: record.KindArtifact, SchemaVersion: record.SchemaVersion,
			URL: e.URL, Dir: shard.Ref(r.Archive(), e.Path), Outcome: e.Outcome, ContentHash: e.ContentHash, Evidence: e.Evidence})
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// CatCommand is `sieve cat`: one file of an artifact in a shard.
func CatCommand() *cli.Command {
	return &cli.Command{
		Name:  "cat",
		Usage: "print a file of an artifact in a shard written by sieve distill --shard",
		UsageText: `sieve cat SHARD.tar.gz#KEY [FILE]
sieve cat SHARD.tar.gz KEY [FILE]`,
		Description: `KEY is the artifact's URL or its path in the archive (HOST/SLUG, as
sieve ls shows it), or a file below that path (HOST/SLUG/content.json).
FILE is the artifact's file to print: index.md (the default), content.json,
manifest.json, index.html, evidence/document.ethos.json, … Only that
artifact's gzip member is read (the index gives its offset).`,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			archive, key, ok := "", "", false
			if len(args) > 0 {
				archive, key, ok = shard.SplitRef(args[0])
			}
			if ok {
				args = args[1:]
			} else if len(args) >= 2 {
				archive, key, args = args[0], args[1], args[2:]
			}
			if archive == "" || len(args) > 1 {
				return cliutil.Usagef("sieve cat SHARD.tar.gz#KEY [FILE] or sieve cat SHARD.tar.gz KEY [FILE]")
			}
			r, err := shard.Open(archive)
			if err != nil {
				return err
			}
			e, file, err := r.Find(key)
			if err != nil {
				return err
			}
			switch {
			case file != "" && len(args) == 1:
				return cliutil.Usagef("%s names a file already; give no FILE", key)
			case len(args) == 1:
				file = strings.TrimPrefix(args[0], "./")
			case file == "":
				file = render.FileMarkdown
			}
			b, err := r.ReadFile(e, file)
			if err != nil {
				return err
			}
			_, err = cliutil.Stdout(c).Write(b)
			return err
		},
	}
}
