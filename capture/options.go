package capture

import (
	"net/netip"
	"time"

	"github.com/sieve-dev/sieve/internal/version"
)

// RobotsAgent is the user-agent token matched against robots.txt groups.
const RobotsAgent = "sieve"

// Limits that are not options.
const (
	maxRedirects   = 10
	maxCrawlDelay  = 30 * time.Second
	maxRobotsBytes = 512 << 10 // what Google reads of a robots.txt
	maxHeaderValue = 1000
)

// Options configure a Capturer; the command's flags map onto them one to one.
type Options struct {
	Concurrency    int           // targets captured at once (output stays in input order)
	PerHost        int           // requests in flight to one host at once
	Delay          time.Duration // per host, between request starts
	Timeout        time.Duration // whole fetch of one attempt: connect, redirects, body
	ConnectTimeout time.Duration // DNS, TCP and TLS handshake
	MaxBytes       int64         // body cap, after content decoding
	IgnoreRobots   bool
	AllowPrivate   bool             // allow private, loopback, link-local and similar addresses
	AllowAddrs     []netip.AddrPort // allow exactly these addresses (everything else private stays refused)
	UserAgent      string
	Retries        int           // retries after 429, or 503 with Retry-After
	MaxRetryWait   time.Duration // longest wait a Retry-After may ask for

	// PDFPassword opens encrypted PDFs (their user or owner password); ""
	// is none. It is in no record: not in the trace, not in an error.
	PDFPassword string

	Tier    string         // static | render | auto; "" is static (the command's default is auto)
	Browser BrowserOptions // render tier
}

// DefaultUserAgent is the User-Agent header sent unless overridden.
func DefaultUserAgent() string {
	return "sieve/" + version.Sieve + " (+https://github.com/sieve-dev/sieve)"
}

// DefaultOptions are the command's defaults.
func DefaultOptions() Options {
	return Options{
		Concurrency:    4,
		PerHost:        2,
		Timeout:        30 * time.Second,
		ConnectTimeout: 10 * time.Second,
		MaxBytes:       10 << 20,
		UserAgent:      DefaultUserAgent(),
		Retries:        2,
		MaxRetryWait:   30 * time.Second,
		Tier:           TierAuto,
		Browser:        DefaultBrowserOptions(),
	}
}

// withDefaults replaces the zero values that cannot mean "none" (a zero
// timeout or cap) by the defaults. Delay, Retries and MaxRetryWait keep zero.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.Concurrency < 1 {
		o.Concurrency = d.Concurrency
	}
	if o.PerHost < 1 {
		o.PerHost = d.PerHost
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	if o.ConnectTimeout <= 0 {
		o.ConnectTimeout = d.ConnectTimeout
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = d.MaxBytes
	}
	if o.UserAgent == "" {
		o.UserAgent = d.UserAgent
	}
	if o.Retries < 0 {
		o.Retries = 0
	}
	if o.Tier == "" {
		o.Tier = TierStatic // a library caller opts into a browser; the command defaults to auto
	}
	if o.Browser.UserAgent == "" {
		o.Browser.UserAgent = o.UserAgent // the browser's requests are sieve's too
	}
	o.Browser = o.Browser.withDefaults()
	return o
}
