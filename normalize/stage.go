package normalize

import (
	"context"
	"fmt"
	"runtime"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// knownCaptureKeys are the capture record's own fields: they are replaced
// by the normalized record, never passed through.
var knownCaptureKeys = record.FieldsOf[capture.Record]()

// Transform turns one capture line into one normalized line. Top-level
// fields the capture record does not define (a user's "id") are carried
// over unchanged.
func Transform(ctx context.Context, line []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rec capture.Record
	if err := codec.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("decoding capture record: %w", err)
	}
	out, err := Normalize(&rec)
	if err != nil {
		return nil, err
	}
	b, err := codec.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("encoding normalized record: %w", err)
	}
	return record.Passthrough(b, line, knownCaptureKeys), nil
}

// Stage is the normalize filter: capture records in, normalized records
// out, everything else through untouched.
func Stage() jsonl.Stage {
	return jsonl.Stage{
		Name:        "normalize",
		Accept:      []string{record.KindCapture},
		Transform:   Transform,
		Concurrency: runtime.GOMAXPROCS(0),
	}
}

// Command is sieve-normalize.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "normalize",
		Usage:     "parse captured HTML into normalized node lists (JSONL in, JSONL out)",
		UsageText: "sieve-normalize < captures.jsonl > normalized.jsonl",
		Description: `Reads capture records on stdin and writes one normalized record per line:
the served HTML as a flat, ordered node list (path, tag, role, normalised
text, kept attributes, a static visibility verdict) plus document facts
(title, lang, meta, JSON-LD, scripts). Other record kinds pass through.
A line that cannot be normalized becomes an error record; the exit status
is 1 when any line failed.

Example:
   sieve-capture < urls.txt | sieve-normalize | sieve-graph`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliutil.Usagef("sieve-normalize takes no arguments (it reads JSONL on stdin), got %q", c.Args().First())
			}
			_, err := jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), Stage())
			return err
		},
	}
}
