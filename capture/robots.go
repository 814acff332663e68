package capture

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
)

// robotsCache fetches each origin's robots.txt once per process.
type robotsCache struct {
	mu sync.Mutex
	m  map[string]*robotsEntry
}

type robotsEntry struct {
	ready  chan struct{} // closed once the fields below are set
	url    string
	status int
	data   *robotstxt.RobotsData // nil: nothing usable, everything allowed
	delay  time.Duration         // Crawl-delay for our group, capped
}

// entry returns origin's robots.txt, fetching it with fetch on first use;
// concurrent callers for the same origin wait for that one fetch.
func (rc *robotsCache) entry(ctx context.Context, origin string, fetch func(*robotsEntry)) (*robotsEntry, error) {
	rc.mu.Lock()
	e := rc.m[origin]
	first := e == nil
	if first {
		e = &robotsEntry{ready: make(chan struct{}), url: origin + "/robots.txt"}
		rc.m[origin] = e
	}
	rc.mu.Unlock()
	if first {
		fetch(e)
		close(e.ready)
	}
	select {
	case <-e.ready:
		return e, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// cached returns origin's entry if it has been fetched.
func (rc *robotsCache) cached(origin string) *robotsEntry {
	rc.mu.Lock()
	e := rc.m[origin]
	rc.mu.Unlock()
	if e == nil {
		return nil
	}
	select {
	case <-e.ready:
		return e
	default:
		return nil
	}
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// robotsPath is what robots.txt rules match: the escaped path and query.
func robotsPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// robotsVerdict consults (fetching if needed) the robots.txt for u.
func (c *Capturer) robotsVerdict(ctx context.Context, u *url.URL) (*Robots, error) {
	if c.opts.IgnoreRobots {
		return &Robots{URL: origin(u) + "/robots.txt", Allowed: true, Ignored: true}, nil
	}
	e, err := c.robots.entry(ctx, origin(u), func(e *robotsEntry) { c.fetchRobots(ctx, e) })
	if err != nil {
		return nil, err
	}
	allowed := e.data == nil || e.data.TestAgent(robotsPath(u), RobotsAgent)
	return &Robots{URL: e.url, Status: e.status, Allowed: allowed}, nil
}

// fetchRobots fills e. A robots.txt that cannot be fetched at all (network
// failure, refused address) or parsed counts as no robots.txt: the page
// fetch then reports the real failure. 4xx allows all and 5xx disallows all,
// as robotstxt.FromStatusAndBytes decides.
func (c *Capturer) fetchRobots(ctx context.Context, e *robotsEntry) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.url, nil)
	if err != nil {
		return
	}
	c.setHeaders(req)
	resp, err := c.robotsClient.Do(req)
	if err != nil {
		return
	}
	defer resp.Body.Close()
	e.status = resp.StatusCode
	body, _, err := readBody(resp.Body, resp.Header.Get("Content-Encoding"), maxRobotsBytes)
	if err != nil && resp.StatusCode/100 == 2 {
		return
	}
	data, err := robotstxt.FromStatusAndBytes(resp.StatusCode, body)
	if err != nil {
		return
	}
	e.data = data
	e.delay = min(data.FindGroup(RobotsAgent).CrawlDelay, maxCrawlDelay)
}
