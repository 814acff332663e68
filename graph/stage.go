package graph

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/normalize"
)

// inputKeys are the normalized record's own fields; anything else on the
// input line is a user's and passes through.
var inputKeys = record.FieldsOf[normalize.Record]()

// Transform turns one normalized record line into one graph record line.
func Transform(ctx context.Context, line []byte) ([]byte, error) {
	return transform(ctx, line, Limits{})
}

func transform(_ context.Context, line []byte, lim Limits) ([]byte, error) {
	var rec normalize.Record
	if err := codec.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("decoding normalized record: %w", err)
	}
	out, err := codec.Marshal(BuildWith(&rec, lim))
	if err != nil {
		return nil, fmt.Errorf("encoding graph record: %w", err)
	}
	return record.Passthrough(out, line, inputKeys), nil
}

// Stage is the graph filter.
func Stage() jsonl.Stage { return StageWith(Limits{}) }

// StageWith is Stage under the budgets of lim.
func StageWith(lim Limits) jsonl.Stage {
	return jsonl.Stage{Name: "graph", Accept: []string{record.KindNormalized},
		Transform: func(ctx context.Context, line []byte) ([]byte, error) { return transform(ctx, line, lim) }}
}

// Command is sieve-graph.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "build the content graph of normalized pages (JSONL in, JSONL out)",
		UsageText: "sieve-capture < urls.txt | sieve-normalize | sieve-graph | sieve-render --out artifacts",
		Description: "Reads \"normalized\" records on stdin and writes one \"graph\" record per line: " +
			"content.json plus a \"record\" key. Other record kinds pass through unchanged; a malformed " +
			"line becomes an error record and the command exits 1 at the end.",
		Flags: LimitFlags(),
		Action: func(c *cli.Context) error {
			lim, err := LimitsFrom(c)
			if err != nil {
				return err
			}
			_, err = jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), StageWith(lim))
			return err
		},
	}
}
