// Package cli is the umbrella command for people: `sieve distill` runs
// capture → normalize → graph → render in one process, and the stage
// commands are there as subcommands too (`sieve graph` is sieve-graph).
package cli

import (
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/crop"
	"github.com/sieve-dev/sieve/diff"
	"github.com/sieve-dev/sieve/distill"
	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/mcp"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
	"github.com/sieve-dev/sieve/verify"
)

// Command is the sieve program.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "sieve",
		Usage: "read web pages the way an agent needs them read",
		Subcommands: []*cli.Command{
			distill.Command(),
			frontier.CrawlCommand(),
			capture.Command(),
			normalize.Command(),
			graph.Command(),
			render.Command(),
			verify.Command(crop.VerifyExtension()), // sieve verify, with --crops DIR
			anchor.EvidenceCommand(),
			crop.Command(),
			diff.Command(),
			distill.LsCommand(),
			distill.CatCommand(),
			completionCommand(),
			manCommand(),
			prepareCommand(),
			mcp.Command(),
		},
	}
}
