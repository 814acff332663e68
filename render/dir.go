package render

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
)

// maxName is the longest host or slug, in bytes, before a hash suffix.
const maxName = 64

// Dir returns the artifact directory for the requested URL u, relative to
// the output directory: "<host>/<name>". See the package doc for the rules.
func Dir(u string) (string, error) {
	if u == "" {
		return "", errors.New("render: empty url")
	}
	p, err := url.Parse(u)
	if err != nil {
		// An unparseable URL still gets a safe, unique directory.
		return filepath.Join("_invalid", slugName(u, u)), nil
	}
	return filepath.Join(hostDir(p), pageName(p, u)), nil
}

func hostDir(p *url.URL) string {
	switch {
	case strings.EqualFold(p.Scheme, "file"):
		return "local"
	case p.Host == "":
		return "_nohost"
	}
	lower := strings.ToLower(p.Host)
	want := strings.ReplaceAll(lower, ":", "_")
	h := strings.TrimLeft(sanitize(want, hostByte), ".")
	// "_" in a kept name only ever stands for the port's ":".
	lossy := h != want || strings.Contains(lower, "_")
	if len(h) > maxName {
		h, lossy = h[:maxName], true
	}
	if h == "" {
		h = "_"
	}
	if lossy {
		h += "-" + hash8(p.Host)
	}
	return h
}

func pageName(p *url.URL, u string) string {
	scheme := strings.ToLower(p.Scheme)
	root := p.Opaque == "" && (p.Path == "" || p.Path == "/") && p.RawQuery == "" && !p.ForceQuery
	if root && (scheme == "http" || scheme == "https") {
		return "index"
	}
	src := p.Path
	if p.Opaque != "" {
		src = p.Opaque
	}
	if p.RawQuery != "" {
		src += "/" + p.RawQuery
	}
	return slugName(src, u)
}

// slugName is the slug of src plus "-" and 8 hex of sha256(u).
func slugName(src, u string) string {
	var segs []string
	for _, s := range strings.Split(src, "/") {
		s = strings.TrimLeft(sanitize(s, slugByte), ".")
		if s != "" {
			segs = append(segs, s)
		}
	}
	slug := strings.Join(segs, "-")
	if len(slug) > maxName {
		slug = strings.TrimRight(slug[:maxName], "-")
	}
	if slug == "" {
		slug = "page"
	}
	return slug + "-" + hash8(u)
}

// sanitize replaces every rune that ok rejects by "_" (one per rune, so a
// multi-byte character becomes one underscore).
func sanitize(s string, ok func(byte) bool) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && ok(byte(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func hostByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
}

func slugByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || hostByte(c)
}

func hash8(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
