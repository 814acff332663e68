package render

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// graphKeys claims every top-level key of a graph record, so that only a
// user's own fields ("id", job metadata) ride along onto the artifact record.
var graphKeys = record.FieldsOf[graph.Record]()

// Transform turns one graph record line into one artifact record line,
// writing the artifact directory on the way.
func Transform(ctx context.Context, opts Options, line []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rec graph.Record
	if err := codec.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("decoding graph record: %w", err)
	}
	a, err := WriteContext(ctx, opts, &rec)
	if err != nil {
		return nil, err
	}
	out, err := codec.Marshal(a)
	if err != nil {
		return nil, err
	}
	return record.Passthrough(out, line, graphKeys), nil
}

// Stage is the render stage for jsonl.Run.
func Stage(opts Options) jsonl.Stage {
	return jsonl.Stage{
		Name:   "render",
		Accept: []string{record.KindGraph},
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			return Transform(ctx, opts, line)
		},
	}
}

// Command is sieve-render's command line.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "write one artifact directory per graph record",
		UsageText: "sieve-render [--out DIR] < graph.jsonl > artifacts.jsonl",
		Description: "Reads graph records (JSONL) on stdin and writes each as an artifact directory\n" +
			"DIR/<host>/<name>/ holding manifest.json, content.json, index.md and index.html.\n" +
			"Prints one artifact record per graph record (url, dir, outcome, content_hash);\n" +
			"other records pass through.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "artifacts", Usage: "write artifacts under `DIR`"},
			&cli.BoolFlag{Name: "no-evidence", Usage: "do not write the EEF bundle (evidence/)"},
			&cli.StringFlag{Name: "blobs", Usage: "the capture's blob store `DIR` (capture --blobs): a page's source bytes found there go into its bundle as evidence/source.html or source.pdf"},
			FormatFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliutil.Usagef("unexpected argument %q: sieve-render reads graph records on stdin", c.Args().First())
			}
			out := c.String("out")
			if out == "" {
				return cliutil.Usagef("--out must name a directory")
			}
			text, err := TextFormat(c.String("format"))
			if err != nil {
				return err
			}
			_, err = jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), Stage(Options{Out: out, NoEvidence: c.Bool("no-evidence"), Text: text, Blobs: c.String("blobs")}))
			return err
		},
	}
}
