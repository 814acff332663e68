package evcmd

import (
	"context"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// An evidence filter (sieve-verify, sieve-anchor) reads JSON lines on
// stdin against the grounding source --graph names and writes one record
// per line.

// FilterFlags are an evidence filter's flags: the grounding source.
func FilterFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "graph", Usage: "grounding source `FILE`: graph records, content.json or document.ethos.json"},
		&cli.StringFlag{Name: "grounding", Value: ground.FormatAuto, Usage: "source `FORMAT`"},
	}
}

// RunFilter is an evidence filter's action: it loads the grounding source
// and runs the stage built on it over stdin. usage is the usage error for a
// run without --graph or with arguments.
func RunFilter(c *cli.Context, usage string, stage func(ground.Source) jsonl.Stage) error {
	if c.NArg() > 0 || c.String("graph") == "" {
		return cliutil.Usagef("%s", usage)
	}
	if err := CheckFormat(c.String("grounding")); err != nil {
		return err
	}
	src, err := LoadFile(c.String("grounding"), c.String("graph"))
	if err != nil {
		return err
	}
	_, err = jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), stage(src))
	return err
}

// LineStage is an evidence filter's stage, serial (so ids follow line
// order): a line of kind own, or of no kind, becomes the record each makes
// of it, with the fields own's lines do not define (known says which they
// do) carried onto it; a record of any other kind (an earlier stage's error
// record, say) passes through byte for byte.
func LineStage(name, own string, known func(string) bool, each func(line []byte) (any, error)) jsonl.Stage {
	return jsonl.Stage{
		Name: name,
		Raw:  true,
		Transform: func(_ context.Context, line []byte) ([]byte, error) {
			if k := record.Kind(line); k != "" && k != own && gjson.ValidBytes(line) {
				return line, nil
			}
			rec, err := each(line)
			if err != nil {
				return nil, err
			}
			out, err := codec.Marshal(rec)
			if err != nil {
				return nil, err
			}
			return record.Passthrough(out, line, known), nil
		},
	}
}
