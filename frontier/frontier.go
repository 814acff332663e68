package frontier

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
)

// DepthKey is the field a crawl's records carry their link depth in: the
// frontier writes {"url":…,"crawl_depth":N}, every stage passes the field
// through, and the frontier reads it back from graph and artifact records.
const DepthKey = "crawl_depth"

// CanonicalKey is the field sieve crawl copies a page's rel=canonical into
// (from the normalized record's doc.canonical), so the frontier reads it
// from the graph record.
const CanonicalKey = "crawl_canonical"

// Shard is one worker's part of a crawl split by host: URLs whose host key
// hashes to Index (mod Of). The zero Shard takes every URL.
type Shard struct{ Index, Of int }

// ParseShard reads "I/N" (0 ≤ I < N).
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 0 <= I < N, such as 0/4", s)
	}
	return Shard{Index: i, Of: n}, nil
}

// Owns reports whether the shard takes canonical URL c.
func (s Shard) Owns(c string) bool {
	if s.Of <= 1 {
		return true
	}
	return ShardOf(c, s.Of) == s.Index
}

// ShardOf is the shard (0…n-1) of URL raw: FNV-1a of its host key, so that
// every URL of one host goes to one worker, on any machine.
func ShardOf(raw string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(HostKey(raw)))
	return int(h.Sum32() % uint32(n))
}

// Frontier admits URLs into a crawl: canonical form, scope, depth and page
// limits, the shard, and the seen-set.
type Frontier struct {
	Scope       *Scope
	MaxDepth    int  // links followed from a seed; < 0: no limit
	MaxPages    int  // URLs admitted in all; 0: no limit
	ContentOnly bool // follow links of content blocks only (not navigation and chrome)
	Shard       Shard
	Seen        *Set
	// Foreign, when set, gets the in-scope URLs another shard owns.
	Foreign func(c string, depth int)

	mu sync.Mutex
}

// Reasons Offer refuses a URL.
const (
	RefuseURL   = "not_http"
	RefuseScope = "out_of_scope"
	RefuseDepth = "too_deep"
	RefusePages = "page_limit"
	RefuseShard = "other_shard"
	RefuseSeen  = "seen"
)

// Offer admits raw at depth when it is new, in scope and within the
// limits, adding it to the seen-set; it returns the canonical URL and the
// reason when it is refused ("" when admitted).
func (f *Frontier) Offer(raw string, depth int) (string, string, error) {
	c, ok := Canonical(raw)
	switch {
	case !ok:
		return "", RefuseURL, nil
	case f.Scope != nil && !f.Scope.In(c):
		return c, RefuseScope, nil
	case f.MaxDepth >= 0 && depth > f.MaxDepth:
		return c, RefuseDepth, nil
	case !f.Shard.Owns(c):
		if f.Foreign != nil && !f.Seen.Has(c) {
			f.Foreign(c, depth)
		}
		return c, RefuseShard, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Seen.Has(c) {
		return c, RefuseSeen, nil
	}
	if f.MaxPages > 0 && f.Seen.Len() >= f.MaxPages {
		return c, RefusePages, nil
	}
	_, err := f.Seen.Add(c, depth)
	return c, "", err
}

// Mark adds c to the seen-set without the limits (a page's final URL or
// rel=canonical, which is the page just read).
func (f *Frontier) Mark(raw string, depth int) error {
	c, ok := Canonical(raw)
	if !ok || (f.Scope != nil && !f.Scope.In(c)) {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_, err := f.Seen.Add(c, depth)
	return err
}

// Item is an admitted URL.
type Item struct {
	URL   string `json:"url"`
	Depth int    `json:"crawl_depth"`
}

// FromGraph admits the links of a graph record (or content.json with the
// crawl fields) found at depth: its final URL and rel=canonical are marked
// seen (they are this page), then each link is offered at depth+1. Links
// with rel=nofollow are not followed; with ContentOnly, only links of
// content blocks are.
func (f *Frontier) FromGraph(line []byte, depth int) ([]Item, error) {
	g := gjson.GetManyBytes(line, "final_url", CanonicalKey, "outcome.status")
	for _, u := range []string{g[0].String(), g[1].String()} {
		if u != "" {
			if err := f.Mark(u, depth); err != nil {
				return nil, err
			}
		}
	}
	var items []Item
	var err error
	gjson.GetBytes(line, "links").ForEach(func(_, l gjson.Result) bool {
		if f.ContentOnly && l.Get("role").String() != "content" {
			return true
		}
		if hasToken(l.Get("rel").String(), "nofollow") {
			return true
		}
		var c, why string
		c, why, err = f.Offer(l.Get("href").String(), depth+1)
		if err != nil {
			return false
		}
		if why == "" {
			items = append(items, Item{URL: c, Depth: depth + 1})
		}
		return true
	})
	return items, err
}

func hasToken(list, tok string) bool {
	for _, t := range strings.Fields(strings.ToLower(list)) {
		if t == tok {
			return true
		}
	}
	return false
}

// Fetcher is what sitemap discovery fetches with; *capture.Capturer is
// one, so sitemaps count against the crawl's per-host politeness.
type Fetcher interface {
	Fetch(ctx context.Context, rawURL string) capture.Fetched
	Sitemaps(ctx context.Context, u *url.URL) ([]string, error)
}

// Discovery is what Discover found.
type Discovery struct {
	Sitemaps int      // sitemaps, indexes and feeds read
	Failed   []string // "URL: why" for those that could not be read
}

// maxSitemaps bounds the sitemaps one Discover reads (indexes can nest).
const maxSitemaps = 1000

// Discover finds page URLs for seed and passes each to emit. A seed whose
// path is "/" is a site: its robots.txt Sitemap: lines are read, or
// /sitemap.xml when there are none. Any other seed is read as a sitemap,
// sitemap index or RSS/Atom feed itself. Indexes are followed (each sitemap
// once), gzip sitemaps are unpacked.
func Discover(ctx context.Context, fe Fetcher, seed string, emit func(u string)) (Discovery, error) {
	var d Discovery
	u, err := url.Parse(seed)
	if err != nil || u.Host == "" {
		return d, fmt.Errorf("not an http(s) URL: %q", seed)
	}
	var queue []string
	if u.Path == "" || u.Path == "/" {
		maps, err := fe.Sitemaps(ctx, u)
		if err != nil {
			return d, err
		}
		queue = maps
		if len(queue) == 0 {
			queue = []string{u.Scheme + "://" + u.Host + "/sitemap.xml"}
		}
	} else {
		queue = []string{seed}
	}
	done := map[string]bool{}
	for len(queue) > 0 && d.Sitemaps < maxSitemaps {
		sm := queue[0]
		queue = queue[1:]
		if done[sm] {
			continue
		}
		done[sm] = true
		if err := ctx.Err(); err != nil {
			return d, err
		}
		f := fe.Fetch(ctx, sm)
		switch {
		case f.Err != nil:
			d.Failed = append(d.Failed, sm+": "+f.Err.Message)
			continue
		case f.Status/100 != 2:
			d.Failed = append(d.Failed, fmt.Sprintf("%s: HTTP %d", sm, f.Status))
			continue
		}
		d.Sitemaps++
		parsed, err := ParseSitemap(f.Body, f.FinalURL)
		if err != nil {
			d.Failed = append(d.Failed, sm+": "+err.Error())
			continue
		}
		queue = append(queue, parsed.Sitemaps...)
		for _, p := range parsed.URLs {
			emit(p)
		}
	}
	return d, nil
}
