package frontier

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/distill"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/pdf"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/render"
)

// scopeFlags are the frontier's admission rules, shared by sieve crawl and
// sieve-frontier links.
func scopeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "scope", Value: ScopeHost, Usage: "which links to follow: host (the seeds' hosts), site (their registrable domains), prefix (URLs under a seed or --prefix), regex (--match), any"},
		&cli.StringSliceFlag{Name: "prefix", Usage: "--scope prefix: follow URLs starting with `URL` (repeatable; default: the seeds)"},
		&cli.StringFlag{Name: "match", Usage: "--scope regex: follow URLs matching `REGEX` (Go syntax, on the canonical URL)"},
		&cli.IntFlag{Name: "max-depth", Value: -1, Usage: "follow links at most `N` hops from a seed or sitemap page (-1: no limit)"},
		&cli.IntFlag{Name: "max-pages", Usage: "admit at most `N` URLs in all (0: no limit)"},
		&cli.BoolFlag{Name: "content-links", Usage: "follow links of content blocks only (default: every in-scope link, navigation and chrome included)"},
		&cli.StringFlag{Name: "shard", Usage: "take only the URLs whose host hashes to shard `I/N` (0-based), so N workers split a crawl by host"},
	}
}

func frontierFrom(c *cli.Context, seeds []string) (*Frontier, error) {
	sc, err := NewScope(c.String("scope"), seeds, c.StringSlice("prefix"), c.String("match"))
	if err != nil {
		return nil, cliutil.Usagef("%v", err)
	}
	sh, err := ParseShard(c.String("shard"))
	if err != nil {
		return nil, cliutil.Usagef("%v", err)
	}
	return &Frontier{Scope: sc, MaxDepth: c.Int("max-depth"), MaxPages: c.Int("max-pages"),
		ContentOnly: c.Bool("content-links"), Shard: sh}, nil
}

// CrawlCommand is `sieve crawl`.
func CrawlCommand() *cli.Command {
	flags := append(capture.Flags(), scopeFlags()...)
	flags = append(flags,
		&cli.StringFlag{Name: "out", Value: "artifacts", Usage: "write the artifact directories under `DIR`"},
		&cli.StringFlag{Name: "state", Usage: "keep the crawl's state (seen-set, done-log) in `DIR`, to resume (default: OUT/.crawl, or OUT/.crawl-I-of-N with --shard)"},
		&cli.BoolFlag{Name: "no-evidence", Usage: "do not write the EEF bundle (evidence/)"},
		&cli.BoolFlag{Name: "no-sitemaps", Usage: "do not read robots.txt Sitemap: lines, /sitemap.xml or feeds"},
		&cli.BoolFlag{Name: "no-links", Usage: "do not follow links (read the seeds and their sitemaps only)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress and no summary on stderr"},
		&cli.StringFlag{Name: "progress", Value: "auto", Usage: "`MODE`: live (a line rewritten in place), plain (a line every --progress-every), auto (live on a terminal, plain otherwise), none"},
		&cli.DurationFlag{Name: "progress-every", Value: 10 * time.Second, Usage: "interval of the plain progress lines"},
		&cli.BoolFlag{Name: "recrawl", Usage: "start over: clear the state directory first (the artifacts under --out stay, and pages read again are asked for with their ETag and Last-Modified)"},
		cliutil.FailOnFlag("not-ok", fmt.Sprintf("exit %d when a page's outcome is one of `OUTCOME,…` (not-ok: any but ok; none: never), as sieve distill", cliutil.ExitOutcome)),
	)
	flags = append(flags, distill.Flags()...)
	return &cli.Command{
		Name:  "crawl",
		Usage: "crawl sites from seed URLs into sieve artifacts, politely and resumably",
		UsageText: `sieve crawl [options] SEED...
sieve crawl [options] < seeds

Example:
   sieve crawl --delay 1s --out artifacts https://example.com/`,
		Description: `Reads each seed, the pages its site lists in sitemaps (robots.txt Sitemap:
lines, /sitemap.xml, sitemap indexes, gzip sitemaps, RSS and Atom feeds; a seed
that is itself a sitemap or feed URL is read as one) and every in-scope link of
every page read, once each, through capture, normalize, graph and render in one
process, and writes one artifact line per page to stdout.

One capturer serves the whole crawl, so --delay, --per-host, robots.txt
Crawl-delay and the robots.txt cache hold for every request to a host,
sitemaps included. URLs are compared in canonical form (scheme and host lower
case, no default port, no fragment, no tracking parameters; a page's
rel=canonical and final URL count as seen). The scope holds for every request:
a redirect hop or a page's navigation in the browser out of it is not followed
(the page is written as blocked, "redirected out of scope to URL"), and
sitemaps on other hosts are not read.

The state directory keeps the seen-set and the done-log: run the same command
again after an interruption and the crawl resumes with the pages admitted and
not yet written, none lost and none read twice. A page read again (a new
--state over the same --out) is asked for with the ETag and Last-Modified its
artifact keeps; a 304, or the same content_hash, leaves the artifact as it is
and the line says "unchanged": true (and "not_modified": true); a read
whose outcome is not ok, or that has no content (no blocks) where the artifact
has some, never replaces an ok artifact: the good one stays, the failure goes
beside it (reread-failed.json) and the record says both ("reread").

--shard I/N takes only the hosts of shard I of N (see pipelines/crawl-ssh.sh
for a crawl over many machines); in-scope links to other shards' hosts go to
STATE/foreign.tsv.

A crawl run to its end leaves nothing to resume: running it again says it is
already complete. --recrawl (or a new --state) reads the site again.

Exit status, as sieve distill's: 0 when every page read as ok; 1 when some
page became an error record; 13 when every page gave an artifact but some
outcome was not ok (blocked, partial, …; one line per such page on stderr;
--fail-on changes which outcomes count); 2 on bad usage; 130 when SIGINT or
SIGTERM stopped the crawl (pages in flight become "interrupted" error records
and are read by the next run).`,
		Flags:  flags,
		Action: crawl,
	}
}

func crawl(c *cli.Context) error {
	seeds := c.Args().Slice()
	if len(seeds) == 0 {
		var err error
		if seeds, err = readSeeds(cliutil.Stdin(c)); err != nil {
			return err
		}
	}
	if len(seeds) == 0 {
		return cliutil.Usagef("sieve crawl needs at least one seed URL (arguments or stdin)")
	}
	for _, s := range seeds {
		if _, ok := Canonical(s); !ok {
			return cliutil.Usagef("seed %q is not an http(s) URL", s)
		}
	}
	fr, err := frontierFrom(c, seeds)
	if err != nil {
		return err
	}
	out := c.String("out")
	if out == "" {
		return cliutil.Usagef("--out must name a directory")
	}
	state := c.String("state")
	if state == "" {
		state = filepath.Join(out, ".crawl")
		if fr.Shard.Of > 1 {
			state = filepath.Join(out, fmt.Sprintf(".crawl-%d-of-%d", fr.Shard.Index, fr.Shard.Of))
		}
	}
	failOn, err := cliutil.ParseOutcomes("fail-on", c.String("fail-on"))
	if err != nil {
		return err
	}
	if c.Bool("recrawl") {
		if err := os.RemoveAll(state); err != nil {
			return fmt.Errorf("--recrawl: clearing the state directory: %w", err)
		}
	}
	opts, err := capture.OptionsFrom(c)
	if err != nil {
		return err
	}
	nlim, glim, err := distill.LimitsFrom(c)
	if err != nil {
		return err
	}
	stderr := cliutil.Stderr(c)
	prog := progress(c, stderr)
	cp := capture.New(opts)
	// A second signal does not wait for Close: it gets its own short
	// chance to kill Chromium and remove the profile, until Close is done.
	unregister := cliutil.OnForcedExit(c.Context, cp.Abort)
	defer func() { cp.Close(); unregister() }()
	if err := cp.Ready(); err != nil {
		return err
	}
	// The run's end-of-run summary counts the pages by outcome.
	run := cliutil.RunOf(c)
	run.Manual()
	run.SetFailOn(failOn)
	k, err := NewCrawl(cp, Config{Out: out, State: state, NoEvidence: c.Bool("no-evidence"), Blobs: c.String("blobs"),
		Sitemaps: !c.Bool("no-sitemaps"), Links: !c.Bool("no-links"), Frontier: fr, Progress: prog, Report: run.Target,
		Normalize: nlim, Graph: glim})
	if err != nil {
		return err
	}
	defer k.Close()
	warn := io.Discard
	var logw io.Writer = stderr // the chain's lines, never inside a progress line
	if prog != nil {
		pending, done := k.Resumed()
		prog.SetTotals(pending+done, done)
		if done > 0 || pending > 0 {
			fmt.Fprintf(stderr, "sieve crawl: resuming %s: %d pages done, %d admitted and not written yet\n", state, done, pending)
		}
		prog.Start()
		defer prog.Stop()
		logw = prog.Writer()
		warn = prefixed{w: logw, prefix: "sieve crawl: "}
	}
	if !run.Quiet() {
		pdf.SetNotice(logw) // the first PDF read compiles the engine
	}
	_, before := k.Resumed()
	if err := k.Seed(c.Context, seeds, warn); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	if before > 0 && k.Pending() == 0 && !run.Quiet() {
		fmt.Fprintf(logw, "sieve crawl: %s: this crawl is already complete (%d pages done), nothing to read; re-crawl with --recrawl or a new --state DIR\n", state, before)
	}
	err = k.Run(c.Context, cliutil.Stdout(c), logw)
	if prog != nil {
		prog.Stop()
		prog.Summary(k.Pending())
		fmt.Fprintln(stderr, "sieve crawl: "+k.Changes().Line())
	}
	return err
}

type prefixed struct {
	w      io.Writer
	prefix string
}

func (p prefixed) Write(b []byte) (int, error) {
	// One write: a line is never split around a progress line.
	if _, err := p.w.Write(append([]byte(p.prefix), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

func progress(c *cli.Context, stderr io.Writer) *Progress {
	if c.Bool("quiet") {
		return nil
	}
	mode := c.String("progress")
	live := false
	switch mode {
	case "none":
		return NewProgress(stderr, "sieve crawl", false, 1<<62) // the summary only
	case "live":
		live = true
	case "auto":
		live = IsTerminal(stderr)
	}
	return NewProgress(stderr, "sieve crawl", live, c.Duration("progress-every"))
}

func readSeeds(r io.Reader) ([]string, error) {
	var seeds []string
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "{") {
			line = gjson.Get(line, "url").String()
		}
		seeds = append(seeds, line)
	}
	return seeds, sc.Err()
}

// Command is sieve-frontier: the frontier's stages for pipes and GNU
// parallel.
func Command() *cli.Command {
	return &cli.Command{
		Name:  "frontier",
		Usage: "turn records into the next URLs of a crawl: sitemaps, links, shards",
		Subcommands: []*cli.Command{
			sitemapCommand(),
			linksCommand(),
			shardCommand(),
			pendingCommand(),
			settleCommand(),
		},
	}
}

func sitemapCommand() *cli.Command {
	return &cli.Command{
		Name:      "sitemap",
		Usage:     "list the page URLs of sites' sitemaps and feeds",
		UsageText: "sieve-frontier sitemap [capture options] < sites > urls",
		Description: `Reads a site URL (https://example.com/) or a sitemap or feed URL per line and
writes the page URLs found, one {"url":…,"crawl_depth":0} line each, canonical
and each once. A site's sitemaps are its robots.txt Sitemap: lines, or
/sitemap.xml when there are none; sitemap indexes are followed, gzip sitemaps
unpacked, RSS and Atom feeds read. Fetches go through capture (robots.txt,
the address policy, --delay and --per-host).`,
		Flags: append(capture.Flags(), &cli.StringFlag{Name: "seen", Usage: "skip URLs listed in the seen-set `FILE`, and add those written"}),
		Action: func(c *cli.Context) error {
			opts, err := capture.OptionsFrom(c)
			if err != nil {
				return err
			}
			opts.Tier = capture.TierStatic
			cp := capture.New(opts)
			defer cp.Close()
			seen, err := OpenSet(c.String("seen"))
			if err != nil {
				return err
			}
			defer seen.Close()
			w := bufio.NewWriter(cliutil.Stdout(c))
			defer w.Flush()
			sites, err := readSeeds(cliutil.Stdin(c))
			if err != nil {
				return err
			}
			var werr error
			for _, s := range sites {
				d, err := Discover(c.Context, cp, s, func(u string) {
					cu, ok := Canonical(u)
					if !ok || werr != nil {
						return
					}
					if added, err := seen.Add(cu, 0); err != nil || !added {
						werr = err
						return
					}
					werr = writeItem(w, Item{URL: cu})
				})
				if err != nil {
					if c.Context.Err() != nil {
						return err
					}
					fmt.Fprintf(cliutil.Stderr(c), "sieve-frontier sitemap: %s: %v\n", s, err)
				}
				for _, f := range d.Failed {
					fmt.Fprintf(cliutil.Stderr(c), "sieve-frontier sitemap: %s\n", f)
				}
				if werr != nil {
					return werr
				}
			}
			return nil
		},
	}
}

func writeItem(w io.Writer, it Item) error {
	b, err := codec.Marshal(it)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func linksCommand() *cli.Command {
	return &cli.Command{
		Name:      "links",
		Usage:     "list the new in-scope links of graph or artifact records",
		UsageText: "sieve-frontier links --seen FILE --seed URL [scope options] < graph-or-artifact.jsonl > urls",
		Description: `Reads graph records (sieve-graph) or artifact records (sieve-render: the links
are read from DIR/content.json) and writes each link that is in scope, within
--max-depth and --max-pages, owned by --shard and not in the seen-set, as a
{"url":…,"crawl_depth":N} line, which sieve-capture takes as input (the depth
rides along to the next artifact record). The seen-set FILE is created and
grown, so repeated rounds never write a URL twice. Links with rel=nofollow are
not followed. Other records are skipped.`,
		Flags: append(scopeFlags(),
			&cli.StringSliceFlag{Name: "seed", Usage: "a seed `URL` the scope is built from (repeatable; default: each record's own URL widens a host or site scope)"},
			&cli.StringFlag{Name: "seen", Usage: "the seen-set `FILE` (default: in memory, for this run)"},
		),
		Action: func(c *cli.Context) error {
			fr, err := frontierFrom(c, c.StringSlice("seed"))
			if err != nil {
				return err
			}
			if fr.Seen, err = OpenSet(c.String("seen")); err != nil {
				return err
			}
			defer fr.Seen.Close()
			widen := len(c.StringSlice("seed")) == 0
			w := bufio.NewWriter(cliutil.Stdout(c))
			defer w.Flush()
			return eachLine(c.Context, cliutil.Stdin(c), func(line []byte) error {
				line, err := graphOf(line)
				if err != nil || line == nil {
					if err != nil {
						fmt.Fprintf(cliutil.Stderr(c), "sieve-frontier links: %v\n", err)
					}
					return nil
				}
				u := gjson.GetBytes(line, "url").String()
				if cu, ok := Canonical(u); ok {
					if widen {
						fr.Scope.AddSeed(cu)
					}
					fr.Mark(cu, 0)
				}
				items, err := fr.FromGraph(line, int(gjson.GetBytes(line, DepthKey).Int()))
				for _, it := range items {
					if err := writeItem(w, it); err != nil {
						return err
					}
				}
				if err != nil {
					return err
				}
				return w.Flush()
			})
		},
	}
}

// graphOf returns a graph record line, reading an artifact record's
// content.json (with the record's crawl depth), or nil for other records.
func graphOf(line []byte) ([]byte, error) {
	switch gjson.GetBytes(line, "record").String() {
	case "graph":
		return line, nil
	case "artifact":
		dir := gjson.GetBytes(line, "dir").String()
		b, err := os.ReadFile(filepath.Join(dir, render.FileContent))
		if err != nil {
			return nil, err
		}
		d := gjson.GetBytes(line, DepthKey).Int()
		links := gjson.GetBytes(b, "links").Raw
		final := gjson.GetBytes(b, "final_url").String()
		rec := map[string]any{"url": gjson.GetBytes(line, "url").String(), "final_url": final, DepthKey: d}
		if c := gjson.GetBytes(line, CanonicalKey).String(); c != "" {
			rec[CanonicalKey] = c
		}
		out, err := codec.Marshal(rec)
		if err != nil {
			return nil, err
		}
		if links == "" {
			links = "[]"
		}
		return append(append(out[:len(out)-1], `,"links":`...), append([]byte(links), '}')...), nil
	}
	return nil, nil
}

func eachLine(ctx context.Context, r io.Reader, fn func([]byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		line, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			if ferr := fn(line); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func shardCommand() *cli.Command {
	return &cli.Command{
		Name:      "shard",
		Usage:     "keep the lines of one shard, or prefix each line with its shard",
		UsageText: "sieve-frontier shard --of N (--index I | --key) < urls",
		Description: `Splits URL lines (bare, or JSON with "url") by host, so that every URL of one
host goes to one worker and capture's per-host delay, concurrency cap,
Crawl-delay and robots.txt cache hold for the whole crawl. --index I keeps the
lines of shard I (0-based); --key writes "SHARD<TAB>LINE" for GNU parallel's
--shard 1 --colsep '\t' (the worker drops the column with cut -f2-).`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "of", Value: 1, Usage: "`N` shards"},
			&cli.IntFlag{Name: "index", Value: -1, Usage: "keep shard `I`"},
			&cli.BoolFlag{Name: "key", Usage: "prefix each line with its shard number and a tab"},
		},
		Action: func(c *cli.Context) error {
			n, i, key := c.Int("of"), c.Int("index"), c.Bool("key")
			if n < 1 || (!key && (i < 0 || i >= n)) || (key && i >= 0) {
				return cliutil.Usagef("give --of N (N >= 1) and either --index I (0 <= I < N) or --key")
			}
			w := bufio.NewWriter(cliutil.Stdout(c))
			defer w.Flush()
			return eachLine(c.Context, cliutil.Stdin(c), func(line []byte) error {
				s := strings.TrimSpace(string(line))
				u := s
				if strings.HasPrefix(s, "{") {
					u = gjson.Get(s, "url").String()
				}
				sh := ShardOf(u, n)
				switch {
				case key:
					_, err := fmt.Fprintf(w, "%d\t%s\n", sh, s)
					return err
				case sh == i:
					_, err := fmt.Fprintln(w, s)
					return err
				}
				return nil
			})
		},
	}
}

func pendingCommand() *cli.Command {
	return &cli.Command{
		Name:      "pending",
		Usage:     "drop the URLs whose artifact is already written",
		UsageText: "sieve-frontier pending --out DIR < urls > urls-to-do",
		Description: `Passes the URL lines (bare, or JSON with "url") whose artifact directory under
--out holds no manifest.json yet: the skip that lets a batch re-run after an
interruption read only what is missing.`,
		Flags: []cli.Flag{&cli.StringFlag{Name: "out", Value: "artifacts", Usage: "the artifact `DIR`"}},
		Action: func(c *cli.Context) error {
			out := c.String("out")
			w := bufio.NewWriter(cliutil.Stdout(c))
			defer w.Flush()
			return eachLine(c.Context, cliutil.Stdin(c), func(line []byte) error {
				s := strings.TrimSpace(string(line))
				u := s
				if strings.HasPrefix(s, "{") {
					u = gjson.Get(s, "url").String()
				}
				if rel, err := render.Dir(u); err == nil {
					if _, err := os.Stat(filepath.Join(out, rel, render.FileManifest)); err == nil {
						return nil
					}
				}
				_, err := fmt.Fprintln(w, s)
				return err
			})
		},
	}
}

func settleCommand() *cli.Command {
	return &cli.Command{
		Name:      "settle",
		Usage:     "write artifacts like sieve-render, never replacing a good one with a failed re-read",
		UsageText: "sieve-frontier settle [--out DIR] < graph.jsonl > artifacts.jsonl",
		Description: `A drop-in for sieve-render in batches that are run again: reads graph records
and writes one artifact directory per record under --out and one artifact line
per record, as sieve-render does, except where an artifact of the same URL is
already there: the same content_hash and outcome leave it untouched (the line
says "unchanged": true), and a record whose outcome is not ok, or that has no
blocks where the artifact has some (an empty page reads ok), never replaces
an ok (or partial) artifact: the good one stays, the failure is written into
its directory as reread-failed.json, and the line is the kept artifact's with
"reread": {"kept": true, "outcome": …} ("empty": true for an empty read).
Other records pass through.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "artifacts", Usage: "write artifacts under `DIR`"},
			&cli.BoolFlag{Name: "no-evidence", Usage: "do not write the EEF bundle (evidence/)"},
			&cli.StringFlag{Name: "blobs", Usage: "the capture's blob store `DIR` (capture --blobs): a page's source bytes found there go into its bundle as evidence/source.html or source.pdf"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliutil.Usagef("unexpected argument %q: sieve-frontier settle reads graph records on stdin", c.Args().First())
			}
			opts := render.Options{Out: c.String("out"), NoEvidence: c.Bool("no-evidence"), Blobs: c.String("blobs")}
			if opts.Out == "" {
				return cliutil.Usagef("--out must name a directory")
			}
			_, err := jsonl.Run(c.Context, cliutil.Stdin(c), cliutil.Stdout(c), cliutil.Stderr(c), jsonl.Stage{
				Name:   "render",
				Accept: []string{record.KindGraph},
				Transform: func(ctx context.Context, line []byte) ([]byte, error) {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					return Settle(ctx, opts, line)
				},
			})
			return err
		},
	}
}
