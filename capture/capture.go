package capture

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/sieve-dev/sieve/internal/blob"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/version"
)

// TierStatic names the plain-HTTP capture tier.
const TierStatic = "static"

// Capturer fetches targets. It is safe for concurrent use: per-host limits,
// pacing and the robots.txt cache are shared by all its captures.
type Capturer struct {
	opts         Options
	trace        Trace
	transport    *http.Transport
	client       *http.Client // follows no redirects: captureHTTP walks them
	robotsClient *http.Client
	hosts        *hostGates
	robots       *robotsCache
	scans        sync.Map // *Record → its PDF's bytes, while its scanned pages wait for OCR (pdf_ocr.go)

	// deny is the address policy, asked about every resolved address and
	// port at dial time (so also after redirects, and for every request the
	// browser makes); nil allows every address.
	deny func(netip.AddrPort) bool
	// lookup resolves a host name to addresses.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)

	browser *Browser    // render and auto tiers; started on first use
	blobs   *blob.Store // screenshots and PDF source bytes; nil when none are kept
}

// New returns a Capturer for opts (zero limits take the defaults).
func New(opts Options) *Capturer {
	opts = opts.withDefaults()
	c := &Capturer{
		opts:   opts,
		hosts:  newHostGates(opts.PerHost),
		robots: &robotsCache{m: map[string]*robotsEntry{}},
		lookup: defaultLookup,
	}
	if !opts.AllowPrivate {
		c.deny = newAddrPolicy(opts).denied
	}
	// No proxy: a proxy would resolve and connect on our behalf, past the
	// address policy. Compression is decoded by readBody, under the cap.
	c.transport = &http.Transport{
		DialContext:         c.dial,
		TLSHandshakeTimeout: opts.ConnectTimeout,
		DisableCompression:  true,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: opts.PerHost,
		IdleConnTimeout:     90 * time.Second,
	}
	c.client = &http.Client{
		Transport:     c.transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	c.robotsClient = &http.Client{Transport: c.transport}
	c.trace = newTrace(opts)
	if opts.Tier != TierStatic {
		c.browser = NewBrowser(opts.Browser, opts.Concurrency)
		c.browser.SetDialer(c.dial)
	}
	if opts.Browser.Blobs != "" {
		c.blobs, _ = blob.Open(opts.Browser.Blobs) // the command checked it; nil keeps no screenshots or PDFs
	}
	return c
}

// Browser is the render tier's browser, nil for --tier static.
func (c *Capturer) Browser() *Browser { return c.browser }

func newTrace(o Options) Trace {
	return Trace{
		SieveVersion:     version.Sieve,
		Tier:             TierStatic,
		UserAgent:        o.UserAgent,
		ConnectTimeoutMS: o.ConnectTimeout.Milliseconds(),
		TimeoutMS:        o.Timeout.Milliseconds(),
		MaxBytes:         o.MaxBytes,
		Robots:           !o.IgnoreRobots,
		AllowPrivate:     o.AllowPrivate,
		AllowAddrs:       addrStrings(o.AllowAddrs),
		Libraries: version.Of("golang.org/x/net", "golang.org/x/text",
			"github.com/andybalholm/brotli", "github.com/temoto/robotstxt"),
	}
}

// Close releases idle connections and stops the browser.
func (c *Capturer) Close() {
	c.transport.CloseIdleConnections()
	if c.browser != nil {
		c.browser.Close()
	}
}

// Abort kills the browser at once (its profile removed), for a forced exit:
// reads in flight are not waited for.
func (c *Capturer) Abort() {
	if c.browser != nil {
		c.browser.Abort()
	}
}

// Capture fetches t. A failed fetch is a Record with Error set, never an
// error: failures are data for the later stages.
func (c *Capturer) Capture(ctx context.Context, t Target) Record {
	start := time.Now()
	rec := Record{
		Record:        record.KindCapture,
		SchemaVersion: record.SchemaVersion,
		URL:           t.URL,
		FinalURL:      t.URL,
		Tier:          TierStatic,
		Redirects:     []Redirect{},
		Headers:       map[string]string{},
		Timing:        Timing{StartedAt: start.UTC().Format(time.RFC3339)},
		Trace:         c.trace,
	}
	if t.Path != "" {
		c.captureFile(&rec, t.Path)
	} else {
		c.captureHTTP(ctx, &rec)
	}
	c.readScans(ctx, &rec)
	if c.opts.Tier != TierStatic {
		c.tiered(ctx, &rec)
	}
	rec.Timing.DurationMS = time.Since(start).Milliseconds()
	return rec
}

// Stage is capture as a JSONL filter: one capture record per input line, in
// input order; a line that names no target becomes an error record.
func (c *Capturer) Stage() jsonl.Stage {
	return jsonl.Stage{
		Name:        "capture",
		Raw:         true,
		Concurrency: c.opts.Concurrency,
		Transform:   c.transform,
	}
}

func (c *Capturer) transform(ctx context.Context, line []byte) ([]byte, error) {
	t, err := ParseTarget(line)
	if err != nil {
		return nil, err
	}
	out, err := codec.Marshal(c.Capture(ctx, t))
	if err != nil {
		return nil, err
	}
	if t.Object {
		out = record.Passthrough(out, line, record.Keys("url"))
	}
	return out, nil
}

// sourceFingerprint is the EEF source fingerprint of the body bytes.
func sourceFingerprint(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// keepSource stores a body that is no PDF in the blob store when there is
// one (--blobs), under its source_fingerprint as keepPDF does: the bytes
// the fingerprint covers, which sieve-render --blobs puts into the
// evidence bundle (evidence/source.html). A store that cannot be written
// costs the bundle its source bytes, not the read: the bundle's
// source.json then says they are not there.
func (c *Capturer) keepSource(body []byte) {
	if c.blobs != nil && len(body) > 0 {
		_, _ = c.blobs.Put(body)
	}
}

// fillBody records a received body: its size, media type and, for textual
// types, its text as UTF-8; a PDF's facts, and its bytes in the blob store
// when there is one.
func (c *Capturer) fillBody(rec *Record, body []byte, truncated bool, contentType string) {
	rec.BodyBytes = int64(len(body))
	rec.SourceFingerprint = sourceFingerprint(body)
	rec.Truncated = truncated
	mt, label := mediaType(contentType, body)
	rec.ContentType = mt
	if isPDF(mt, body) {
		fillPDF(rec, body, truncated, c.opts.PDFPassword)
		c.keepPDF(rec, body)
		c.scans.Store(rec, body)
		return
	}
	c.keepSource(body)
	if !isText(mt) {
		if len(body) > 0 {
			rec.BodyOmitted = "binary content type " + mt
		}
		return
	}
	rec.Body, rec.Charset = decodeText(body, mt, label, truncated)
}
