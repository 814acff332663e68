package capture

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// warcFlag is sieve-capture's WARC mode: the pages come from archive files
// instead of targets on stdin.
var warcFlag = &cli.StringSliceFlag{Name: "warc", Usage: "read the pages of this WARC `FILE` (WARC 1.0/1.1, plain or gzip per record; repeatable) instead of targets on stdin: nothing is fetched"}

// runWARC is sieve-capture --warc: every page of the files as a capture
// record on stdout, in file order.
func runWARC(c *cli.Context, opts Options, files []string) error {
	if c.IsSet("tier") && opts.Tier != TierStatic {
		return cliutil.Usagef("--warc reads archived responses: --tier must be static (a browser would fetch the page's resources live)")
	}
	if c.NArg() > 0 {
		return cliutil.Usagef("--warc reads no targets; unexpected argument %q", c.Args().First())
	}
	opts.Tier = TierStatic
	cp := New(opts)
	defer cp.Close()
	out := bufio.NewWriterSize(cliutil.Stdout(c), 1<<16)
	failed := 0
	for _, name := range files {
		stats, err := cp.WriteWARC(c.Context, name, out, cliutil.Stderr(c))
		fmt.Fprintf(cliutil.Stderr(c), "sieve-capture: %s: %s\n", name, stats)
		failed += stats.Errors
		if err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("sieve-capture: %d WARC records became error records: %w", failed, jsonl.ErrFailedLines)
	}
	return nil
}

// WriteWARC writes the pages of the WARC file name to w as JSON lines: a
// capture record per page, an error record (stage capture, line the WARC
// record's number) per record that could not be read or failed its
// checks, also told on stderr. A file that cannot be opened is an error.
func (c *Capturer) WriteWARC(ctx context.Context, name string, w *bufio.Writer, stderr io.Writer) (WARCStats, error) {
	stats, err := c.ReadWARC(ctx, name, func(p WARCPage) error {
		b, err := warcLine(name, p)
		if err != nil {
			return err
		}
		if p.Err != nil {
			fmt.Fprintf(stderr, "sieve-capture: %s: record %d at offset %d: %v\n", name, p.No, p.Offset, p.Err)
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		return w.Flush()
	})
	if err != nil {
		return stats, fmt.Errorf("sieve-capture: %s: %w", name, err)
	}
	return stats, nil
}

// warcLine is p's JSON line. An error record's input names the record:
// its URI, file and offset.
func warcLine(name string, p WARCPage) ([]byte, error) {
	if p.Err == nil {
		return codec.Marshal(p.Record)
	}
	where, _ := json.Marshal(struct {
		URL    string `json:"url,omitempty"`
		WARC   string `json:"warc"`
		Offset int64  `json:"offset"`
	}{p.URI, name, p.Offset})
	return codec.Marshal(record.NewError("capture", p.No, where, p.Err))
}
