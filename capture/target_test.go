package capture

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	page, err := filepath.Abs("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	ok := []struct {
		in     string
		url    string
		path   string
		object bool
	}{
		{"https://example.com/a?b=c", "https://example.com/a?b=c", "", false},
		{"  HTTP://Example.COM/Path  ", "http://example.com/Path", "", false},
		{"testdata/page.html", "file://" + page, page, false},
		{"file://" + page, "file://" + page, page, false},
		{`{"url":"https://example.com/","id":7}`, "https://example.com/", "", true},
		{`{"id":1,"url":"testdata/page.html"}`, "file://" + page, page, true},
	}
	for _, c := range ok {
		got, err := ParseTarget([]byte(c.in))
		if err != nil {
			t.Errorf("ParseTarget(%q): %v", c.in, err)
			continue
		}
		if got.URL != c.url || got.Path != c.path || got.Object != c.object {
			t.Errorf("ParseTarget(%q) = %+v, want url %q path %q object %v", c.in, got, c.url, c.path, c.object)
		}
	}
	bad := []struct{ in, msg string }{
		{"ftp://example.com/file", "unsupported URL scheme"},
		{"mailto:someone@example.com", "unsupported URL scheme"},
		{"http://", "no host"},
		{"http://exa mple.com/", "invalid URL"},
		{"no/such/file.html", "not an http(s) URL or an existing file"},
		{"just some words", "not an http(s) URL or an existing file"},
		{`{"url":`, "malformed JSON"},
		{`{"id":1}`, `no "url"`},
		{`{"url":5}`, "not a string"},
		{`["https://example.com/"]`, "must be an object"},
		{`{"url":"gopher://x"}`, "unsupported URL scheme"},
	}
	for _, c := range bad {
		_, err := ParseTarget([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ParseTarget(%q) error = %v, want one containing %q", c.in, err, c.msg)
		}
	}
}
