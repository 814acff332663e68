// Package sieve is the umbrella command for people: `sieve distill` runs
// capture → normalize → graph → render in one process, and the stage
// commands are there as subcommands too (`sieve graph` is sieve-graph).
package sieve

import (
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/crop"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/mcpserver"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// Command is the sieve program.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "sieve",
		Usage: "read web pages the way an agent needs them read",
		Subcommands: []*cli.Command{
			Distill(),
			capture.Command(),
			normalize.Command(),
			graph.Command(),
			render.Command(),
			crop.VerifyCommand(), // sieve verify, with --crops DIR
			anchor.EvidenceCommand(),
			crop.Command(),
			mcpserver.Command(),
		},
	}
}

// Distill is `sieve distill`.
func Distill() *cli.Command {
	flags := append(capture.Flags(), &cli.StringFlag{
		Name: "out", Value: "artifacts", Usage: "directory the artifact directories are written under",
	}, &cli.BoolFlag{Name: "no-evidence", Usage: "do not write the EEF bundle (evidence/)"}, render.FormatFlag())
	return &cli.Command{
		Name:  "distill",
		Usage: "turn URLs or local HTML files into sieve artifacts in one process",
		UsageText: `sieve distill [--out DIR] [capture options] TARGET...
sieve distill [--out DIR] [capture options] < targets

Example:
   sieve distill --out artifacts https://example.com/ ./saved-page.html`,
		Description: `Runs capture, normalize, graph and render in one process and writes one
"artifact" line per target to stdout (url, dir, outcome, content_hash). The
artifacts are byte for byte what the four stage binaries give when piped.
Targets come from the arguments, or from stdin (one per line) when there are
none. Exit status: 0 when every target gave an artifact, 1 when some target
became an error record, 2 on bad usage, 130 when SIGINT or SIGTERM stopped
the run: the targets in flight are written as error records saying
"interrupted…" (no artifact), the rest are not started.

With --format text each artifact also gets index.txt, and stdout carries the
main content of each target as plain text (one block per line, targets one
after another) instead of the artifact lines; a target that failed prints its
error record on stderr.`,
		Flags:  flags,
		Action: distill,
	}
}

func distill(c *cli.Context) error {
	opts, err := capture.OptionsFrom(c)
	if err != nil {
		return err
	}
	if c.String("out") == "" {
		return cliutil.Usagef("--out cannot be empty")
	}
	cp := capture.New(opts)
	defer cp.Close()
	defer cliutil.OnForcedExit(c.Context, cp.Close)()
	if err := cp.Ready(); err != nil {
		return err
	}
	text, err := render.TextFormat(c.String("format"))
	if err != nil {
		return err
	}
	chain := jsonl.Chain("distill", cp.Stage(), normalize.Stage(), graph.Stage(), render.Stage(render.Options{Out: c.String("out"), NoEvidence: c.Bool("no-evidence"), Text: text}))
	var in io.Reader = cliutil.Stdin(c)
	if c.NArg() > 0 {
		in = strings.NewReader(strings.Join(c.Args().Slice(), "\n") + "\n")
	}
	var out io.Writer = cliutil.Stdout(c)
	if text {
		tw := &textWriter{out: out, errs: cliutil.Stderr(c)}
		defer tw.Flush()
		out = tw
	}
	_, err = jsonl.Run(c.Context, in, out, cliutil.Stderr(c), chain)
	return err
}
