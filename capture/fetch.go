package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// Fetched is a raw fetch of one URL (a sitemap, a feed): the final
// response's status, headers and body bytes after content decoding, not
// transcoded. Err is set when the fetch failed (the same kinds as a
// capture record's error, robots.txt included).
type Fetched struct {
	URL       string
	FinalURL  string
	Status    int
	Header    http.Header
	Body      []byte
	Truncated bool
	Err       *Error
}

// Fetch GETs rawURL as a capture does — the crawl's scope, robots.txt,
// the address policy, the host's turn and delay, retries after 429,
// redirects — and returns the body as received. The frontier reads
// sitemaps and feeds with it, so that they count against the same
// per-host politeness (and the crawl's scope) as the pages.
func (c *Capturer) Fetch(ctx context.Context, rawURL string) Fetched {
	rec := Record{URL: rawURL}
	f := Fetched{URL: rawURL, FinalURL: rawURL}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		f.Err = &Error{Kind: ErrConnect, Message: "not an http(s) URL: " + rawURL}
		return f
	}
	seen := map[string]bool{}
	for {
		f.FinalURL = u.String()
		key := withoutFragment(u)
		if seen[key] || len(seen) > maxRedirects {
			f.Err = &Error{Kind: ErrRedirectLoop, Message: fmt.Sprintf("redirect loop or more than %d redirects at %s", maxRedirects, key)}
			return f
		}
		seen[key] = true
		if e := outOfScope(ctx, u, len(seen) > 1); e != nil {
			f.Err = e
			return f
		}
		if !c.checkRobots(ctx, &rec, u) {
			f.Err = rec.Error
			return f
		}
		resp, e := c.request(ctx, &rec, u)
		if e != nil {
			f.Err = e
			return f
		}
		if next := redirectTarget(u, resp); next != nil {
			u = next
			continue
		}
		f.Status, f.Header, f.Body, f.Truncated = resp.status, resp.header, resp.body, resp.truncated
		f.Err = resp.readErr
		return f
	}
}

// Sitemaps returns the Sitemap: lines of the robots.txt of u's origin,
// from the Capturer's robots.txt cache (fetched once per origin per
// process, as for the pages). With --ignore-robots it still reads them.
func (c *Capturer) Sitemaps(ctx context.Context, u *url.URL) ([]string, error) {
	e, err := c.robots.entry(ctx, origin(u), func(e *robotsEntry) { c.fetchRobots(ctx, e) })
	if err != nil {
		return nil, err
	}
	if e.data == nil {
		return nil, nil
	}
	return append([]string(nil), e.data.Sitemaps...), nil
}
