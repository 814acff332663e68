package frontier_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/frontier"
)

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"HTTP://Example.COM", "http://example.com/"},
		{"http://example.com:80/a#frag", "http://example.com/a"},
		{"https://example.com:443/a/./b/../c", "https://example.com/a/c"},
		{"https://example.com:8443/", "https://example.com:8443/"},
		{"http://example.com/p?utm_source=x&id=3&utm_medium=y&fbclid=z", "http://example.com/p?id=3"},
		{"http://example.com/p?gclid=1", "http://example.com/p"},
		{"http://example.com/p?b=2&a=1", "http://example.com/p?b=2&a=1"},
		{"http://user:pw@example.com./x", "http://example.com/x"},
		{"http://[::1]:80/", "http://[::1]/"},
		{"http://[::1]:8080/", "http://[::1]:8080/"},
	} {
		got, ok := frontier.Canonical(c.in)
		if !ok || got != c.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
	for _, bad := range []string{"ftp://example.com/", "mailto:a@example.com", "/relative", "javascript:void(0)", "http://"} {
		if got, ok := frontier.Canonical(bad); ok {
			t.Errorf("Canonical(%q) = %q, want refused", bad, got)
		}
	}
}

func TestScope(t *testing.T) {
	seeds := []string{"https://www.example.co.uk/docs/"}
	cases := []struct {
		mode, url string
		in        bool
	}{
		{"host", "https://www.example.co.uk/other", true},
		{"host", "https://blog.example.co.uk/", false},
		{"site", "https://blog.example.co.uk/", true},
		{"site", "https://example.org/", false},
		{"prefix", "https://www.example.co.uk/docs/a", true},
		{"prefix", "https://www.example.co.uk/blog", false},
		{"regex", "https://x.test/keep/1", true},
		{"regex", "https://x.test/drop/1", false},
		{"any", "https://anything.test/", true},
	}
	for _, c := range cases {
		s, err := frontier.NewScope(c.mode, seeds, nil, "/keep/")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.In(c.url); got != c.in {
			t.Errorf("%s scope: In(%s) = %v, want %v", c.mode, c.url, got, c.in)
		}
	}
	s, _ := frontier.NewScope("host", []string{"HTTP://WWW.Example.com:80"}, nil, "")
	if !s.In("http://www.example.com/x") {
		t.Error("host scope of a seed in upper case misses its host")
	}
	if _, err := frontier.NewScope("planet", seeds, nil, ""); err == nil {
		t.Error("unknown scope accepted")
	}
}

func TestParseSitemap(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(s))
		w.Close()
		return b.Bytes()
	}
	for _, c := range []struct {
		name, kind string
		body       []byte
		urls, maps []string
	}{
		{"urlset", frontier.KindURLSet, []byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://a.test/1 </loc><lastmod>2024-01-01</lastmod></url><url><loc>/2</loc></url></urlset>`),
			[]string{"https://a.test/1", "https://a.test/2"}, nil},
		{"gzip index", frontier.KindSitemapIndex, gz(`<sitemapindex><sitemap><loc>https://a.test/s1.xml.gz</loc></sitemap></sitemapindex>`),
			nil, []string{"https://a.test/s1.xml.gz"}},
		{"rss", frontier.KindRSS, []byte(`<rss version="2.0"><channel><link>https://a.test/</link><item><link>https://a.test/post</link></item></channel></rss>`),
			[]string{"https://a.test/post"}, nil},
		{"atom", frontier.KindAtom, []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://a.test/"/><entry><link rel="self" href="https://a.test/self"/><link href="https://a.test/e1"/></entry></feed>`),
			[]string{"https://a.test/e1"}, nil},
		{"text", frontier.KindText, []byte("https://a.test/x\n# comment\nhttps://a.test/y\n"),
			[]string{"https://a.test/x", "https://a.test/y"}, nil},
	} {
		sm, err := frontier.ParseSitemap(c.body, "https://a.test/sitemap.xml")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if sm.Kind != c.kind || strings.Join(sm.URLs, " ") != strings.Join(c.urls, " ") || strings.Join(sm.Sitemaps, " ") != strings.Join(c.maps, " ") {
			t.Errorf("%s: got %+v", c.name, sm)
		}
	}
	if _, err := frontier.ParseSitemap([]byte("<html><body>no</body></html>"), ""); err == nil {
		t.Error("an HTML page parsed as a sitemap")
	}
}

func TestSetSurvivesTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seen.tsv")
	s, err := frontier.OpenSet(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range []string{"http://a.test/1", "http://a.test/2", "http://a.test/1"} {
		added, err := s.Add(u, i)
		if err != nil || added != (i < 2) {
			t.Fatalf("Add(%s) = %v, %v", u, added, err)
		}
	}
	s.Close()
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("3\thttp://a.test/tor") // killed mid-line
	f.Close()
	s, err = frontier.OpenSet(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Len() != 2 || s.Has("http://a.test/tor") {
		t.Fatalf("reopened set: %d entries", s.Len())
	}
	s.Add("http://a.test/3", 1)
	b, _ := os.ReadFile(path)
	if string(b) != "0\thttp://a.test/1\n1\thttp://a.test/2\n1\thttp://a.test/3\n" {
		t.Errorf("file after reopen:\n%s", b)
	}
}

func TestShardByHost(t *testing.T) {
	counts := make([]int, 4)
	for i := 0; i < 200; i++ {
		h := "http://h" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".test"
		s := frontier.ShardOf(h+"/x", 4)
		if frontier.ShardOf(h+"/other?q=1", 4) != s || frontier.ShardOf(strings.ToUpper(h[:4])+h[4:]+":80/", 4) != s {
			t.Fatalf("%s: pages of one host in different shards", h)
		}
		counts[s]++
	}
	for i, n := range counts {
		if n < 25 {
			t.Errorf("shard %d got %d of 200 hosts", i, n)
		}
	}
	if _, err := frontier.ParseShard("4/4"); err == nil {
		t.Error("shard 4/4 accepted")
	}
}
