package capture

import (
	"context"
	"net/http"
	"sync"
)

// Validators are a page's cache validators from an earlier read: a crawl
// that re-reads the page sends them (If-None-Match, If-Modified-Since), and
// a server whose page has not changed answers 304 Not Modified.
type Validators struct {
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
}

// Conditional is what WithConditional puts in a capture's context: the
// validators to send for URL, and the ones the final response carried.
type Conditional struct {
	URL  string     // the request these are for (redirect hops get none)
	Send Validators // sent with the request for URL

	mu  sync.Mutex
	got Validators // from the last response to any request of the capture
}

type conditionalKey struct{}

// WithConditional returns a context under which a capture sends cond.Send
// with its request for cond.URL and records the validators of the
// responses it gets (Got).
func WithConditional(ctx context.Context, cond *Conditional) context.Context {
	return context.WithValue(ctx, conditionalKey{}, cond)
}

// Got is the validators of the last response.
func (c *Conditional) Got() Validators {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got
}

// sendValidators adds the conditional headers to req when its context asks
// for them for this URL.
func sendValidators(req *http.Request) {
	c, _ := req.Context().Value(conditionalKey{}).(*Conditional)
	if c == nil || req.URL.String() != c.URL {
		return
	}
	if c.Send.ETag != "" {
		req.Header.Set("If-None-Match", c.Send.ETag)
	}
	if c.Send.LastModified != "" {
		req.Header.Set("If-Modified-Since", c.Send.LastModified)
	}
}

// keepValidators records resp's validators for the capture's context.
func keepValidators(ctx context.Context, h http.Header) {
	c, _ := ctx.Value(conditionalKey{}).(*Conditional)
	if c == nil {
		return
	}
	c.mu.Lock()
	c.got = Validators{ETag: h.Get("ETag"), LastModified: h.Get("Last-Modified")}
	c.mu.Unlock()
}
