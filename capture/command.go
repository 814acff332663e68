package capture

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
)

// Command is sieve-capture: targets on stdin, capture records on stdout.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "capture",
		Usage: "fetch URLs and local files into capture records (static, render or auto tier)",
		UsageText: `sieve-capture [options] < targets > captures.jsonl
sieve-capture [options] --warc FILE.warc.gz > captures.jsonl   (docs/WARC.md)

Each input line is an http(s) URL, a local file path, or a JSON object with
"url" (its other fields are copied to the output). Example:

   printf '%s\n' https://example.com/ ./page.html '{"url":"https://example.org/","id":7}' \
     | sieve-capture --concurrency 8 --delay 1s | sieve-normalize`,
		Description: `Writes one "capture" record per input line, in input order. A fetch that
fails (refused, timed out, disallowed by robots.txt, rate limited) is still a
capture record, with error.kind saying what failed; a line that names no
target becomes an "error" record. Exit status: 0 when every line gave a
capture record, 1 when some line became an error record, 2 on bad usage,
130 when SIGINT or SIGTERM stopped the run: the lines in flight are written
as error records saying "interrupted…", the rest of the input is not
started (a second signal exits at once).

robots.txt is honoured for the user-agent token "sieve". Private, loopback
and link-local addresses are refused unless --allow-private (all of them) or
--allow-addr IP:PORT (exactly one) is given; the check is made on the
resolved address, after every redirect too, and on every request the
browser makes (the render tier sends all of them through sieve's proxy).`,
		Flags:  append(Flags(), warcFlag),
		Action: run,
	}
}

// Flags are capture's options as command-line flags, for every command that
// captures (sieve-capture, sieve distill); OptionsFrom reads them back.
func Flags() []cli.Flag {
	d := DefaultOptions()
	return []cli.Flag{
		&cli.IntFlag{Name: "concurrency", Value: d.Concurrency, Usage: "targets fetched at once (output stays in input order)"},
		&cli.IntFlag{Name: "per-host", Value: d.PerHost, Usage: "requests in flight to one host at once"},
		&cli.DurationFlag{Name: "delay", Value: d.Delay, Usage: "pause between request starts on one host (robots.txt Crawl-delay wins when longer, up to 30s)"},
		&cli.DurationFlag{Name: "timeout", Value: d.Timeout, Usage: "total time for one fetch attempt: connect, redirects and body"},
		&cli.DurationFlag{Name: "connect-timeout", Value: d.ConnectTimeout, Usage: "time to resolve, connect and complete TLS"},
		cliutil.SizeFlag("max-bytes", d.MaxBytes, "body size cap after decompression; longer bodies are cut and flagged truncated"),
		&cli.BoolFlag{Name: "ignore-robots", Usage: "do not consult robots.txt"},
		&cli.BoolFlag{Name: "allow-private", Usage: "allow private, loopback and link-local addresses"},
		&cli.StringSliceFlag{Name: "allow-addr", Usage: "allow exactly this private address, as IP:PORT (repeatable); every other private address stays refused"},
		&cli.IntFlag{Name: "js-heap-mb", Value: d.Browser.HeapMB, Usage: "JavaScript heap limit of each rendered page, MiB: a page over it is cut off and read as partial"},
		&cli.IntFlag{Name: "browser-memory-mb", Value: d.Browser.MemoryMB, Usage: "memory budget of the whole browser process tree, MiB: over it, the largest page is killed and read as partial"},
		&cli.StringFlag{Name: "user-agent", Value: d.UserAgent, Usage: "User-Agent header (robots.txt is matched for the token \"sieve\")"},
		&cli.IntFlag{Name: "retries", Value: d.Retries, Usage: "retries after HTTP 429, or 503 with Retry-After"},
		&cli.DurationFlag{Name: "max-retry-wait", Value: d.MaxRetryWait, Usage: "longest Retry-After to wait for; longer ones are not retried"},
		&cli.StringFlag{Name: "tier", Value: d.Tier, Usage: "static (HTTP only), render (Chromium), or auto (static, rendered when it reads as a shell or too thin)"},
		&cli.StringFlag{Name: "chromium", Usage: "Chromium binary (default $SIEVE_CHROMIUM, else " + DefaultChromium + ")"},
		&cli.DurationFlag{Name: "render-timeout", Value: d.Browser.Timeout, Usage: "whole browser read of one page"},
		&cli.DurationFlag{Name: "settle", Value: d.Browser.Settle, Usage: "longest wait for a rendered page to settle (hydrate)"},
		&cli.IntFlag{Name: "sweep-steps", Value: d.Browser.SweepSteps, Usage: "most viewport-high scroll steps of the lazy-content sweep"},
		&cli.IntFlag{Name: "restart-every", Value: d.Browser.RestartEvery, Usage: "pages per browser process before it is restarted"},
		&cli.StringFlag{Name: "base-url", Usage: "resolve a local file's links and canonical URL against this http(s) `URL`, the address it was saved from (nothing is fetched from it)"},
		&cli.StringFlag{Name: "password", Usage: "open encrypted PDFs with this `PASSWORD` (user or owner); it is written to no record. Other users can see a command line: prefer --password-file"},
		&cli.StringFlag{Name: "password-file", Usage: "open encrypted PDFs with the password on the first line of `FILE`"},
		&cli.StringFlag{Name: "blobs", Usage: "directory (content-addressed) for full-page screenshots of rendered pages and the served bytes of every page and PDF (under their source_fingerprint; sieve distill puts them in the evidence bundle); none kept when empty"},
	}
}

func run(c *cli.Context) error {
	if c.NArg() > 0 && !c.IsSet("warc") {
		return cliutil.Usagef("sieve-capture reads targets from stdin, one per line; unexpected argument %q", c.Args().First())
	}
	opts, err := OptionsFrom(c)
	if err != nil {
		return err
	}
	if opts.Browser.Blobs != "" {
		if err := os.MkdirAll(opts.Browser.Blobs, 0o755); err != nil {
			return cliutil.Usagef("--blobs: %v", err)
		}
	}
	if files := c.StringSlice("warc"); len(files) > 0 {
		return runWARC(c, opts, files)
	}
	cp := New(opts)
	// A second signal does not wait for Close: it gets its own short
	// chance to kill Chromium and remove the profile, until Close is done.
	unregister := cliutil.OnForcedExit(c.Context, cp.Abort)
	defer func() { cp.Close(); unregister() }()
	if err := cp.Ready(); err != nil {
		return err
	}
	base, err := ParseBaseURL(c.String("base-url"))
	if err != nil {
		return cliutil.Usagef("%v", err)
	}
	_, err = jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), BaseURL(cp.Stage(), base))
	return err
}

// OptionsFrom reads the Flags of a running command; invalid values are
// usage errors.
func OptionsFrom(c *cli.Context) (Options, error) {
	o := Options{
		Concurrency:    c.Int("concurrency"),
		PerHost:        c.Int("per-host"),
		Delay:          c.Duration("delay"),
		Timeout:        c.Duration("timeout"),
		ConnectTimeout: c.Duration("connect-timeout"),
		MaxBytes:       cliutil.SizeOf(c, "max-bytes"),
		IgnoreRobots:   c.Bool("ignore-robots"),
		AllowPrivate:   c.Bool("allow-private"),
		UserAgent:      c.String("user-agent"),
		Retries:        c.Int("retries"),
		MaxRetryWait:   c.Duration("max-retry-wait"),
		Tier:           c.String("tier"),
	}
	o.Browser = DefaultBrowserOptions()
	o.Browser.Bin = c.String("chromium")
	o.Browser.Timeout = c.Duration("render-timeout")
	o.Browser.Settle = c.Duration("settle")
	o.Browser.SweepSteps = c.Int("sweep-steps")
	o.Browser.RestartEvery = c.Int("restart-every")
	o.Browser.Blobs = c.String("blobs")
	o.Browser.HeapMB = c.Int("js-heap-mb")
	o.Browser.MemoryMB = c.Int("browser-memory-mb")
	addrs, err := ParseAllowAddrs(c.StringSlice("allow-addr"))
	if err != nil {
		return o, cliutil.Usagef("%v", err)
	}
	o.AllowAddrs = addrs
	if o.PDFPassword, err = password(c); err != nil {
		return o, err
	}
	return o, validate(o)
}

// password is --password, or the first line of --password-file (its line
// end removed); "" when neither is given. The errors never show it.
func password(c *cli.Context) (string, error) {
	switch {
	case c.IsSet("password") && c.IsSet("password-file"):
		return "", cliutil.Usagef("--password and --password-file: give one of them")
	case c.IsSet("password"):
		if c.String("password") == "" {
			return "", cliutil.Usagef("--password cannot be empty")
		}
		return c.String("password"), nil
	case !c.IsSet("password-file"):
		return "", nil
	}
	name := c.String("password-file")
	b, err := os.ReadFile(name)
	if err != nil {
		return "", cliutil.Usagef("--password-file: %v", unwrapPath(err))
	}
	line, _, _ := strings.Cut(string(b), "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", cliutil.Usagef("--password-file: the first line of %s is empty", name)
	}
	return line, nil
}

// unwrapPath is a file error without its operation: "open x: no such file
// or directory" becomes "x: no such file or directory".
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %v", pe.Path, pe.Err)
	}
	return err
}

func validate(o Options) error {
	switch {
	case o.Concurrency < 1:
		return cliutil.Usagef("--concurrency must be at least 1")
	case o.PerHost < 1:
		return cliutil.Usagef("--per-host must be at least 1")
	case o.Delay < 0 || o.MaxRetryWait < 0:
		return cliutil.Usagef("--delay and --max-retry-wait cannot be negative")
	case o.Timeout <= 0 || o.ConnectTimeout <= 0:
		return cliutil.Usagef("--timeout and --connect-timeout must be positive")
	case o.MaxBytes < 1:
		return cliutil.Usagef("--max-bytes must be at least 1")
	case o.Retries < 0:
		return cliutil.Usagef("--retries cannot be negative")
	case o.UserAgent == "":
		return cliutil.Usagef("--user-agent cannot be empty")
	case o.Tier != TierStatic && o.Tier != TierRender && o.Tier != TierAuto:
		return cliutil.Usagef("--tier must be static, render or auto, not %q", o.Tier)
	case o.Browser.Timeout <= 0 || o.Browser.Settle <= 0:
		return cliutil.Usagef("--render-timeout and --settle must be positive")
	case o.Browser.SweepSteps < 1 || o.Browser.RestartEvery < 1:
		return cliutil.Usagef("--sweep-steps and --restart-every must be at least 1")
	}
	return nil
}
