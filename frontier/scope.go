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

// site is the registrable domain of host (example.co.uk for
// www.example.co.uk), or host itself for an IP or a bare name.
func site(host string) string {
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}
