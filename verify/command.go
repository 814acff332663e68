package verify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// Coded failures of `sieve verify` and `sieve evidence anchor` (SPEC.md
// §6.4): exit code and stable code. docs/DECISIONS.md has the table.
const (
	ExitInternal            = 3
	ExitIO                  = 4
	ExitInvalidSource       = 5
	ExitInvalidCitations    = 6
	ExitUngrounded          = 7
	ExitInvalidEvidenceRefs = 8
	ExitUnbound             = 9
)

// CodedError is a coded failure: its Error() is the canonical JSON line
// {"error":{"code":…,"detail":…,"message":…}}. Code and Message are stable
// (SPEC.md §6.4: one message per code); Detail says what failed this time
// (file names, offsets, validator text) and is for people, not parsers.
type CodedError struct {
	Exit    int
	Code    string
	Message string
	Detail  string
}

func (e *CodedError) ExitCode() int { return e.Exit }

func (e *CodedError) Error() string {
	m := map[string]string{"code": e.Code, "message": e.Message}
	if e.Detail != "" {
		m["detail"] = e.Detail
	}
	b, err := c14n.Marshal(map[string]any{"error": m})
	if err != nil {
		return `{"error":{"code":"internal_error","message":"internal failure"}}`
	}
	return string(b)
}

// CodedMessages is the one stable message of each code (docs/DECISIONS.md,
// "Evidence layer", has the table).
var CodedMessages = map[string]string{
	"internal_error":        "internal failure",
	"io_error":              "a file could not be read or written",
	"invalid_source":        "the source document is not valid",
	"invalid_citations":     "the citations are not valid",
	"invalid_report":        "the verification report is not valid",
	"evidence_ungrounded":   "not all evidence is grounded",
	"invalid_evidence_refs": "the evidence refs are not valid",
	"evidence_unbound":      "not all evidence refs are bound",
}

// Coded builds a CodedError: the code's stable message, the formatted text
// as its detail (TestCodedMessages keeps every code used with a message).
func Coded(exit int, code, format string, a ...any) error {
	msg, ok := CodedMessages[code]
	if !ok {
		msg = code
	}
	return &CodedError{Exit: exit, Code: code, Message: msg, Detail: fmt.Sprintf(format, a...)}
}

// Command is `sieve verify DOC --citations FILE`.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check citation claims against a document (EEF ethos verify)",
		UsageText: "sieve verify DOC --citations citations.json [--grounding FORMAT] [--fail-on-ungrounded] [--out verification_report.json]",
		Description: "DOC is a document.ethos.json, a sieve graph record file or content.json, or (with\n" +
			"--grounding opendataloader-json) opendataloader-pdf JSON. Writes the canonical\n" +
			"verification report to --out (or stdout) and the derived proof summary to stderr.\n" +
			"Exit: 0 report written; 2 usage (plain text); 3–12 coded failures as canonical JSON\n" +
			"on stderr (7: --fail-on-ungrounded and not all evidence grounded).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "citations", Usage: "citation claims `FILE`"},
			&cli.StringFlag{Name: "grounding", Value: FormatAuto, Usage: "source `FORMAT`: auto, ethos-document, sieve-graph, opendataloader-json"},
			&cli.BoolFlag{Name: "fail-on-ungrounded", Usage: "exit 7 unless all evidence is grounded"},
			&cli.StringFlag{Name: "out", Usage: "write the report to `FILE` instead of stdout"},
		},
		Action: runVerify,
	}
}

func runVerify(c *cli.Context) error {
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
	if err := CheckFormat(c.String("grounding")); err != nil {
		return err
	}
	src, err := LoadFile(c.String("grounding"), pos[0])
	if err != nil {
		return err
	}
	cb, err := os.ReadFile(c.String("citations"))
	if err != nil {
		return Coded(ExitIO, "io_error", "cannot read citations: %v", err)
	}
	cit, err := ParseCitations(cb)
	if err != nil {
		return Coded(ExitInvalidCitations, "invalid_citations", "%v", err)
	}
	r := Verify(src, cit)
	if err := WriteOut(c, r.Canonical); err != nil {
		return err
	}
	proof, n := r.ProofSummary()
	// On a coded failure stderr carries the canonical JSON error only.
	if c.Bool("fail-on-ungrounded") && !r.AllEvidenceGrounded {
		return Coded(ExitUngrounded, "evidence_ungrounded", "not all evidence is grounded (%s: %d of %d checks reusable)", proof, n, len(r.Checks))
	}
	fmt.Fprintf(cliutil.Stderr(c), "proof: %s (%d of %d checks reusable)\n", proof, n, len(r.Checks))
	if lim := r.ProofLimitations(); len(lim) > 0 {
		fmt.Fprintf(cliutil.Stderr(c), "limitations: %s\n", strings.Join(lim, "; "))
	}
	return nil
}

// CheckFormat rejects an unknown --grounding value as a usage error.
func CheckFormat(f string) error {
	switch f {
	case FormatAuto, FormatEthos, FormatGraph, FormatOpenDataLoader:
		return nil
	}
	return cliutil.Usagef("unknown --grounding %q (auto, ethos-document, sieve-graph, opendataloader-json)", f)
}

// LoadFile reads a grounding source (with the security report beside it,
// loadBeside), as a coded failure when it cannot.
func LoadFile(format, path string) (GroundingSource, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, Coded(ExitIO, "io_error", "cannot read %s: %v", path, err)
	}
	src, err := loadBeside(format, path, b)
	if err != nil {
		return nil, Coded(ExitInvalidSource, "invalid_source", "%v", err)
	}
	return src, nil
}

// WriteOut writes canonical JSON and a newline to --out or stdout, with
// coded errors (SPEC.md §6.4) when encoding or writing fails.
func WriteOut(c *cli.Context, encode func() ([]byte, error)) error {
	b, err := encode()
	if err != nil {
		return Coded(ExitInternal, "internal_error", "%v", err)
	}
	b = append(b, '\n')
	if out := c.String("out"); out != "" {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return Coded(ExitIO, "io_error", "cannot write %s: %v", out, err)
		}
		return nil
	}
	if _, err := cliutil.Stdout(c).Write(b); err != nil {
		return Coded(ExitIO, "io_error", "cannot write the report: %v", err)
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
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "graph", Usage: "grounding source `FILE`: graph records, content.json or document.ethos.json"},
			&cli.StringFlag{Name: "grounding", Value: FormatAuto, Usage: "source `FORMAT`"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 || c.String("graph") == "" {
				return cliutil.Usagef("sieve-verify reads claims on stdin and needs --graph FILE")
			}
			if err := CheckFormat(c.String("grounding")); err != nil {
				return err
			}
			src, err := LoadFile(c.String("grounding"), c.String("graph"))
			if err != nil {
				return err
			}
			_, err = jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), Stage(New(src)))
			return err
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
	return jsonl.Stage{
		Name: "verify",
		Raw:  true,
		Transform: func(_ context.Context, line []byte) ([]byte, error) {
			if k := record.Kind(line); k != "" && k != "claim" && gjson.ValidBytes(line) {
				return line, nil
			}
			n++
			cl, err := ParseClaimLine(line)
			if err != nil {
				return nil, fmt.Errorf("not a claim: %w", err)
			}
			out, err := codec.Marshal(CheckRecord{Record: record.KindCheck, SchemaVersion: record.SchemaVersion, Check: v.Check(n, cl)})
			if err != nil {
				return nil, err
			}
			return record.Passthrough(out, line, claimKeys), nil
		},
	}
}
