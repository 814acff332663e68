package normalize

import (
	"context"
	"fmt"
	"runtime"

	"github.com/urfave/cli/v2"

	capture "github.com/sieve-dev/sieve/capture/caprec"
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
	return transform(ctx, line, Limits{})
}

func transform(ctx context.Context, line []byte, lim Limits) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var rec capture.Record
	if err := codec.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("decoding capture record: %w", err)
	}
	out, err := NormalizeWith(&rec, lim)
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
func Stage() jsonl.Stage { return StageWith(Limits{}) }

// StageWith is Stage under the budgets of lim.
func StageWith(lim Limits) jsonl.Stage {
	return jsonl.Stage{
		Name:   "normalize",
		Accept: []string{record.KindCapture},
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			return transform(ctx, line, lim)
		},
		Concurrency: runtime.GOMAXPROCS(0),
	}
}

// LimitFlags are the flags of normalize's budgets (sieve-normalize,
// sieve distill).
func LimitFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "max-nodes", Value: DefaultMaxNodes, Usage: "node budget of a page: the document after this many nodes (elements and text) is not read, and the page reads as partial with a gap"},
	}
}

// LimitsFrom reads LimitFlags.
func LimitsFrom(c *cli.Context) (Limits, error) {
	n := c.Int("max-nodes")
	if n < 1 {
		return Limits{}, cliutil.Usagef("--max-nodes must be at least 1, not %d", n)
	}
	return Limits{Nodes: n}, nil
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
			lim, err := LimitsFrom(c)
			if err != nil {
				return err
			}
			_, err = jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), StageWith(lim))
			return err
		},
		Flags: LimitFlags(),
	}
}
