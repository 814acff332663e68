// Package caprec holds the capture record's types: what capture writes and
// the later stages read. It is a leaf (no browser, no PDF engine), so a
// stage that only reads capture records does not link what makes them;
// package capture names the same types (aliases).
package caprec

import (
	"golang.org/x/net/html"

	"github.com/sieve-dev/sieve/internal/version"
)

// Record is the capture record: what one fetch of one target saw. It holds
// what later stages need and nothing they must not depend on for identity:
// timing and started_at are volatile (they change on every fetch).
//
// A fetch that failed is still a Record: Fetch.Error says what failed, and
// the later stages turn it into an outcome with evidence.
type Record struct {
	Record        string `json:"record"`         // "capture"
	SchemaVersion string `json:"schema_version"` // "1.0"
	URL           string `json:"url"`            // as requested (file:// for local paths)
	FinalURL      string `json:"final_url"`      // after redirects
	Tier          string `json:"tier"`           // "static"

	Status      int               `json:"status"`         // HTTP status of the final response; 0 when none
	Redirects   []Redirect        `json:"redirects"`      // each hop, in order
	Headers     map[string]string `json:"headers"`        // lower-case names; the headers later stages read
	ContentType string            `json:"content_type"`   // media type only, lower case ("text/html")
	Charset     Charset           `json:"charset"`        // how the body was decoded
	Body        string            `json:"body,omitempty"` // the served document as UTF-8 (textual types only)
	BodyBytes   int64             `json:"body_bytes"`     // bytes received (after content decoding, before transcoding)
	// SourceFingerprint is "sha256:<hex>" over those same body bytes (after
	// content decoding, before transcoding): the EEF source fingerprint.
	// Absent when no body was received.
	SourceFingerprint string `json:"source_fingerprint,omitempty"`
	Truncated         bool   `json:"truncated"`              // body cut at the size cap
	BodyOmitted       string `json:"body_omitted,omitempty"` // why Body is empty although bytes arrived (binary type)

	Robots *Robots `json:"robots,omitempty"` // robots.txt verdict; nil when not checked
	Error  *Error  `json:"error,omitempty"`  // why the fetch failed; nil on success

	Timing Timing `json:"timing"`
	Trace  Trace  `json:"trace"`

	// Tier decision (render and auto tiers; absent for --tier static).
	// TierScore is how well the static read stood on its own (0–1, higher is
	// better); TierReason says why this tier was used; TierFellBack is set
	// when the render tier was wanted but failed and the static read is kept.
	TierScore    *float64 `json:"tier_score,omitempty"`
	TierReason   string   `json:"tier_reason,omitempty"`
	TierFellBack bool     `json:"tier_fell_back,omitempty"`
	// Render holds the facts of a browser read (also of a failed one).
	Render *Render `json:"render,omitempty"`
	// DOM is the rendered page as the in-page walker read it: a flat
	// pre-order node list, the shape of normalize's nodes. Render tier only.
	DOM []DOMNode `json:"dom,omitempty"`
	// PDF holds what was read from a PDF body, which is then not kept in
	// Body. Absent for other types and for a PDF that could not be read.
	PDF *PDF `json:"pdf,omitempty"`

	// parsed is the served body's parse tree from the tier decision, handed
	// to an in-process normalize (ParsedBody) so the body is parsed once;
	// never encoded.
	parsed *parsedBody
}

type parsedBody struct {
	body string // the Body doc was parsed from
	doc  *html.Node
}

// KeepParsedBody holds doc, the parse tree of Body as it is now, for an
// in-process normalize (ParsedBody); nil drops what was held.
func (r *Record) KeepParsedBody(doc *html.Node) {
	if doc == nil {
		r.parsed = nil
		return
	}
	r.parsed = &parsedBody{body: r.Body, doc: doc}
}

// ParsedBody returns the parse tree of Body that the tier decision built
// (html.Parse, no options) and gives it up: the caller owns it and may
// change it. Nil when there is none, or when Body is no longer the body
// it was parsed from (the render tier replaced it).
func (r *Record) ParsedBody() *html.Node {
	p := r.parsed
	r.parsed = nil
	if p == nil || p.body != r.Body {
		return nil
	}
	return p.doc
}

// Redirect is one hop of a redirect chain.
type Redirect struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Charset records the decision on the body's character encoding.
type Charset struct {
	Name     string `json:"name"`               // encoding decoded from ("utf-8", "windows-1252", …)
	Source   string `json:"source"`             // bom | utf8-valid | header | meta | default
	Declared string `json:"declared,omitempty"` // what the header or meta said, when it said something else
}

// Robots is the robots.txt verdict for the URL.
type Robots struct {
	URL     string `json:"url"`               // the robots.txt consulted
	Status  int    `json:"status"`            // its HTTP status (0 when unreachable)
	Allowed bool   `json:"allowed"`           // whether the URL may be fetched by our user agent
	Ignored bool   `json:"ignored,omitempty"` // --ignore-robots was given
}

// Error kinds, stable strings later stages branch on.
const (
	ErrRobots           = "robots"          // disallowed by robots.txt
	ErrPrivate          = "private_address" // resolved to a private, loopback or link-local address
	ErrDNS              = "dns"
	ErrConnect          = "connect" // refused, unreachable, reset
	ErrTimeout          = "timeout"
	ErrTLS              = "tls"
	ErrRedirectLoop     = "redirect_loop"
	ErrTooManyRedirects = "too_many_redirects"
	ErrRateLimited      = "rate_limited" // 429 still after the allowed retries
	ErrRead             = "read"         // the body broke off
	ErrFile             = "file"         // a local file could not be read
	ErrRender           = "render"       // the browser read failed (crash, timeout, no Chromium)
	ErrPDF              = "pdf"          // a PDF body could not be read (encrypted, broken, truncated)
	ErrOutOfScope       = "out_of_scope" // the target or a redirect hop is outside the crawl's scope (WithScope): not requested
)

// Error says why a fetch failed.
type Error struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// String makes a failure readable where a record is printed with %v (test
// messages), instead of the pointer's address.
func (e *Error) String() string {
	if e == nil {
		return "<nil>"
	}
	return e.Kind + ": " + e.Message
}

// Timing is volatile: it differs on every fetch.
type Timing struct {
	StartedAt  string `json:"started_at"`  // RFC 3339, UTC
	DurationMS int64  `json:"duration_ms"` // whole fetch, retries and robots included
	Attempts   int    `json:"attempts"`    // HTTP attempts for the document (retries after 429/503)
}

// Trace is every input that shaped this capture, so it can be replayed.
type Trace struct {
	SieveVersion     string            `json:"sieve_version"`
	Tier             string            `json:"tier"`
	UserAgent        string            `json:"user_agent"`
	ConnectTimeoutMS int64             `json:"connect_timeout_ms"`
	TimeoutMS        int64             `json:"timeout_ms"`
	MaxBytes         int64             `json:"max_bytes"`
	Robots           bool              `json:"robots"`
	AllowPrivate     bool              `json:"allow_private"`
	AllowAddrs       []string          `json:"allow_addrs,omitempty"` // --allow-addr: the private addresses allowed one by one
	Libraries        []version.Library `json:"libraries"`
	Browser          *BrowserTrace     `json:"browser,omitempty"` // render tier: the browser and its settings
}
