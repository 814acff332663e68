package crop

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/verify"
)

// Flags are the picture and pixel-source flags sieve crop and sieve
// verify --crops share.
func Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "blobs", Usage: "the capture's blob store `DIR` (capture --blobs): the source PDF and the screenshot"},
		&cli.StringFlag{Name: "source", Usage: "the source PDF `FILE` (checked against the document's source fingerprint); without it, the blob store's copy, the source.pdf beside the document (an evidence bundle's) or the local file the PDF was read from, when its bytes still hash to the fingerprint"},
		&cli.StringFlag{Name: "screenshot", Usage: "the render's screenshot PNG `FILE` (checked against the key the document names)"},
		&cli.IntFlag{Name: "padding", Value: DefaultPadding, Usage: "document units (pt, CSS px) shown around each box"},
		&cli.IntFlag{Name: "dpi", Value: DefaultDPI, Usage: "resolution of PDF crops (a screenshot crop is one pixel per CSS px)"},
		&cli.BoolFlag{Name: "plain", Usage: "the crop as the page shows it; by default the quoted words are outlined line by line (a PDF's; else the cited box) and the rest dimmed"},
	}
}

// Command is `sieve crop DOC --report FILE --out DIR` (and sieve-crop).
func Command() *cli.Command {
	return &cli.Command{
		Name:      "crop",
		Usage:     "cut the cited evidence of a verification or anchor report out of the page as PNGs (EEF crops)",
		UsageText: cropUsage,
		Description: "DOC is the document the report was made against (document.ethos.json, a graph record\n" +
			"file or content.json). The report is --report FILE, or stdin: a verification report, an\n" +
			"evidence anchor report, the lines of sieve-verify or sieve-anchor, or a list of boxes\n" +
			"(JSON array or JSONL of {\"id\",\"page_ref\",\"bbox\" or \"element_refs\",\"text\"}). Writes\n" +
			"BUNDLE/crops/crop_descriptors.jsonl and BUNDLE/crops/<crop_ref>.png (one per grounded\n" +
			"check or bound evidence ref with a box; those citing the same box share a crop), prints the descriptors on stdout and a count on stderr. A page\n" +
			"without pixels (a static-tier read, no --blobs) gets descriptors with the reason.\n" +
			"A report does not carry the quoted text: --citations FILE (the citations it checked)\n" +
			"gives it, and the crops mark the quoted lines as sieve verify --crops does.\n" +
			"Exit: 0 written; 2 usage; 3–12 coded failures as canonical JSON on stderr.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "report", Usage: "verification or evidence anchor report `FILE` (default: stdin)"},
			&cli.StringFlag{Name: "out", Usage: "evidence bundle `DIR`: crops go to DIR/crops/"},
			&cli.StringFlag{Name: "grounding", Value: ground.FormatAuto, Usage: "DOC's `FORMAT`"},
			&cli.StringFlag{Name: "citations", Usage: "the citations `FILE` the verification report checked: the quoted lines are marked (sieve verify --crops knows them)"},
		}, Flags()...),
		Action: runCrop,
	}
}

func runCrop(c *cli.Context) error {
	pos, err := evcmd.Interspersed(c)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cliutil.Usagef("sieve crop takes one DOC argument, got %d", len(pos))
	}
	if c.String("out") == "" {
		return cliutil.Usagef("--out DIR is required")
	}
	if err := evcmd.CheckFormat(c.String("grounding")); err != nil {
		return err
	}
	var rb []byte
	if f := c.String("report"); f != "" && f != "-" {
		rb, err = os.ReadFile(f)
	} else {
		rb, err = io.ReadAll(cliutil.Stdin(c))
	}
	if err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read the report: %v", err)
	}
	cites, err := ReadCites(rb)
	if err != nil {
		return evcmd.Coded(cliutil.ExitInvalidCitations, "invalid_report", "%v", err)
	}
	if f := c.String("citations"); f != "" {
		cb, err := os.ReadFile(f)
		if err != nil {
			return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot read citations: %v", err)
		}
		cit, err := verify.ParseCitations(cb)
		if err != nil {
			return evcmd.Coded(cliutil.ExitInvalidCitations, "invalid_citations", "%v", err)
		}
		cites = WithQuotes(cites, cit)
	}
	if err := checkFlags(c); err != nil {
		return err
	}
	doc, err := evcmd.ReadDoc(c.String("grounding"), pos[0])
	if err != nil {
		return err
	}
	set, err := Run(c, doc, cites, false)
	if err != nil {
		return err
	}
	if c.String("citations") == "" && set.Rendered() > 0 && !c.Bool("plain") && slices.ContainsFunc(cites, func(ct Cite) bool { return ct.ClaimID != "" }) {
		fmt.Fprintln(cliutil.Stderr(c), "crops: the whole cited boxes are marked; --citations FILE (the citations the report checked) marks the quoted lines")
	}
	lines, _ := Lines(set)
	if _, err := cliutil.Stdout(c).Write(lines); err != nil {
		return evcmd.Coded(cliutil.ExitIO, "io_error", "cannot write the descriptors: %v", err)
	}
	return nil
}

// checkFlags checks the values of Flags' numbers.
func checkFlags(c *cli.Context) error {
	if c.Int("dpi") < 1 || c.Int("dpi") > 1200 {
		return cliutil.Usagef("--dpi must be 1–1200")
	}
	if c.Int("padding") < 0 {
		return cliutil.Usagef("--padding cannot be negative")
	}
	return nil
}

// Run makes and writes the crops of cites against doc (read and loaded
// by the command: sieve verify --crops passes its own), with the flags of
// Flags and --out/--crops, and says on stderr how many were rendered.
func Run(c *cli.Context, doc evcmd.Doc, cites []Cite, quiet bool) (Set, error) {
	out := c.String("out")
	if c.IsSet("crops") || out == "" {
		out = c.String("crops")
	}
	src := doc.Source
	ras, err := LoadRaster(doc.Bytes, src, Sources{Blobs: c.String("blobs"), PDF: c.String("source"), Screenshot: c.String("screenshot"), Bundle: filepath.Dir(doc.Path)})
	if err != nil {
		return Set{}, evcmd.Coded(cliutil.ExitIO, "io_error", "%v", err)
	}
	set, err := Make(src, TargetsOf(src, cites), ras, Options{Padding: c.Int("padding"), DPI: c.Int("dpi"), Plain: c.Bool("plain")})
	if err != nil {
		return Set{}, evcmd.Coded(cliutil.ExitInvalidSource, "invalid_source", "%v", err)
	}
	if err := Write(out, set); err != nil {
		return Set{}, evcmd.Coded(cliutil.ExitIO, "io_error", "cannot write the crops: %v", err)
	}
	if quiet {
		return set, nil
	}
	why := ""
	if set.Rendered() < len(set.Descriptors) && ras.NoPixels != "" {
		why = ": " + ras.NoPixels // the one reason every crop lacks pixels
	}
	fmt.Fprintf(cliutil.Stderr(c), "crops: %d rendered, %d descriptor only (%s)%s\n",
		set.Rendered(), len(set.Descriptors)-set.Rendered(), out+"/"+Dir, why)
	return set, nil
}

// VerifyExtension is `sieve verify`'s --crops DIR: after the report is
// written (whatever its verdict), the grounded checks' crops of that same
// report, against the document verify loaded, are written to DIR/crops/.
// Without --crops it does nothing.
func VerifyExtension() verify.Extension {
	return verify.Extension{
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "crops", Usage: "also write the crops of the grounded checks to `DIR`/crops/"},
		}, Flags()...),
		UsageText: " [--crops DIR [--blobs DIR | --source PDF | --screenshot PNG]]",
		After: func(c *cli.Context, doc evcmd.Doc, r *verify.Report, failing bool) error {
			if c.String("crops") == "" {
				return nil
			}
			if err := checkFlags(c); err != nil {
				return err
			}
			// On a coded failure stderr carries the canonical JSON error only.
			_, err := Run(c, doc, CitesOf(r), failing)
			return err
		},
	}
}
