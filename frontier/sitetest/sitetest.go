// Package sitetest serves a generated multi-host test site on 127.0.0.1
// for the crawl tests, the pipelines/ crawl recipe's test and make
// bench-crawl, with an access log to check politeness against.
package sitetest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Site is a multi-host site generated in-process: hosts are ports of
// 127.0.0.1 (capture's per-host gates and robots.txt cache go by
// host:port). Each host has pages /p/0…/p/N-1 linked as a binary tree from
// /, orphans reachable only from its sitemaps (an index naming a gzip
// sitemap, a plain one and an RSS feed), a robots.txt that disallows
// /private/ (linked from every page), links with fragments and tracking
// parameters, a page whose rel=canonical names another, and links to the
// other hosts (out of a host scope).
type Site struct {
	Hosts   []string // "127.0.0.1:PORT", or "NAME:PORT" (NewListeners)
	Addrs   []string // where each host listens, "IP:PORT"
	pages   int
	orphans int

	mu  sync.Mutex
	log []Hit
	// fail, when set, makes every page of the site answer 503.
	fail bool

	servers []*http.Server
}

// Hit is one request the site answered.
type Hit struct {
	At   time.Time
	Host string
	Path string // with the query
	// NotModified: the request carried the page's ETag and got 304.
	NotModified bool
	// From is the client's IP address (which worker asked).
	From string
}

// New serves hosts hosts of pages pages and orphans orphans each; Close
// stops them.
func New(hosts, pages, orphans int) (*Site, error) {
	var lns []net.Listener
	for i := 0; i < hosts; i++ {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return nil, err
		}
		lns = append(lns, ln)
	}
	return NewListeners(lns, nil, pages, orphans), nil
}

// NewListeners serves a host on each listener, under the host name
// names[i] (with the listener's port) when names is given, else under the
// listener's address: the crawl tests of other machines (network
// namespaces) serve the site on addresses they can reach, under names
// their /etc/hosts resolves.
func NewListeners(lns []net.Listener, names []string, pages, orphans int) *Site {
	s := &Site{pages: pages, orphans: orphans}
	for i, ln := range lns {
		addr := ln.Addr().String()
		host := addr
		if names != nil {
			_, port, _ := net.SplitHostPort(addr)
			host = net.JoinHostPort(names[i], port)
		}
		s.Hosts = append(s.Hosts, host)
		s.Addrs = append(s.Addrs, addr)
		srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
		s.servers = append(s.servers, srv)
		go srv.Serve(ln)
	}
	return s
}

// Close stops the servers.
func (s *Site) Close() {
	for _, srv := range s.servers {
		srv.Close()
	}
}

// SetFail makes every page answer 503 (v) or not.
func (s *Site) SetFail(v bool) {
	s.mu.Lock()
	s.fail = v
	s.mu.Unlock()
}

// Want is every page a host-scoped crawl of all hosts must read once.
func (s *Site) Want() []string {
	var out []string
	for _, h := range s.Hosts {
		// /private/secret is read as blocked (robots.txt), never fetched.
		out = append(out, "http://"+h+"/", "http://"+h+"/dup", "http://"+h+"/private/secret")
		for i := 0; i < s.pages; i++ {
			out = append(out, fmt.Sprintf("http://%s/p/%d", h, i))
		}
		for i := 0; i < s.orphans; i++ {
			out = append(out, fmt.Sprintf("http://%s/orphan/%d", h, i))
		}
	}
	sort.Strings(out)
	return out
}

// Hits is the access log so far.
func (s *Site) Hits() []Hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Hit(nil), s.log...)
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	at := time.Now()
	s.mu.Lock()
	fail := s.fail
	s.mu.Unlock()
	from, _, _ := net.SplitHostPort(r.RemoteAddr)
	hit := Hit{At: at, Host: host, Path: r.URL.RequestURI(), From: from}
	defer func() {
		s.mu.Lock()
		s.log = append(s.log, hit)
		s.mu.Unlock()
	}()
	base := "http://" + host
	p := r.URL.Path
	switch {
	case p == "/robots.txt":
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\n\nSitemap: %s/sitemap_index.xml\n", base)
		return
	case p == "/sitemap_index.xml":
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%[1]s/sitemap1.xml.gz</loc></sitemap>
<sitemap><loc>%[1]s/sitemap2.xml</loc></sitemap>
<sitemap><loc>%[1]s/feed.rss</loc></sitemap>
</sitemapindex>`, base)
		return
	case p == "/sitemap1.xml.gz", p == "/sitemap2.xml", p == "/feed.rss":
		s.sitemap(w, base, p)
		return
	}
	if fail {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	title := "Home"
	var links []string
	canonical := ""
	switch {
	case p == "/":
		links = []string{"/p/0", "/dup#x"}
	case p == "/dup":
		title, canonical = "Duplicate of page 0", "/p/0"
	case strings.HasPrefix(p, "/p/"):
		i, err := strconv.Atoi(p[3:])
		if err != nil || i >= s.pages {
			http.NotFound(w, r)
			return
		}
		title = fmt.Sprintf("Page %d", i)
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < s.pages {
				links = append(links, fmt.Sprintf("/p/%d", c))
			}
		}
		// The same pages again, in forms that canonicalise to them.
		links = append(links, fmt.Sprintf("/p/%d#section", i), fmt.Sprintf("/p/%d?utm_source=feed&utm_medium=x", i/2),
			fmt.Sprintf("HTTP://%s/p/./%d", host, i))
	case strings.HasPrefix(p, "/orphan/"):
		title = "Orphan " + p[8:]
	default:
		http.NotFound(w, r)
		return
	}
	fmt.Fprintf(&b, "<!doctype html><html><head><title>%s</title>", title)
	if canonical != "" {
		fmt.Fprintf(&b, `<link rel="canonical" href="%s">`, canonical)
	}
	b.WriteString(`</head><body><nav><a href="/">Home</a> <a href="/private/secret">Members</a>`)
	for _, o := range s.Hosts {
		if o != host {
			fmt.Fprintf(&b, ` <a href="http://%s/">Sister site</a>`, o)
		}
	}
	fmt.Fprintf(&b, `</nav><main><h1>%s</h1><p>This is %s on %s. It has a paragraph long enough to read as content, about the weather and the harvest of the year, and nothing else of note.</p><ul>`, title, title, host)
	for _, l := range links {
		fmt.Fprintf(&b, `<li><a href="%s">Next: %s</a></li>`, l, l)
	}
	b.WriteString(`</ul></main></body></html>`)
	h := fnv.New64a()
	h.Write([]byte(b.String()))
	etag := fmt.Sprintf(`"%x"`, h.Sum64())
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		hit.NotModified = true
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write([]byte(b.String()))
}

// sitemap splits the orphans over the gzip sitemap, the plain one (which
// also lists /p/0 and the home page) and the feed.
func (s *Site) sitemap(w http.ResponseWriter, base, p string) {
	var urls []string
	for i := 0; i < s.orphans; i++ {
		u := fmt.Sprintf("%s/orphan/%d", base, i)
		switch {
		case p == "/sitemap1.xml.gz" && i%3 == 0, p == "/sitemap2.xml" && i%3 == 1, p == "/feed.rss" && i%3 == 2:
			urls = append(urls, u)
		}
	}
	if p == "/feed.rss" {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprint(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>`)
		for _, u := range urls {
			fmt.Fprintf(w, "<item><title>x</title><link>%s</link></item>", u)
		}
		fmt.Fprint(w, "</channel></rss>")
		return
	}
	if p == "/sitemap2.xml" {
		urls = append(urls, base+"/", base+"/p/0")
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, u := range urls {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>", u)
	}
	b.WriteString("</urlset>")
	if strings.HasSuffix(p, ".gz") {
		w.Header().Set("Content-Type", "application/gzip")
		zw := gzip.NewWriter(w)
		zw.Write(b.Bytes())
		zw.Close()
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Write(b.Bytes())
}
