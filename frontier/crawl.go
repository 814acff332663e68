package frontier

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/distill"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// State files of a crawl, under Config.State.
const (
	FileSeen    = "seen.tsv"    // every URL admitted: DEPTH<TAB>URL
	FileDone    = "done.tsv"    // every URL whose record was written
	FileForeign = "foreign.tsv" // in-scope URLs another shard owns
)

// Config is one crawl.
type Config struct {
	Out        string // artifact directories
	State      string // the crawl's state directory (seen-set, done-log)
	NoEvidence bool
	// Blobs is the capture's blob store (--blobs): a page's source bytes
	// found there go into its evidence bundle, as sieve distill puts them.
	Blobs    string
	Sitemaps bool // discover pages from robots.txt Sitemap: lines, /sitemap.xml and feeds
	Links    bool // follow links from the pages read
	Frontier *Frontier
	Progress *Progress // nil: silent
	// Report, when set, gets each page written: its URL, outcome
	// ("unchanged", "error", …) and the error of an error record.
	Report func(url, outcome, evidence string)
	// Normalize and Graph are the chain's size budgets (--max-nodes,
	// --max-blocks, --max-latent), as sieve distill has them; zero values
	// are the defaults.
	Normalize normalize.Limits
	Graph     graph.Limits
}

// Crawl is one run of the crawl loop on one machine.
type Crawl struct {
	cfg  Config
	cp   *capture.Capturer
	fr   *Frontier
	done *Set

	mu          sync.Mutex
	cond        *sync.Cond
	queue       []Item
	fed         []Item // fed to the chain, not yet written, in order
	outstanding int
	stopped     bool
	foreign     *os.File
	changes     Changes // pages written by change status
}

// NewCrawl opens (or resumes) the crawl whose state is in cfg.State.
func NewCrawl(cp *capture.Capturer, cfg Config) (*Crawl, error) {
	if err := os.MkdirAll(cfg.State, 0o755); err != nil {
		return nil, err
	}
	seen, err := OpenSet(filepath.Join(cfg.State, FileSeen))
	if err != nil {
		return nil, err
	}
	done, err := OpenSet(filepath.Join(cfg.State, FileDone))
	if err != nil {
		seen.Close()
		return nil, err
	}
	k := &Crawl{cfg: cfg, cp: cp, done: done, changes: Changes{}}
	k.cond = sync.NewCond(&k.mu)
	k.fr = cfg.Frontier
	k.fr.Seen = seen
	if k.fr.Shard.Of > 1 {
		f, err := os.OpenFile(filepath.Join(cfg.State, FileForeign), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			k.Close()
			return nil, err
		}
		k.foreign = f
		k.fr.Foreign = func(c string, depth int) {
			k.mu.Lock()
			defer k.mu.Unlock()
			fmt.Fprintf(k.foreign, "%d\t%s\n", depth, c)
		}
	}
	// Resume: what was admitted and not written yet, in admission order.
	seen.Each(func(u string, d int) {
		if !done.Has(u) {
			k.queue = append(k.queue, Item{URL: u, Depth: d})
		}
	})
	return k, nil
}

// Close closes the state files.
func (k *Crawl) Close() error {
	err := errors.Join(k.fr.Seen.Close(), k.done.Close())
	if k.foreign != nil {
		err = errors.Join(err, k.foreign.Close())
	}
	return err
}

// Resumed is how many admitted URLs were waiting from an earlier run, and
// how many were already done.
func (k *Crawl) Resumed() (pending, done int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.queue), k.done.Len()
}

// admit offers u at depth and queues it when admitted.
func (k *Crawl) admit(u string, depth int) error {
	c, why, err := k.fr.Offer(u, depth)
	if err != nil || why != "" {
		return err
	}
	k.push(Item{URL: c, Depth: depth})
	return nil
}

func (k *Crawl) push(items ...Item) {
	if len(items) == 0 {
		return
	}
	k.mu.Lock()
	k.queue = append(k.queue, items...)
	k.mu.Unlock()
	k.cond.Broadcast()
	if p := k.cfg.Progress; p != nil {
		p.Admitted(len(items))
	}
}

// Seed admits the seeds, then (with Sitemaps) the pages each seed's site
// lists in its sitemaps and feeds.
func (k *Crawl) Seed(ctx context.Context, seeds []string, warn io.Writer) error {
	for _, s := range seeds {
		if c, ok := Canonical(s); ok && !k.fr.Shard.Owns(c) {
			continue // another shard's seed: not a foreign link
		}
		if err := k.admit(s, 0); err != nil {
			return err
		}
	}
	if !k.cfg.Sitemaps {
		return nil
	}
	origins := map[string]bool{}
	for _, s := range seeds {
		c, ok := Canonical(s)
		if !ok {
			continue
		}
		u, _ := url.Parse(c)
		root := u.Scheme + "://" + u.Host + "/"
		if !k.fr.Shard.Owns(root) {
			continue
		}
		start := root
		if !origins[root] {
			origins[root] = true
		} else if !looksLikeFeed(u.Path) {
			continue
		}
		if looksLikeFeed(u.Path) {
			start = c
		}
		var emitErr error
		d, err := Discover(k.siteScoped(ctx), k.cp, start, func(p string) {
			if emitErr == nil {
				emitErr = k.admit(p, 0)
			}
		})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintf(warn, "sitemaps of %s: %v\n", start, err)
		}
		if emitErr != nil {
			return emitErr
		}
		if p := k.cfg.Progress; p != nil {
			p.Sitemaps(d.Sitemaps)
		}
		for _, f := range d.Failed {
			if !strings.HasSuffix(f, "HTTP 404") {
				fmt.Fprintf(warn, "sitemap %s\n", f)
			}
		}
	}
	return nil
}

// scoped is ctx with the crawl's scope for capture: no page read requests
// a URL out of it, redirect hops and the browser's navigations included.
func (k *Crawl) scoped(ctx context.Context) context.Context {
	if k.fr.Scope == nil {
		return ctx
	}
	return capture.WithScope(ctx, k.fr.Scope.Check)
}

// siteScoped is ctx with the scope of the sites' own files (sitemaps,
// feeds) for capture.Fetch.
func (k *Crawl) siteScoped(ctx context.Context) context.Context {
	if k.fr.Scope == nil {
		return ctx
	}
	return capture.WithScope(ctx, k.fr.Scope.CheckSite)
}

func looksLikeFeed(p string) bool {
	p = strings.ToLower(p)
	for _, s := range []string{".xml", ".xml.gz", ".rss", ".atom", "/feed", "/rss", "/atom", ".txt"} {
		if strings.HasSuffix(p, s) {
			return true
		}
	}
	return false
}

// Run reads every admitted page, following links as it goes, until the
// frontier is empty or ctx is done, and writes one artifact record (or
// error record) per page to w. It returns jsonl.Run's error: one wrapping
// jsonl.ErrInterrupted when ctx ended the crawl first (the pages in flight
// stay undone, for the next run), or jsonl.ErrFailedLines when some page
// became an error record.
func (k *Crawl) Run(ctx context.Context, w, stderr io.Writer) error {
	capt := k.captureStage()
	ch := distill.Chain{Capturer: k.cp, Normalize: k.cfg.Normalize, Graph: k.cfg.Graph}
	// A crawl line carries its depth (a field of its own), so the chain
	// runs on JSON lines, the fields riding along as sieve distill's do.
	chain := ch.Stages("crawl", distill.Parts{Capture: &capt, AfterNormalize: []jsonl.Stage{canonicalStage()}, Render: k.pageStage()})
	pr, pw := io.Pipe()
	go k.feed(pw)
	out := &jsonl.LineSplitter{Line: (&crawlWriter{k: k, w: w}).line}
	_, err := jsonl.Run(ctx, pr, out, stderr, chain)
	k.mu.Lock()
	k.stopped = true
	k.mu.Unlock()
	k.cond.Broadcast()
	pr.Close() // unblocks a feed write nobody will read
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if (err == nil || errors.Is(err, jsonl.ErrFailedLines)) && ctx.Err() == nil {
		if gerr := k.gone(w); gerr != nil {
			err = gerr
		}
	}
	return err
}

// Changes counts the pages written so far by change status.
func (k *Crawl) Changes() Changes {
	k.mu.Lock()
	defer k.mu.Unlock()
	c := Changes{}
	for s, n := range k.changes {
		c[s] = n
	}
	return c
}

// gone writes a line for every artifact under Out from an earlier crawl
// that this one, run to its end, did not reach: in its scope and shard,
// neither admitted nor written. Its artifact stays as it is. A crawl cut
// short by --max-pages or --max-depth does not say: what it did not reach
// may still be there.
func (k *Crawl) gone(w io.Writer) error {
	if k.fr.MaxDepth >= 0 || (k.fr.MaxPages > 0 && k.fr.Seen.Len() >= k.fr.MaxPages) {
		return nil
	}
	for _, dir := range goneDirs(k.cfg.Out) {
		c, ok := Canonical(manifestURL(dir))
		if !ok || (k.fr.Scope != nil && !k.fr.Scope.In(c)) || !k.fr.Shard.Owns(c) || k.fr.Seen.Has(c) || k.done.Has(c) {
			continue
		}
		old, ok := readManifest(dir)
		if !ok {
			continue
		}
		line, err := codec.Marshal(settled{Artifact: old.artifact(c, dir), Change: newChange(ChangeGone, old.ContentHash)})
		if err != nil {
			return err
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
		if _, err := k.done.Add(c, 0); err != nil {
			return err
		}
		k.mu.Lock()
		k.changes[ChangeGone]++
		k.mu.Unlock()
	}
	return nil
}

// feed writes queued items to the chain's input, and closes it when the
// queue is empty and no page in flight can add to it.
func (k *Crawl) feed(pw *io.PipeWriter) {
	for {
		k.mu.Lock()
		for len(k.queue) == 0 && k.outstanding > 0 && !k.stopped {
			k.cond.Wait()
		}
		if len(k.queue) == 0 || k.stopped {
			k.mu.Unlock()
			pw.Close()
			return
		}
		it := k.queue[0]
		k.queue = k.queue[1:]
		k.fed = append(k.fed, it)
		k.outstanding++
		k.mu.Unlock()
		line, _ := codec.Marshal(it)
		if _, err := pw.Write(append(line, '\n')); err != nil {
			return
		}
	}
}

// Pending is how many admitted pages are not written yet.
func (k *Crawl) Pending() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.queue) + k.outstanding
}

// crawlWriter receives the chain's output lines, in feed order.
type crawlWriter struct {
	k *Crawl
	w io.Writer
}

func (cw *crawlWriter) line(line []byte) error {
	k := cw.k
	k.mu.Lock()
	var it Item
	if len(k.fed) > 0 {
		it = k.fed[0]
		k.fed = k.fed[1:]
	}
	k.mu.Unlock()
	kind := record.Kind(line)
	outcome := gjson.GetBytes(line, "outcome").String()
	interrupted := false
	switch kind {
	case record.KindArtifact:
		if gjson.GetBytes(line, "unchanged").Bool() {
			outcome = "unchanged"
		}
		switch {
		case gjson.GetBytes(line, "reread.empty").Bool():
			outcome = "kept (re-read empty)"
		case gjson.GetBytes(line, "reread.kept").Bool():
			outcome = "kept (re-read " + gjson.GetBytes(line, "reread.outcome").String() + ")"
		}
	case record.KindError:
		outcome = "error"
		interrupted = strings.HasPrefix(gjson.GetBytes(line, "error").String(), "interrupted")
	default:
		outcome = kind
	}
	if _, err := cw.w.Write(line); err != nil {
		return err
	}
	if ch := gjson.GetBytes(line, "change.status").String(); ch != "" {
		k.mu.Lock()
		k.changes[ch]++
		k.mu.Unlock()
	}
	if !interrupted && it.URL != "" {
		if _, err := k.done.Add(it.URL, it.Depth); err != nil {
			return err
		}
	}
	if p := k.cfg.Progress; p != nil && !interrupted {
		p.Done(outcome, HostKey(it.URL))
	}
	if r := k.cfg.Report; r != nil {
		r(it.URL, outcome, reportEvidence(kind, line))
	}
	k.mu.Lock()
	k.outstanding--
	k.mu.Unlock()
	k.cond.Broadcast()
	return nil
}

// canonicalStage copies a normalized record's <link rel=canonical> to the
// top level (CanonicalKey), where graph passes it through to the frontier.
func canonicalStage() jsonl.Stage {
	return jsonl.Stage{
		Name:   "normalize",
		Accept: []string{record.KindNormalized},
		Transform: func(_ context.Context, line []byte) ([]byte, error) {
			c := gjson.GetBytes(line, "doc.canonical").String()
			if c == "" {
				return line, nil
			}
			return addField(line, CanonicalKey, c)
		},
	}
}

// addField appends "key": v to the JSON object line.
func addField(line []byte, key string, v any) ([]byte, error) {
	line = bytes.TrimRight(line, " \r\n")
	if !bytes.HasSuffix(line, []byte("}")) {
		return nil, errors.New("not a JSON object")
	}
	b, err := codec.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(line)+len(key)+len(b)+8)
	out = append(out, line[:len(line)-1]...)
	if !bytes.HasSuffix(bytes.TrimRight(out, " \r\n\t"), []byte("{")) {
		out = append(out, ',')
	}
	out = append(out, '"')
	out = append(out, key...)
	out = append(out, `":`...)
	out = append(out, b...)
	return append(out, '}'), nil
}

// Record kinds and fields of the crawl's own.
const (
	// kindNotModified stands for a capture the server answered 304 Not
	// Modified (to the validators of the artifact already written); the
	// later stages pass it through to pageStage.
	kindNotModified = "crawl.not_modified"
	// ValidatorsKey carries the response's ETag and Last-Modified from
	// capture to the artifact (FileValidators).
	ValidatorsKey = "crawl_validators"
	// FileValidators, in an artifact directory written by sieve crawl,
	// keeps the page's validators for the next crawl's conditional request.
	FileValidators = "validators.json"
)

// captureStage is capture in the crawl's scope (a redirect out of it is
// not followed: the page is an out_of_scope blocked read) with conditional
// requests: a page with an artifact and validators from an earlier crawl
// is asked for with If-None-Match / If-Modified-Since, and a 304 becomes
// kindNotModified.
func (k *Crawl) captureStage() jsonl.Stage {
	st := k.cp.Stage()
	st.Transform = func(ctx context.Context, line []byte) ([]byte, error) {
		t, err := capture.ParseTarget(line)
		if err != nil {
			return nil, err
		}
		cond := &capture.Conditional{URL: t.URL}
		dir := ""
		if rel, err := render.Dir(t.URL); err == nil {
			dir = filepath.Join(k.cfg.Out, rel)
			cond.Send = readValidators(dir)
		}
		rec := k.cp.Capture(capture.WithConditional(k.scoped(ctx), cond), t)
		if rec.Status == http.StatusNotModified && rec.Error == nil && cond.Send != (capture.Validators{}) {
			if _, ok := readManifest(dir); ok {
				out, err := codec.Marshal(map[string]string{"record": kindNotModified, "schema_version": record.SchemaVersion, "url": t.URL})
				if err != nil {
					return nil, err
				}
				return record.Passthrough(out, line, record.Keys("url")), nil
			}
		}
		out, err := codec.Marshal(rec)
		if err != nil {
			return nil, err
		}
		if t.Object {
			out = record.Passthrough(out, line, record.Keys("url"))
		}
		if v := cond.Got(); v != (capture.Validators{}) && rec.Error == nil && rec.Status/100 == 2 {
			return addField(out, ValidatorsKey, v)
		}
		return out, nil
	}
	return st
}

func readValidators(dir string) capture.Validators {
	var v capture.Validators
	if b, err := os.ReadFile(filepath.Join(dir, FileValidators)); err == nil {
		codec.Unmarshal(b, &v)
	}
	return v
}

// pageStage is the crawl's last stage: it admits the page's links, then
// writes the artifact as render does — except that an unchanged page is
// not rewritten and a failed re-read does not replace a good artifact.
func (k *Crawl) pageStage() jsonl.Stage {
	opts := render.Options{Out: k.cfg.Out, NoEvidence: k.cfg.NoEvidence, Blobs: k.cfg.Blobs}
	return jsonl.Stage{
		Name:   "render",
		Accept: []string{record.KindGraph, kindNotModified},
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			depth := int(gjson.GetBytes(line, DepthKey).Int())
			if record.Kind(line) == kindNotModified {
				return k.notModified(line, depth)
			}
			if k.cfg.Links {
				items, err := k.fr.FromGraph(line, depth)
				if err != nil {
					return nil, err
				}
				k.push(items...)
			}
			return Settle(ctx, opts, line)
		},
	}
}

// notModified is the line of a page the server said has not changed: the
// artifact already written, "unchanged" and "not_modified"; its links (from
// its content.json) are followed as if it had been read.
func (k *Crawl) notModified(line []byte, depth int) ([]byte, error) {
	u := gjson.GetBytes(line, "url").String()
	rel, err := render.Dir(u)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(k.cfg.Out, rel)
	old, ok := readManifest(dir)
	if !ok {
		return nil, fmt.Errorf("304 Not Modified for %s, and its artifact is gone", u)
	}
	if k.cfg.Links {
		art, err := codec.Marshal(map[string]any{"record": record.KindArtifact, "url": u, "dir": dir, DepthKey: depth})
		if err != nil {
			return nil, err
		}
		g, err := graphOf(art)
		if err != nil {
			return nil, err
		}
		items, err := k.fr.FromGraph(g, depth)
		if err != nil {
			return nil, err
		}
		k.push(items...)
	}
	out, err := codec.Marshal(settled{Artifact: old.artifact(u, dir), Unchanged: true, NotModified: true,
		Change: newChange(ChangeUnchanged, old.ContentHash)})
	if err != nil {
		return nil, err
	}
	return record.Passthrough(out, line, record.Keys("record", "schema_version", "url")), nil
}

// graphKeys are the graph record's own keys (the rest ride along).
var graphKeys = record.FieldsOf[graph.Record]()

// Reread is what a later read of a page gave when it was not used: the
// good artifact was kept, and this is the failure beside it.
type Reread struct {
	Kept    bool   `json:"kept"`
	Outcome string `json:"outcome"`
	// Empty: the read came back with no content (no blocks) where the kept
	// artifact has some; its outcome may be ok (an empty served document).
	Empty      bool     `json:"empty,omitempty"`
	Evidence   []string `json:"evidence"`
	HTTPStatus int      `json:"http_status"`
	At         string   `json:"at"`
	File       string   `json:"file"` // the failure, recorded in the artifact directory
}

// settled is the artifact record sieve crawl writes.
type settled struct {
	render.Artifact
	Unchanged   bool    `json:"unchanged,omitempty"`
	NotModified bool    `json:"not_modified,omitempty"` // the server answered 304 to the validators
	Reread      *Reread `json:"reread,omitempty"`
	Change      *Change `json:"change,omitempty"` // the page against the artifact found (change.go)
}

// FileRereadFailed is the file, inside a kept artifact directory, that
// records the last failed re-read.
const FileRereadFailed = "reread-failed.json"

// Settle writes the artifact of one graph record line like render.Transform,
// with two exceptions for a page read before (an artifact is already in
// its directory): the same content_hash and outcome leave the artifact as
// it is ("unchanged": true), and a read whose outcome is not ok, or that
// has no content (no blocks) where the artifact has some, does not
// replace an ok or partial artifact: the good one stays, the failure is
// written beside it (reread-failed.json) and the record says both. The
// page's validators (ValidatorsKey, from sieve crawl's capture) are kept in
// the directory (validators.json) for the next crawl's conditional request.
// The record's change says what the read is against the artifact found
// (change.go): new, unchanged, changed (the earlier read kept in
// previous/, its diff in diff.json, the sections by id in the record),
// or, for a failed re-read, gone (404, 410) or blocked_now.
func Settle(ctx context.Context, opts render.Options, line []byte) ([]byte, error) {
	var rec graph.Record
	if err := codec.Unmarshal(line, &rec); err != nil {
		return nil, fmt.Errorf("decoding graph record: %w", err)
	}
	rel, err := render.Dir(rec.URL)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(opts.Out, rel)
	old, hasOld := readManifest(dir)
	var res settled
	switch {
	case hasOld && old.ContentHash == rec.ContentHash && old.Outcome.Status == rec.Outcome.Status:
		res.Artifact = old.artifact(rec.URL, dir)
		res.Unchanged, res.Change = true, newChange(ChangeUnchanged, old.ContentHash)
	case hasOld && good(old.Outcome.Status) && (!good(rec.Outcome.Status) || emptied(old, &rec)):
		rr := &Reread{Kept: true, Outcome: rec.Outcome.Status, Empty: emptied(old, &rec), Evidence: rec.Outcome.Evidence,
			HTTPStatus: rec.Outcome.HTTPStatus, At: rec.DistilledAt, File: filepath.Join(dir, FileRereadFailed)}
		if err := writeFileAtomic(rr.File, rr); err != nil {
			return nil, err
		}
		res.Artifact, res.Reread = old.artifact(rec.URL, dir), rr
		res.Change = newChange(rereadChange(rr), old.ContentHash)
	default:
		var prev previous
		if hasOld {
			prev = readPrevious(dir)
		}
		a, err := render.WriteContext(ctx, opts, &rec)
		if err != nil {
			return nil, err
		}
		res.Artifact, res.Change = a, newChange(ChangeNew, "")
		if hasOld {
			if res.Change, err = changed(dir, old.ContentHash, prev, &rec); err != nil {
				return nil, err
			}
		}
	}
	if v := gjson.GetBytes(line, ValidatorsKey); v.IsObject() && res.Reread == nil {
		var val capture.Validators
		if err := codec.Unmarshal([]byte(v.Raw), &val); err == nil {
			if err := writeFileAtomic(filepath.Join(dir, FileValidators), val); err != nil {
				return nil, err
			}
		}
	}
	out, err := codec.Marshal(res)
	if err != nil {
		return nil, err
	}
	return record.Passthrough(out, line, func(k string) bool { return graphKeys(k) || k == ValidatorsKey }), nil
}

func good(status string) bool { return status == graph.StatusOK || status == graph.StatusPartial }

// emptied reports whether rec, a re-read, has no content where the
// artifact old has some: an empty served document reads ok, yet it is no
// better a replacement for the page than a failed read.
func emptied(old manifest, rec *graph.Record) bool {
	return old.Counts.Blocks > 0 && rec.Counts.Blocks == 0
}

type manifest struct {
	Outcome struct {
		Status   string   `json:"status"`
		Evidence []string `json:"evidence"`
	} `json:"outcome"`
	ContentHash string `json:"content_hash"`
	Counts      struct {
		Blocks int `json:"blocks"`
	} `json:"counts"`
}

// reportEvidence is the why of a page line on stderr, as sieve distill
// gives it: an error record's error, a kept artifact's failed re-read, or
// the first evidence line of a written artifact whose outcome is not ok
// (read back from its manifest.json; the artifact line carries none).
func reportEvidence(kind string, line []byte) string {
	switch {
	case kind == record.KindError:
		return gjson.GetBytes(line, "error").String()
	case kind != record.KindArtifact:
		return ""
	case gjson.GetBytes(line, "reread.kept").Bool():
		return gjson.GetBytes(line, "reread.evidence.0").String()
	case gjson.GetBytes(line, "outcome").String() == graph.StatusOK:
		return ""
	}
	m, ok := readManifest(gjson.GetBytes(line, "dir").String())
	if !ok || len(m.Outcome.Evidence) == 0 {
		return ""
	}
	return m.Outcome.Evidence[0]
}

func (m manifest) artifact(u, dir string) render.Artifact {
	return render.Artifact{Record: record.KindArtifact, SchemaVersion: record.SchemaVersion,
		URL: u, Dir: dir, Outcome: m.Outcome.Status, ContentHash: m.ContentHash}
}

func readManifest(dir string) (manifest, bool) {
	var m manifest
	b, err := os.ReadFile(filepath.Join(dir, render.FileManifest))
	if err != nil || codec.Unmarshal(b, &m) != nil || m.Outcome.Status == "" {
		return m, false
	}
	return m, true
}

func writeFileAtomic(path string, v any) error {
	b, err := codec.Marshal(v)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
