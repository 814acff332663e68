package render

import (
	"path/filepath"
	"strings"
	"testing"
)

func FuzzDir(f *testing.F) {
	for _, s := range []string{"http://h/../../etc/passwd", "file:///", "http://../", "%2e%2e", "http://[::1]:80/a?b", "mailto:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		rel, err := Dir(u)
		if err != nil {
			if u != "" {
				t.Fatalf("Dir(%q): %v", u, err)
			}
			return
		}
		parts := strings.Split(rel, "/")
		if !filepath.IsLocal(rel) || len(parts) != 2 {
			t.Fatalf("Dir(%q) = %q", u, rel)
		}
		for _, p := range parts {
			if p == "" || strings.HasPrefix(p, ".") || strings.ContainsRune(p, 0) || len(p) > 2*maxName {
				t.Fatalf("Dir(%q) = %q: bad part %q", u, rel, p)
			}
		}
	})
}

func FuzzEscapeLine(f *testing.F) {
	for _, s := range []string{"# x", "1. x", "<!-- x -->", "  ---", "\\<", "![a](b)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\r\n") {
			return
		}
		got := escapeLine(s)
		if got == "" {
			return
		}
		if strings.ContainsRune("#>-+*=_~`|[:<", rune(got[0])) || strings.HasPrefix(got, " ") || strings.HasPrefix(got, "\t") {
			t.Fatalf("escapeLine(%q) = %q starts a block", s, got)
		}
		for i := range len(got) {
			if got[i] != '<' {
				continue
			}
			n := 0
			for n < i && got[i-1-n] == '\\' {
				n++
			}
			if n%2 == 0 {
				t.Fatalf("escapeLine(%q) = %q leaves a raw <", s, got)
			}
		}
	})
}
