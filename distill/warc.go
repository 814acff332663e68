package distill

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// warcFiles are the arguments when they name WARC files (.warc,
// .warc.gz), nil when none does; a mix of WARC files and other targets is
// a usage error. Archived pages are read as they were served: the tier is
// static.
func warcFiles(c *cli.Context, opts *capture.Options) ([]string, error) {
	n := 0
	for _, a := range c.Args().Slice() {
		if isWARC(a) {
			n++
		}
	}
	switch {
	case n == 0:
		return nil, nil
	case n < c.NArg():
		return nil, cliutil.Usagef("give either WARC files or other targets, not both")
	case c.IsSet("tier") && opts.Tier != capture.TierStatic:
		return nil, cliutil.Usagef("WARC files are read as archived: --tier must be static (a browser would fetch the page's resources live)")
	}
	opts.Tier = capture.TierStatic
	return c.Args().Slice(), nil
}

func isWARC(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".warc") || strings.HasSuffix(n, ".warc.gz")
}

// WARCStage is the chain for pages read from WARC files: its input lines
// are capture records (capture.WriteWARC), which its capture stage passes
// on unread, each target delivered as d. An error record of the reader
// fails its line in that stage, so that it is told and counted as a
// capture that failed is.
func (ch Chain) WARCStage(d Deliver) (jsonl.Stage, *Handed) {
	handed := &Handed{}
	pass := jsonl.Stage{Name: "capture", Accept: []string{record.KindError}, Concurrency: ch.Capturer.Stage().Concurrency,
		Transform: func(_ context.Context, line []byte) ([]byte, error) {
			g := gjson.GetManyBytes(line, "error", "input")
			return nil, fmt.Errorf("%s (%s)", g[0].String(), g[1].String())
		}}
	return ch.Stages("distill", Parts{Capture: &pass, Render: d.stage(handed)}), handed
}

// warcLines are the pages of the WARC files as capture and error record
// lines, read by cp as the chain takes them; each file's counts go to
// stderr.
func warcLines(ctx context.Context, cp *capture.Capturer, files []string, stderr io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		w := bufio.NewWriter(pw)
		for _, name := range files {
			stats, err := cp.WriteWARC(ctx, name, w, io.Discard) // the chain reports the error records
			fmt.Fprintf(stderr, "sieve distill: %s: %s\n", name, stats)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(w.Flush())
	}()
	return pr
}
