// Package sieve is the umbrella command for people: `sieve distill` runs
// capture → normalize → graph → render in one process, and the stage
// commands are there as subcommands too (`sieve graph` is sieve-graph).
package sieve

import (
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/crop"
	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/graph"
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
			frontier.CrawlCommand(),
			capture.Command(),
			normalize.Command(),
			graph.Command(),
			render.Command(),
			crop.VerifyCommand(), // sieve verify, with --crops DIR
			anchor.EvidenceCommand(),
			crop.Command(),
			completionCommand(),
			manCommand(),
			mcpserver.Command(),
		},
	}
}
