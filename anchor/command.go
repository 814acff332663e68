package anchor

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// EvidenceCommand is `sieve evidence`, the home of `sieve evidence anchor`.
func EvidenceCommand() *cli.Command {
	return &cli.Command{
		Name:        "evidence",
		Usage:       "EEF evidence commands (ethos evidence …)",
		Subcommands: []*cli.Command{Command()},
	}
}

// Command is `sieve evidence anchor DOC --evidence-refs FILE`.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "anchor",
		Usage:     "bind evidence refs to a document (EEF ethos evidence anchor)",
		UsageText: "sieve evidence anchor DOC --evidence-refs evidence_anchor_request.json [--grounding FORMAT] [--fail-on-unbound] [--out evidence_anchor_report.json]",
		Description: "DOC is a document.ethos.json, a sieve graph record file or content.json, or (with\n" +
			"--grounding opendataloader-json) opendataloader-pdf JSON. Writes the canonical\n" +
			"evidence anchor report to --out (or stdout) and a one-line summary to stderr.\n" +
			"Exit: 0 report written; 2 usage (plain text); 3–12 coded failures as canonical JSON\n" +
			"on stderr (8: the request is malformed; 9: --fail-on-unbound and some ref is not bound).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "evidence-refs", Usage: "evidence anchor request `FILE`"},
			&cli.StringFlag{Name: "grounding", Value: ground.FormatAuto, Usage: "source `FORMAT`: auto, ethos-document, sieve-graph, opendataloader-json"},
			&cli.BoolFlag{Name: "fail-on-unbound", Usage: "exit 9 unless every evidence ref is bound"},
			&cli.StringFlag{Name: "out", Usage: "write the report to `FILE` instead of stdout"},
		},
		Action: runAnchor,
	}
}

func runAnchor(c *cli.Context) error {
	pos, err := evcmd.Interspersed(c, "fail-on-unbound")
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cliutil.Usagef("sieve evidence anchor takes one DOC argument, got %d", len(pos))
	}
	if c.String("evidence-refs") == "" {
		return cliutil.Usagef("--evidence-refs is required")
	}
	if err := evcmd.CheckFormat(c.String("grounding")); err != nil {
		return err
	}
	src, err := evcmd.LoadFile(c.String("grounding"), pos[0])
	if err != nil {
		return err
	}
	b, err := os.ReadFile(c.String("evidence-refs"))
	if err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read evidence refs: %v", err)
	}
	req, err := ParseRequest(b)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInvalidEvidenceRefs, "invalid_evidence_refs", "%v", err)
	}
	r := Run(src, req)
	if err := evcmd.WriteOut(c, r.Canonical); err != nil {
		return err
	}
	// On a coded failure stderr carries the canonical JSON error only.
	if c.Bool("fail-on-unbound") && !r.AllBound {
		return evcmd.Coded(cliutil.ExitUnbound, "evidence_unbound", "%d of %d evidence refs are not bound", len(r.Anchors)-r.Bound(), len(r.Anchors))
	}
	fmt.Fprintf(cliutil.Stderr(c), "anchors: %d of %d bound\n", r.Bound(), len(r.Anchors))
	return nil
}

// AnchorRecord is one line sieve-anchor writes.
type AnchorRecord struct {
	Record        string `json:"record"` // "anchor"
	SchemaVersion string `json:"schema_version"`
	Anchor
}

// FilterCommand is sieve-anchor: evidence refs JSONL on stdin, one anchor
// per line.
func FilterCommand() *cli.Command {
	return &cli.Command{
		Name:      "anchor-filter",
		Usage:     "bind evidence refs (JSONL on stdin) to a grounding source, one anchor per line",
		UsageText: "sieve-anchor --graph FILE [--grounding FORMAT] < evidence_refs.jsonl > anchors.jsonl",
		Description: "Each input line is one evidence ref (the objects of an evidence anchor request's\n" +
			"evidence_refs). A malformed line becomes an error record and the exit status is 1.",
		Flags: evcmd.FilterFlags(),
		Action: func(c *cli.Context) error {
			return evcmd.RunFilter(c, "sieve-anchor reads evidence refs on stdin and needs --graph FILE",
				func(src ground.Source) jsonl.Stage { return Stage(New(src)) })
		},
	}
}

// refKeys are an evidence ref line's own fields; any other top-level field
// (a user's "id") is carried onto its anchor record.
var refKeys = record.FieldsOf[Ref]()

// Stage is the anchor filter: one anchor record per evidence ref line (a
// JSON object without "record", or with "record":"evidence_ref"); a record
// of any other kind passes through byte for byte. Fields a ref does not
// define are carried onto its anchor record.
func Stage(a *Anchorer) jsonl.Stage {
	return evcmd.LineStage("anchor", "evidence_ref", refKeys, func(line []byte) (any, error) {
		ref, err := ParseRefLine(line)
		if err != nil {
			return nil, fmt.Errorf("not an evidence ref: %w", err)
		}
		return AnchorRecord{Record: record.KindAnchor, SchemaVersion: record.SchemaVersion, Anchor: a.Anchor(ref, "", "")}, nil
	})
}
