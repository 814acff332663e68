package verify

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/shard"
)

// Extension adds to sieve verify what a later layer does with the report
// (crop's --crops): its flags, and After, called once the report is
// written, with the document as verify read and loaded it and the report
// itself (the document and the citations are read and verified once), and
// whether the run fails (ungrounded with --fail-on-ungrounded).
type Extension struct {
	Flags     []cli.Flag
	UsageText string
	After     func(c *cli.Context, doc evcmd.Doc, r *Report, failing bool) error
}

// Command is `sieve verify DOC --citations FILE`, with the extensions'
// flags and steps.
func Command(ext ...Extension) *cli.Command {
	cmd := command()
	for _, e := range ext {
		cmd.Flags = append(cmd.Flags, e.Flags...)
		cmd.UsageText += e.UsageText
	}
	cmd.Action = func(c *cli.Context) error { return runVerify(c, ext) }
	return cmd
}

func command() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check citation claims against a document (EEF ethos verify)",
		UsageText: "sieve verify DOC --citations citations.json [--grounding FORMAT] [--fail-on-ungrounded] [--out verification_report.json]",
		Description: "DOC is a document.ethos.json, a sieve graph record file or content.json, or (with\n" +
			"--grounding opendataloader-json) opendataloader-pdf JSON. Writes the canonical\n" +
			"verification report to --out (or stdout) and the derived proof summary to stderr.\n" +
			"Exit: 0 report written; 2 usage (plain text); 3–12 coded failures as canonical JSON\n" +
			"on stderr (7: --fail-on-ungrounded and not all evidence grounded).\n\n" + CitationsExample,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "citations", Usage: "citation claims `FILE`"},
			&cli.StringFlag{Name: "grounding", Value: ground.FormatAuto, Usage: "source `FORMAT`: auto, ethos-document, sieve-graph, opendataloader-json"},
			&cli.BoolFlag{Name: "fail-on-ungrounded", Usage: "exit 7 unless all evidence is grounded"},
			&cli.StringFlag{Name: "out", Usage: "write the report to `FILE` instead of stdout"},
		},
	}
}

func runVerify(c *cli.Context, ext []Extension) error {
	pos, err := interspersed(c)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cliutil.Usagef("sieve verify takes one DOC argument, got %d", len(pos))
	}
	if c.String("citations") == "" {
		return cliutil.Usagef("--citations is required")
	}
	inShard, done, err := shard.Materialize(pos[0]) // SHARD.tar.gz#KEY (sieve distill --shard)
	if err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "%v", err)
	}
	defer done()
	pos[0] = inShard
	if err := evcmd.CheckFormat(c.String("grounding")); err != nil {
		return err
	}
	d, err := evcmd.ReadDoc(c.String("grounding"), pos[0])
	if err != nil {
		return err
	}
	cb, err := os.ReadFile(c.String("citations"))
	if err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read citations: %v", err)
	}
	cit, err := ParseCitations(cb)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInvalidCitations, "invalid_citations", "%v", err)
	}
	r := Verify(d.Source, cit)
	if err := evcmd.WriteOut(c, r.Canonical); err != nil {
		return err
	}
	verr := verdict(c, &r)
	for _, e := range ext {
		if err := e.After(c, d, &r, verr != nil); err != nil {
			return err
		}
	}
	return verr
}

// verdict is the run's end: the coded failure when --fail-on-ungrounded
// and not all evidence is grounded, else the proof summary on stderr.
func verdict(c *cli.Context, r *Report) error {
	proof, n := r.ProofSummary()
	// On a coded failure stderr carries the canonical JSON error only.
	if c.Bool("fail-on-ungrounded") && !r.AllEvidenceGrounded {
		return evcmd.Coded(cliutil.ExitUngrounded, "evidence_ungrounded", "not all evidence is grounded (%s: %d of %d checks reusable)", proof, n, len(r.Checks))
	}
	fmt.Fprintf(cliutil.Stderr(c), "proof: %s (%d of %d checks reusable)\n", proof, n, len(r.Checks))
	if lim := r.ProofLimitations(); len(lim) > 0 {
		fmt.Fprintf(cliutil.Stderr(c), "limitations: %s\n", strings.Join(lim, "; "))
	}
	return nil
}

// CheckRecord is one line sieve-verify writes.
type CheckRecord struct {
	Record        string `json:"record"` // "check"
	SchemaVersion string `json:"schema_version"`
	Check
}

// FilterCommand is sieve-verify: claims JSONL on stdin, one check per line.
func FilterCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify-filter",
		Usage:     "check citation claims (JSONL on stdin) against a grounding source, one check per line",
		UsageText: "sieve-verify --graph FILE [--grounding FORMAT] < claims.jsonl > checks.jsonl",
		Flags:     evcmd.FilterFlags(),
		Action: func(c *cli.Context) error {
			return evcmd.RunFilter(c, "sieve-verify reads claims on stdin and needs --graph FILE",
				func(src ground.Source) jsonl.Stage { return Stage(New(src)) })
		},
	}
}

// ParseClaimLine reads one line of sieve-verify's input under the rule of
// `sieve verify --citations`: canonicalizable JSON and, for the fields a
// claim defines, ethos-citations.schema.json's claim. Other top-level
// fields (a user's "id", "record") are the record contract's: carried, not
// checked.
func ParseClaimLine(line []byte) (Claim, error) {
	var cl Claim
	if _, err := c14n.Canonicalize(line); err != nil {
		return cl, err
	}
	if !gjson.ValidBytes(line) || !gjson.ParseBytes(line).IsObject() {
		return cl, errors.New("not a JSON object")
	}
	own := []byte{'['}
	gjson.ParseBytes(line).ForEach(func(k, v gjson.Result) bool {
		if claimKeys(k.Str) {
			if len(own) > 1 {
				own = append(own, ',')
			} else {
				own = append(own, '{')
			}
			own = append(own, k.Raw...)
			own = append(own, ':')
			own = append(own, v.Raw...)
		}
		return true
	})
	if len(own) == 1 {
		own = append(own, '{')
	}
	own = append(own, '}', ']')
	c, err := ParseCitations(own)
	if err != nil {
		return cl, err
	}
	return c.Claims[0], nil
}

// claimKeys are a claim line's own fields; any other top-level field (a
// user's "id") is carried onto its check record.
var claimKeys = record.FieldsOf[Claim]()

// Stage is the verify filter: serial, so check ids follow line order. A
// claim line is a JSON object without "record" (or with "record":"claim");
// a record of any other kind (an earlier stage's error record, say) passes
// through byte for byte. Fields a claim does not define are carried onto
// its check record, as every stage carries them.
func Stage(v *Verifier) jsonl.Stage {
	n := 0
	return evcmd.LineStage("verify", "claim", claimKeys, func(line []byte) (any, error) {
		n++
		cl, err := ParseClaimLine(line)
		if err != nil {
			return nil, fmt.Errorf("not a claim: %w", err)
		}
		return CheckRecord{Record: record.KindCheck, SchemaVersion: record.SchemaVersion, Check: v.Check(n, cl)}, nil
	})
}
