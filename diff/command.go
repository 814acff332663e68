package diff

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/shard"
	"github.com/sieve-dev/sieve/verify"
)

// ExitDifferent is sieve diff's exit when the two reads differ (status
// changed): cliutil.ExitDifferent, in the one exit table.
const ExitDifferent = cliutil.ExitDifferent

// Different is the error sieve diff ends with when the reads differ: exit
// ExitDifferent, its text the one-line summary on stderr.
type Different struct{ Summary Summary }

func (d Different) ExitCode() int { return ExitDifferent }

func (d Different) Error() string {
	s := d.Summary
	return fmt.Sprintf("sieve diff: changed: %d added, %d removed, %d renamed, %d changed, %d moved", s.Added, s.Removed, s.Renamed, s.Changed, s.Moved)
}

// Command is `sieve diff OLD NEW` (and sieve-diff).
func Command() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two reads of one page: sections added, removed, renamed, changed and moved, with word-level edits",
		UsageText: "sieve diff OLD NEW [--format text|md|json] [--out FILE] [--any-url] [--citations FILE | --evidence-refs FILE]",
		Description: "OLD and NEW are artifact directories (content.json, or evidence/document.ethos.json),\n" +
			"content.json or graph record files, or document.ethos.json files of the same URL.\n" +
			"Writes the diff to --out (or stdout): text for people, md for agents, json for programs\n" +
			"(schemas/diff.schema.json). Latent (hidden) text is reported apart, behind its trust marker.\n" +
			"With --citations FILE (claims made against OLD), every claim is checked on both and gets\n" +
			"a verdict: still_grounded, moved, changed, contradicted, gone, not_grounded_before\n" +
			"(schemas/diff-citations.schema.json). With --evidence-refs FILE (an evidence anchor request\n" +
			"or an array of refs made against OLD), every ref is bound on both and gets the same verdicts\n" +
			"but contradicted (schemas/diff-anchors.schema.json).\n" +
			"Exit: 0 unchanged (with --citations: every claim still grounded); 14 changed (a claim\n" +
			"changed, contradicted or gone); 2 usage; 4 an input cannot be read, 5 it is not a\n" +
			"document or the URLs differ, 6 the citations, 8 the evidence refs are not valid (coded).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: FormatText, Usage: "`FORMAT` of the diff: text, md or json"},
			&cli.StringFlag{Name: "out", Usage: "write the diff to `FILE` instead of stdout"},
			&cli.BoolFlag{Name: "any-url", Usage: "compare reads of different URLs too"},
			&cli.StringFlag{Name: "citations", Usage: "carry the claims of citations `FILE` (made against OLD) to NEW: one verdict per claim"},
			&cli.StringFlag{Name: "evidence-refs", Usage: "carry the evidence-anchor refs of `FILE` (made against OLD) to NEW: one verdict per ref"},
		},
		Action: runDiff,
	}
}

func runDiff(c *cli.Context) error {
	pos, err := evcmd.Interspersed(c, "any-url")
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return cliutil.Usagef("sieve diff takes OLD and NEW, got %d arguments", len(pos))
	}
	format := c.String("format")
	if format != FormatText && format != FormatMarkdown && format != FormatJSON {
		return cliutil.Usagef("unknown --format %q (text, md, json)", format)
	}
	for i := range pos { // SHARD.tar.gz#KEY: the artifact out of a shard (sieve distill --shard)
		p, done, err := shard.Materialize(pos[i])
		if err != nil {
			return evcmd.Coded(cliutil.ExitIO, "io_error", "%v", err)
		}
		defer done()
		pos[i] = p
	}
	old, oldPath, err := LoadPath(pos[0])
	if err != nil {
		return err
	}
	new, newPath, err := LoadPath(pos[1])
	if err != nil {
		return err
	}
	if old.URL != new.URL && !c.Bool("any-url") {
		return evcmd.Coded(cliutil.ExitInvalidSource, "invalid_source", "OLD is a read of %s, NEW of %s (--any-url compares them anyway)", old.URL, new.URL)
	}
	r := Compare(old, new)
	r.Old.Path, r.New.Path = oldPath, newPath
	if c.String("citations") != "" && c.String("evidence-refs") != "" {
		return cliutil.Usagef("--citations and --evidence-refs are one at a time")
	}
	if f := c.String("citations"); f != "" {
		return runCarry(c, f, r, format)
	}
	if f := c.String("evidence-refs"); f != "" {
		return runCarryAnchors(c, f, r, format)
	}
	b, err := Render(r, format)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInternal, "internal_error", "%v", err)
	}
	if err := write(c, b); err != nil {
		return err
	}
	if r.Status != StatusUnchanged {
		return Different{r.Summary}
	}
	return nil
}

// runCarry is --citations: the claims re-checked on both documents. Exit
// ExitDifferent when a claim grounded on OLD is changed, contradicted or
// gone on NEW; 0 when every one still stands (in place or moved).
func runCarry(c *cli.Context, file string, d *Report, format string) error {
	cb, err := os.ReadFile(file)
	if err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read citations: %v", err)
	}
	cit, err := verify.ParseCitations(cb)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInvalidCitations, "invalid_citations", "%v", err)
	}
	old, new, err := loadPair(d)
	if err != nil {
		return err
	}
	r := Carry(old, new, cit, d)
	b, err := RenderCarry(r, format)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInternal, "internal_error", "%v", err)
	}
	if err := write(c, b); err != nil {
		return err
	}
	if !r.Stands() {
		s := r.Summary
		return carryFailed(fmt.Sprintf("sieve diff: citations: %d changed, %d contradicted, %d gone", s.Changed, s.Contradicted, s.Gone))
	}
	return nil
}

// loadPair loads the two documents d compares, for carrying claims or refs
// from the old one to the new one.
func loadPair(d *Report) (old, new ground.Source, err error) {
	if old, err = evcmd.LoadFile(ground.FormatAuto, d.Old.Path); err != nil {
		return nil, nil, err
	}
	if new, err = evcmd.LoadFile(ground.FormatAuto, d.New.Path); err != nil {
		return nil, nil, err
	}
	return old, new, nil
}

// runCarryAnchors is --evidence-refs: the refs bound on both documents,
// with --citations' exits.
func runCarryAnchors(c *cli.Context, file string, d *Report, format string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read evidence refs: %v", err)
	}
	refs, err := ParseRefs(b)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInvalidEvidenceRefs, "invalid_evidence_refs", "%v", err)
	}
	old, new, err := loadPair(d)
	if err != nil {
		return err
	}
	r := CarryAnchors(old, new, refs, d)
	out, err := RenderAnchors(r, format)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInternal, "internal_error", "%v", err)
	}
	if err := write(c, out); err != nil {
		return err
	}
	if !r.Stands() {
		s := r.Summary
		return carryFailed(fmt.Sprintf("sieve diff: evidence refs: %d changed, %d gone", s.Changed, s.Gone))
	}
	return nil
}

// carryFailed ends --citations with ExitDifferent.
type carryFailed string

func (e carryFailed) ExitCode() int { return ExitDifferent }
func (e carryFailed) Error() string { return string(e) }

// LoadPath resolves and reads one side of a diff, as a coded failure when
// it cannot: 4 unreadable, 5 not a document. It returns the file read.
func LoadPath(path string) (*Doc, string, error) {
	file, err := Resolve(path)
	if err != nil {
		return nil, "", evcmd.Coded(cliutil.ExitIO, "io_error", "%v", err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, "", evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read %s: %v", file, err)
	}
	d, err := Parse(b)
	if err != nil {
		return nil, "", evcmd.Coded(cliutil.ExitInvalidSource, "invalid_source", "%s: %v", file, err)
	}
	return d, file, nil
}

func write(c *cli.Context, b []byte) error {
	if out := c.String("out"); out != "" {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot write %s: %v", out, err)
		}
		return nil
	}
	if _, err := cliutil.Stdout(c).Write(b); err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot write the diff: %v", err)
	}
	return nil
}
