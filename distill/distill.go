package distill

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/pdf"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/render"
)

// Formats of sieve distill's stdout.
const (
	FormatArtifact = "artifact" // artifact lines; the files under --out
	FormatMarkdown = "markdown" // the content as Markdown (render.ContentMarkdown)
	FormatText     = "text"     // the content as plain text (render.Text)
	FormatJSON     = "json"     // content.json, one line per target
)

// Command is `sieve distill`.
func Command() *cli.Command {
	flags := append(capture.Flags(),
		&cli.StringFlag{Name: "out", Value: "artifacts", Usage: "write the artifact directories under `DIR`; - writes none (the default for --format markdown, text and json, which print to stdout)"},
		&cli.BoolFlag{Name: "no-evidence", Usage: "do not write the EEF bundle (evidence/)"},
		&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: FormatArtifact, Usage: "what stdout carries: `artifact` (one artifact line per target), markdown or md (the content as Markdown), text (plain text) or json (content.json, one line per target)"},
		&cli.BoolFlag{Name: "header", Usage: "--format markdown: begin each page with index.md's front matter, untrusted-content notice and outcome banner"},
		cliutil.FailOnFlag("not-ok", fmt.Sprintf("exit %d when a target's outcome is one of `OUTCOME,…` (not-ok: any but ok; none: never)", cliutil.ExitOutcome)),
	)
	flags = append(flags, append(Flags(), ShardFlag())...)
	return &cli.Command{
		Name:  "distill",
		Usage: "read URLs or local files into Markdown, text, JSON or sieve artifacts in one process",
		UsageText: `sieve distill [--format markdown|text|json] [options] TARGET...
sieve distill [--out DIR] [options] TARGET...
sieve distill [options] < targets

Examples:
   sieve distill --format md https://example.com/ > page.md
   sieve distill --out artifacts https://example.com/ ./saved-page.html`,
		Description: `Runs capture, normalize, graph and render in one process. Targets come from
the arguments, or from stdin (one per line) when there are none.

--format artifact (the default) writes an artifact directory per target
under --out and one "artifact" line per target on stdout (url, dir, outcome,
content_hash), byte for byte what the four stage binaries give when piped.
--format markdown (md), text and json print each target's content to stdout
instead (Markdown: title, content in reading order with links inline, tables,
image descriptions; text: plain text, one block per line; json: content.json
on one line) and write artifact directories only when --out is given.

Exit status: 0 when every target read as ok; 1 when some target became an
error record (no artifact; its line is on stderr); 13 when every target gave
an artifact but some outcome was not ok (one line per such target on stderr:
url, outcome, first evidence; --fail-on changes which outcomes count); 2 on
bad usage; 130 when SIGINT or SIGTERM stopped the run (the targets in flight
become error records saying "interrupted…", the rest are not started). The
run ends with a count of the outcomes on stderr unless --quiet.`,
		Flags:  flags,
		Action: distill,
	}
}

func distill(c *cli.Context) error {
	format, err := parseFormat(c.String("format"))
	if err != nil {
		return err
	}
	out := c.String("out")
	switch {
	case out == "":
		return cliutil.Usagef("--out cannot be empty (- writes no artifact directories)")
	case out == "-" && format == FormatArtifact:
		return cliutil.Usagef("--out - needs a format that prints to stdout: --format markdown, text or json")
	case format != FormatArtifact && !c.IsSet("out"):
		out = "-"
	}
	if c.Bool("header") && format != FormatMarkdown {
		return cliutil.Usagef("--header goes with --format markdown")
	}
	run := cliutil.RunOf(c)
	failOn, err := cliutil.ParseOutcomes("fail-on", c.String("fail-on"))
	if err != nil {
		return err
	}
	run.SetFailOn(failOn)
	run.Manual()
	if !run.Quiet() {
		pdf.SetNotice(cliutil.Stderr(c)) // the first PDF read compiles the engine
	}
	opts, err := capture.OptionsFrom(c)
	if err != nil {
		return err
	}
	warcs, err := warcFiles(c, &opts)
	if err != nil {
		return err
	}
	cp := capture.New(opts)
	// A second signal does not wait for Close: it gets its own short
	// chance to kill Chromium and remove the profile, until Close is done.
	unregister := cliutil.OnForcedExit(c.Context, cp.Abort)
	defer func() { cp.Close(); unregister() }()
	if err := cp.Ready(); err != nil {
		return err
	}
	sh, err := openShard(c, format, &out)
	if err != nil {
		return err
	}
	d := Deliver{Format: format, Header: c.Bool("header"),
		Opts: render.Options{Out: out, NoEvidence: c.Bool("no-evidence"), Text: format == FormatText && out != "-", Blobs: c.String("blobs")}}
	ch, err := ChainFrom(c, cp)
	if err != nil {
		return sh.close(err, nil, true)
	}
	chain, handed := ch.Stage(d)
	var in io.Reader = cliutil.Stdin(c)
	if warcs != nil {
		chain, handed = ch.WARCStage(d)
		in = warcLines(c.Context, cp, warcs, cliutil.Stderr(c))
	} else if c.NArg() > 0 {
		in = strings.NewReader(strings.Join(c.Args().Slice(), "\n") + "\n")
	}
	w := (&outWriter{format: format, out: cliutil.Stdout(c), errs: cliutil.Stderr(c), run: run, handed: handed, shard: sh}).lines()
	_, err = jsonl.Run(c.Context, in, w, cliutil.Stderr(c), chain)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return sh.close(err, cliutil.Stderr(c), run.Quiet())
}

func parseFormat(v string) (string, error) {
	switch v {
	case "", FormatArtifact:
		return FormatArtifact, nil
	case FormatMarkdown, "md":
		return FormatMarkdown, nil
	case FormatText, FormatJSON:
		return v, nil
	}
	return "", cliutil.Usagef("--format must be artifact, markdown (md), text or json, not %q", v)
}

// Delivered is what the chain hands on for a target.
type Delivered struct {
	URL      string
	Outcome  string
	Evidence string // the outcome's first
	Line     string // what stdout gets for this target
	Empty    bool   // the target has no content: Line is empty, stderr says so
}

// Deliver is the chain's last stage: render, then what stdout gets for
// the format.
type Deliver struct {
	Format string // one of the Format constants
	Header bool   // FormatMarkdown: index.md's front matter first
	Opts   render.Options
}

// stage is deliver as the JSON chain's last stage (lines with fields of
// the user's own, see handoff): its lines refer to the values in h.
func (d Deliver) stage(h *Handed) jsonl.Stage {
	return jsonl.Stage{Name: "render", Accept: []string{record.KindGraph}, Transform: func(ctx context.Context, line []byte) ([]byte, error) {
		if d.Format == FormatArtifact {
			// render.Transform carries the user's fields onto the artifact line.
			a, err := render.Transform(ctx, d.Opts, line)
			if err != nil {
				return nil, err
			}
			g := gjson.GetManyBytes(line, "url", "outcome.status", "outcome.evidence.0")
			return h.put(Delivered{URL: g[0].String(), Outcome: g[1].String(), Evidence: g[2].String(), Line: string(a) + "\n"}), nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var rec graph.Record
		if err := codec.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("decoding graph record: %w", err)
		}
		res, err := d.deliver(ctx, &rec)
		if err != nil {
			return nil, err
		}
		return h.put(res), nil
	}}
}

// deliver renders rec as the format asks.
func (d Deliver) deliver(ctx context.Context, rec *graph.Record) (Delivered, error) {
	res := Delivered{URL: rec.URL, Outcome: rec.Outcome.Status}
	if len(rec.Outcome.Evidence) > 0 {
		res.Evidence = rec.Outcome.Evidence[0]
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if d.Format == FormatArtifact {
		a, err := render.WriteContext(ctx, d.Opts, rec)
		if err != nil {
			return res, err
		}
		b, err := codec.Marshal(a)
		if err != nil {
			return res, err
		}
		res.Line = string(b) + "\n"
		return res, nil
	}
	if d.Opts.Out != "-" {
		if _, err := render.WriteContext(ctx, d.Opts, rec); err != nil {
			return res, err
		}
	}
	if rec.Stats.ContentBlocks == 0 && !d.Header && d.Format != FormatJSON {
		// No content: nothing on stdout (no "# (no title)"); outWriter
		// says so on stderr. --header asks for the front matter anyway.
		res.Empty = true
		return res, nil
	}
	switch d.Format {
	case FormatMarkdown:
		res.Line = string(render.ContentMarkdown(rec, d.Header))
	case FormatText:
		res.Line = string(render.Text(rec))
	case FormatJSON:
		b, err := render.ContentJSON(rec)
		if err != nil {
			return res, err
		}
		res.Line = string(b) + "\n"
	}
	return res, nil
}

// outWriter turns the lines of sieve distill's chain into its stdout,
// and reports each target to the run (exit status, stderr summary).
type outWriter struct {
	format    string
	out, errs io.Writer
	run       *cliutil.Run
	handed    *Handed   // the chain's delivered values
	shard     *shardOut // --shard: artifacts go into the archive
	n         int       // targets written to stdout
}

// lines is the writer the chain writes into: w sees whole lines.
func (w *outWriter) lines() *jsonl.LineSplitter { return &jsonl.LineSplitter{Line: w.line} }

func (w *outWriter) line(line []byte) error {
	d, ok := w.handed.Take(bytes.TrimSpace(line))
	if !ok {
		// An error record (its stage said why on stderr) or a record
		// passed through: artifact lines keep it, the other formats do
		// not mix it into the content.
		g := gjson.GetManyBytes(line, "input", "error")
		w.run.Target(g[0].String(), "error", g[1].String())
		if w.format == FormatArtifact {
			_, err := w.out.Write(line)
			return err
		}
		if w.run.Verbose() {
			_, err := w.errs.Write(line)
			return err
		}
		return nil
	}
	w.run.Target(d.URL, d.Outcome, d.Evidence)
	if d.Empty {
		if w.run.Quiet() {
			return nil
		}
		_, err := fmt.Fprintf(w.errs, "%s: %s: no content to print (outcome %s); --header prints its front matter and outcome banner\n", w.run.Prog(), d.URL, d.Outcome)
		return err
	}
	if w.shard != nil {
		var err error
		if d.Line, err = w.shard.pack(d.Line); err != nil {
			return err
		}
	}
	if w.format == FormatMarkdown && w.n > 0 {
		if _, err := io.WriteString(w.out, "\n"); err != nil {
			return err
		}
	}
	w.n++
	_, err := io.WriteString(w.out, d.Line)
	return err
}
