package capture

import (
	"errors"
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

// TestParseURLRefusesLocalTarget: with local files not allowed, every way
// of naming a file is ErrLocalTarget, whether the file exists or not (no
// oracle of the disk); http(s) URLs still parse, and with local files
// allowed ParseURL reads a value as ParseTarget reads an object's "url".
func TestParseURLRefusesLocalTarget(t *testing.T) {
	page, err := filepath.Abs("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	local := []string{
		page,
		"testdata/page.html",
		"./testdata/../testdata/page.html",
		"/etc/passwd",
		"/no/such/file",
		"file://" + page,
		"file:///etc/passwd",
		"FILE:///etc/passwd",
		"file://localhost/etc/passwd",
		"file://remote.example/share/x",
		"file:/etc/passwd",
		"C:/Windows/win.ini",
		`\\server\share\x`,
		"~/.ssh/id_ed25519",
		"%2Fetc%2Fpasswd",
		`{"url":"/etc/passwd"}`,
		"just some words",
	}
	for _, s := range local {
		if got, err := ParseURL(s, false); !errors.Is(err, ErrLocalTarget) {
			t.Errorf("ParseURL(%q, local files not allowed) = %+v, %v; want ErrLocalTarget", s, got, err)
		}
	}
	for _, s := range []string{"https://example.com/a", "HTTP://Example.COM/b"} {
		if got, err := ParseURL(s, false); err != nil || got.Path != "" || !strings.HasPrefix(got.URL, "http") {
			t.Errorf("ParseURL(%q, false) = %+v, %v", s, got, err)
		}
	}
	for _, s := range []string{"ftp://example.com/", "http://", "javascript:alert(1)"} {
		if _, err := ParseURL(s, false); err == nil || errors.Is(err, ErrLocalTarget) {
			t.Errorf("ParseURL(%q, false) error = %v, want a non-local refusal", s, err)
		}
	}
	for _, s := range []string{"testdata/page.html", "file://" + page} {
		got, err := ParseURL(s, true)
		want, _ := ParseTarget([]byte(s))
		if err != nil || got != want || got.Path != page {
			t.Errorf("ParseURL(%q, true) = %+v, %v; want %+v", s, got, err, want)
		}
	}
}
