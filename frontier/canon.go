package frontier

import (
	"net"
	"net/url"
	"strings"
)

// trackingParams are query parameters that say how a visitor arrived, not
// which page they asked for: Canonical drops them. Names ending in "*" are
// prefixes.
var trackingParams = []string{
	"utm_*", "gclid", "gclsrc", "dclid", "fbclid", "msclkid", "yclid", "twclid",
	"mc_cid", "mc_eid", "_ga", "_gl", "_hsenc", "_hsmi", "mkt_tok", "igshid",
	"ref_src", "oly_anon_id", "oly_enc_id", "vero_id", "wickedid", "rb_clickid",
}

func isTracking(name string) bool {
	name = strings.ToLower(name)
	for _, p := range trackingParams {
		if strings.HasSuffix(p, "*") {
			if strings.HasPrefix(name, p[:len(p)-1]) {
				return true
			}
		} else if name == p {
			return true
		}
	}
	return false
}

// Canonical returns the form of an http(s) URL the frontier compares and
// stores: scheme and host lower-cased, the default port (80, 443) and the
// fragment dropped, an empty path made "/", dot segments resolved, and
// tracking parameters (utm_*, gclid, fbclid, …) removed from the query;
// the other parameters keep their order and bytes. ok is false for
// anything that is not an absolute http(s) URL with a host.
func Canonical(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", false
	}
	return canonicalURL(u)
}

func canonicalURL(u *url.URL) (string, bool) {
	v := *u
	v.Scheme = strings.ToLower(v.Scheme)
	if (v.Scheme != "http" && v.Scheme != "https") || v.Hostname() == "" || v.Opaque != "" {
		return "", false
	}
	v.User = nil
	host, port := strings.ToLower(v.Hostname()), v.Port()
	host = strings.TrimRight(host, ".")
	if host == "" {
		return "", false
	}
	if (v.Scheme == "http" && port == "80") || (v.Scheme == "https" && port == "443") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	v.Host = host
	if port != "" {
		v.Host = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	v.Fragment, v.RawFragment = "", ""
	if v.Path == "" {
		v.Path, v.RawPath = "/", ""
	} else if strings.Contains(v.Path, "/.") {
		v = *v.ResolveReference(&url.URL{Path: v.Path, RawPath: v.RawPath})
		v.Fragment, v.RawFragment = "", ""
	}
	v.RawQuery = stripTracking(u.RawQuery)
	v.ForceQuery = false
	return v.String(), true
}

// stripTracking removes tracking parameters from a raw query, keeping the
// others as they were written.
func stripTracking(q string) string {
	if q == "" {
		return ""
	}
	parts := strings.Split(q, "&")
	kept := parts[:0]
	for _, p := range parts {
		if p == "" {
			continue
		}
		name, _, _ := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if !isTracking(name) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}

// HostKey is the key politeness and sharding go by: the lower-cased host
// with its port when not the default, as capture's per-host gates see it.
func HostKey(raw string) string {
	c, ok := Canonical(raw)
	if !ok {
		return ""
	}
	u, _ := url.Parse(c)
	return u.Host
}
