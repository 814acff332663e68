package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// response is one HTTP answer with its body read.
type response struct {
	status    int
	header    http.Header
	body      []byte
	truncated bool
	readErr   *Error // the body broke off; body holds what arrived
	retryNote string // why a 429 was not retried further
}

// captureHTTP walks the redirect chain of rec.URL, checking the crawl's
// scope (WithScope) and robots.txt and taking the host's turn before every
// hop, and records the final response.
func (c *Capturer) captureHTTP(ctx context.Context, rec *Record) {
	u, err := url.Parse(rec.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		rec.Error = &Error{Kind: ErrConnect, Message: "not an http(s) URL: " + rec.URL}
		return
	}
	seen := map[string]bool{}
	for {
		rec.FinalURL = u.String()
		key := withoutFragment(u)
		if seen[key] {
			rec.Error = &Error{Kind: ErrRedirectLoop, Message: "redirect loop: " + key + " was reached twice"}
			return
		}
		seen[key] = true
		if e := outOfScope(ctx, u, len(rec.Redirects) > 0); e != nil {
			rec.Error = e
			return
		}
		if !c.checkRobots(ctx, rec, u) {
			return
		}
		resp, e := c.request(ctx, rec, u)
		if e != nil {
			rec.Error = e
			return
		}
		next := redirectTarget(u, resp)
		if next == nil {
			c.fillResponse(rec, resp)
			return
		}
		rec.Redirects = append(rec.Redirects, Redirect{URL: u.String(), Status: resp.status})
		if len(rec.Redirects) > maxRedirects {
			rec.Error = &Error{Kind: ErrTooManyRedirects, Message: fmt.Sprintf("more than %d redirects", maxRedirects)}
			return
		}
		u = next
	}
}

func withoutFragment(u *url.URL) string {
	v := *u
	v.Fragment, v.RawFragment = "", ""
	return v.String()
}

// checkRobots records the robots.txt verdict for u (the first hop's, or a
// later hop's that disallows) and reports whether u may be fetched.
func (c *Capturer) checkRobots(ctx context.Context, rec *Record, u *url.URL) bool {
	v, err := c.robotsVerdict(ctx, u)
	if err != nil {
		rec.Error = classify(err, ErrTimeout)
		return false
	}
	if rec.Robots == nil || !v.Allowed {
		rec.Robots = v
	}
	if !v.Allowed {
		rec.Error = &Error{Kind: ErrRobots, Message: fmt.Sprintf(
			"robots.txt at %s (HTTP %d) disallows %s for user agent %q", v.URL, v.Status, robotsPath(u), RobotsAgent)}
	}
	return v.Allowed
}

// redirectTarget returns where a redirect response points, or nil when the
// response is final (not a redirect, or no usable http(s) Location).
func redirectTarget(u *url.URL, resp *response) *url.URL {
	switch resp.status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return nil
	}
	loc := resp.header.Get("Location")
	if loc == "" {
		return nil
	}
	next, err := u.Parse(loc)
	if err != nil || (next.Scheme != "http" && next.Scheme != "https") || next.Hostname() == "" {
		return nil
	}
	next.Host = strings.ToLower(next.Host) // one host, one gate and one robots.txt
	return next
}

// request fetches u, retrying after 429 (and 503 with Retry-After) as the
// options allow. Every wait also pushes back the host's next request.
func (c *Capturer) request(ctx context.Context, rec *Record, u *url.URL) (*response, *Error) {
	if rec.Timing.Attempts == 0 {
		rec.Timing.Attempts = 1
	}
	for retry := 0; ; retry++ {
		if retry > 0 {
			rec.Timing.Attempts++
		}
		resp, e := c.attempt(ctx, u)
		if e != nil {
			return nil, e
		}
		wait, again, note := c.retryWait(resp, retry)
		if !again {
			resp.retryNote = note
			return resp, nil
		}
		c.hosts.pushBack(u.Host, time.Now().Add(wait))
		if sleep(ctx, wait) != nil {
			resp.retryNote = "interrupted while waiting to retry"
			return resp, nil
		}
	}
}

// attempt sends one GET for u in the host's turn and reads the body.
func (c *Capturer) attempt(ctx context.Context, u *url.URL) (*response, *Error) {
	release, err := c.hosts.acquire(ctx, u.Host, c.hostDelay(u))
	if err != nil {
		return nil, classify(err, ErrTimeout)
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &Error{Kind: ErrConnect, Message: err.Error()}
	}
	c.setHeaders(req)
	sendValidators(req)
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, classify(err, ErrConnect)
	}
	defer resp.Body.Close()
	r := &response{status: resp.StatusCode, header: resp.Header}
	keepValidators(ctx, resp.Header)
	r.body, r.truncated, err = readBody(resp.Body, resp.Header.Get("Content-Encoding"), c.opts.MaxBytes)
	if err != nil {
		r.readErr = &Error{Kind: ErrRead, Message: err.Error()}
		if isTimeout(err) {
			r.readErr.Kind = ErrTimeout
		}
	}
	return r, nil
}

func (c *Capturer) setHeaders(req *http.Request) {
	req.Header.Set("User-Agent", c.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	req.Header.Set("Accept-Encoding", acceptEncoding)
}

// hostDelay is the pause between request starts on u's host: --delay, or
// the robots.txt Crawl-delay when that is longer.
func (c *Capturer) hostDelay(u *url.URL) time.Duration {
	d := c.opts.Delay
	if e := c.robots.cached(origin(u)); e != nil && e.delay > d {
		d = e.delay
	}
	return d
}

// retryWait decides whether to retry resp and after how long; when not, it
// says why for a rate-limit message.
func (c *Capturer) retryWait(resp *response, retry int) (time.Duration, bool, string) {
	if resp.status != http.StatusTooManyRequests && resp.status != http.StatusServiceUnavailable {
		return 0, false, ""
	}
	raw := strings.TrimSpace(resp.header.Get("Retry-After"))
	wait, has := retryAfter(raw, time.Now())
	switch {
	case !has && resp.status == http.StatusServiceUnavailable:
		return 0, false, ""
	case has && wait > c.opts.MaxRetryWait:
		return 0, false, fmt.Sprintf("Retry-After: %s asks for %s, more than --max-retry-wait %s", raw, wait.Round(time.Second), c.opts.MaxRetryWait)
	case retry >= c.opts.Retries:
		return 0, false, fmt.Sprintf("%s; %d retries exhausted", describeRetryAfter(raw, has), c.opts.Retries)
	case has:
		return wait, true, ""
	}
	return min(time.Second<<retry, c.opts.MaxRetryWait), true, ""
}

func describeRetryAfter(raw string, has bool) string {
	if has {
		return "Retry-After: " + raw
	}
	if raw != "" {
		return fmt.Sprintf("unparseable Retry-After %q", raw)
	}
	return "no Retry-After"
}

// retryAfter reads a Retry-After value: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		return time.Duration(min(n, 1<<31)) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// fillResponse records the final response.
func (c *Capturer) fillResponse(rec *Record, resp *response) {
	rec.Status = resp.status
	rec.Headers = pickHeaders(resp.header)
	c.fillBody(rec, resp.body, resp.truncated, resp.header.Get("Content-Type"))
	switch {
	case resp.readErr != nil:
		rec.Error = resp.readErr
	case resp.status == http.StatusTooManyRequests:
		rec.Error = &Error{Kind: ErrRateLimited, Message: fmt.Sprintf(
			"HTTP 429 Too Many Requests after %d attempt(s); %s", rec.Timing.Attempts, resp.retryNote)}
	}
}
