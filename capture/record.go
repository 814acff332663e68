package capture

import "github.com/sieve-dev/sieve/capture/caprec"

// The capture record's types live in package caprec, a leaf that links no
// browser and no PDF engine, so that the stages reading capture records
// do not link what writes them; these names are the same types.
type (
	// Record is the capture record: what one fetch of one target saw.
	Record = caprec.Record
	// Redirect is one hop of a redirect chain.
	Redirect = caprec.Redirect
	// Charset records the decision on the body's character encoding.
	Charset = caprec.Charset
	// Robots is the robots.txt verdict for the URL.
	Robots = caprec.Robots
	// Error says why a fetch failed.
	Error = caprec.Error
	// Timing is volatile: it differs on every fetch.
	Timing = caprec.Timing
	// Trace is every input that shaped this capture, so it can be replayed.
	Trace = caprec.Trace
)

// Error kinds, stable strings later stages branch on (caprec.ErrRobots …).
const (
	ErrRobots           = caprec.ErrRobots
	ErrPrivate          = caprec.ErrPrivate
	ErrDNS              = caprec.ErrDNS
	ErrConnect          = caprec.ErrConnect
	ErrTimeout          = caprec.ErrTimeout
	ErrTLS              = caprec.ErrTLS
	ErrRedirectLoop     = caprec.ErrRedirectLoop
	ErrTooManyRedirects = caprec.ErrTooManyRedirects
	ErrRateLimited      = caprec.ErrRateLimited
	ErrRead             = caprec.ErrRead
	ErrFile             = caprec.ErrFile
	ErrRender           = caprec.ErrRender
	ErrPDF              = caprec.ErrPDF
	ErrOutOfScope       = caprec.ErrOutOfScope
)
