package frontier_test

import (
	"testing"

	"github.com/sieve-dev/sieve/frontier"
)

// FuzzParseSitemap: whatever a server sends as a sitemap or feed, parsing
// does not panic and every URL it yields is absolute when the base is.
func FuzzParseSitemap(f *testing.F) {
	for _, s := range []string{
		`<urlset><url><loc>/a</loc></url></urlset>`,
		`<sitemapindex><sitemap><loc>https://a.test/s.xml</loc></sitemap></sitemapindex>`,
		`<rss><channel><item><link>x</link></item></channel></rss>`,
		`<feed><entry><link href="/e"/></entry></feed>`,
		"https://a.test/1\nhttps://a.test/2",
		"\x1f\x8b\x08\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sm, err := frontier.ParseSitemap(b, "https://a.test/sitemap.xml")
		if err != nil {
			return
		}
		for _, u := range append(sm.URLs, sm.Sitemaps...) {
			if u == "" {
				t.Errorf("empty URL from %q", b)
			}
		}
	})
}

// FuzzCanonical: canonical form is a fixed point.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"HTTP://A.test:80/a/../b?utm_x=1&q=2#f", "https://[::1]:443/", "http://a.test/%2e%2e/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := frontier.Canonical(s)
		if !ok {
			return
		}
		if c2, ok := frontier.Canonical(c); !ok || c2 != c {
			t.Errorf("Canonical(%q) = %q, then %q (%v)", s, c, c2, ok)
		}
	})
}
