package frontier

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// Scope modes: which discovered URLs a crawl follows.
const (
	ScopeHost   = "host"   // the seed's host (and port) only
	ScopeSite   = "site"   // the seed's registrable domain: www.example.com and blog.example.com
	ScopePrefix = "prefix" // URLs starting with a seed URL (or a --prefix)
	ScopeRegex  = "regex"  // URLs matching a regular expression
	ScopeAny    = "any"    // every http(s) URL (bounded by depth and page limits only)
)

// Scope decides whether a canonical URL is in the crawl. The seeds define
// it for host, site and prefix; a regex stands alone.
type Scope struct {
	Mode     string
	hosts    map[string]bool
	sites    map[string]bool
	prefixes []string
	re       *regexp.Regexp
}

// NewScope builds a scope from its mode and the seeds (canonical URLs).
// For ScopePrefix, prefixes (when given) replace the seeds as the
// prefixes; for ScopeRegex, pattern is the expression.
func NewScope(mode string, seeds, prefixes []string, pattern string) (*Scope, error) {
	s := &Scope{Mode: mode, hosts: map[string]bool{}, sites: map[string]bool{}}
	switch mode {
	case ScopeHost, ScopeSite, ScopeAny:
	case ScopePrefix:
		if len(prefixes) == 0 {
			prefixes = seeds
		}
		for _, p := range prefixes {
			c, ok := Canonical(p)
			if !ok {
				return nil, fmt.Errorf("prefix %q is not an http(s) URL", p)
			}
			s.prefixes = append(s.prefixes, c)
			if u, err := url.Parse(c); err == nil {
				s.hosts[u.Host] = true // its site's own files (CheckSite)
			}
		}
	case ScopeRegex:
		if pattern == "" {
			return nil, fmt.Errorf("--scope regex needs --match REGEX")
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fmt.Errorf("--match: %w", err)
		}
		s.re = re
	default:
		return nil, fmt.Errorf("--scope must be host, site, prefix, regex or any, not %q", mode)
	}
	for _, seed := range seeds {
		s.AddSeed(seed)
	}
	return s, nil
}

// AddSeed widens a host or site scope to a seed's host or site.
func (s *Scope) AddSeed(seed string) {
	c, ok := Canonical(seed)
	if !ok {
		return
	}
	u, err := url.Parse(c)
	if err != nil {
		return
	}
	s.hosts[u.Host] = true
	s.sites[site(u.Hostname())] = true
}

// In reports whether the canonical URL c is in scope.
func (s *Scope) In(c string) bool {
	u, err := url.Parse(c)
	if err != nil || u.Host == "" {
		return false
	}
	switch s.Mode {
	case ScopeHost:
		return s.hosts[u.Host]
	case ScopeSite:
		return s.sites[site(u.Hostname())]
	case ScopePrefix:
		for _, p := range s.prefixes {
			if strings.HasPrefix(c, p) {
				return true
			}
		}
		return false
	case ScopeRegex:
		return s.re.MatchString(c)
	}
	return true
}

// Check is the scope as sieve crawl has capture apply it (capture.WithScope)
// to every URL a page's read is about to request: the page, each redirect
// hop, a navigation in the browser. It returns nil for a URL in scope.
func (s *Scope) Check(raw string) error {
	if c, ok := Canonical(raw); ok && s.In(c) {
		return nil
	}
	return s.outside()
}

// CheckSite is Check for a site's own files: robots.txt Sitemap: lines,
// sitemaps, sitemap-index entries and feeds. For host, site and any it is
// the pages' scope; a prefix or regex scope takes the hosts of its seeds
// and prefixes, since a site's sitemaps seldom lie under the prefix or
// match the expression that its pages do.
func (s *Scope) CheckSite(raw string) error {
	c, ok := Canonical(raw)
	if ok && (s.In(c) || (s.Mode == ScopePrefix || s.Mode == ScopeRegex) && s.hostIn(c)) {
		return nil
	}
	return s.outside()
}

func (s *Scope) hostIn(c string) bool {
	u, err := url.Parse(c)
	return err == nil && s.hosts[u.Host]
}

func (s *Scope) outside() error {
	return fmt.Errorf("outside the crawl's scope (--scope %s)", s.Mode)
}

// site is the registrable domain of host (example.co.uk for
// www.example.co.uk), or host itself for an IP or a bare name.
func site(host string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}
