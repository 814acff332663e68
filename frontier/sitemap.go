package frontier

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// Kinds of document ParseSitemap recognises.
const (
	KindURLSet       = "urlset"       // a sitemap: page URLs
	KindSitemapIndex = "sitemapindex" // a sitemap index: more sitemaps
	KindRSS          = "rss"          // an RSS 2.0 (or RDF 1.0) feed: item links
	KindAtom         = "atom"         // an Atom feed: entry links
	KindText         = "text"         // a text sitemap: one URL per line
)

// maxSitemapBytes is the most ParseSitemap reads after gunzip (the
// sitemaps.org limit is 50 MB uncompressed).
const maxSitemapBytes = 50 << 20

// Sitemap is what one sitemap, sitemap index or feed lists.
type Sitemap struct {
	Kind     string
	URLs     []string // pages
	Sitemaps []string // further sitemaps (an index)
}

// ParseSitemap reads a sitemap (XML or text), a sitemap index, or an
// RSS/Atom feed, gzip-compressed or not, and resolves relative links
// against base.
func ParseSitemap(body []byte, base string) (Sitemap, error) {
	if len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return Sitemap{}, fmt.Errorf("gzip: %w", err)
		}
		body, err = io.ReadAll(io.LimitReader(zr, maxSitemapBytes))
		if err != nil {
			return Sitemap{}, fmt.Errorf("gzip: %w", err)
		}
	}
	b, _ := url.Parse(base)
	resolve := func(s string) string {
		s = strings.TrimSpace(s)
		if s == "" {
			return ""
		}
		if b == nil {
			return s
		}
		r, err := b.Parse(s)
		if err != nil {
			return ""
		}
		return r.String()
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n\ufeff")
	if !bytes.HasPrefix(trimmed, []byte("<")) {
		return parseText(trimmed, resolve), nil
	}
	return parseXML(trimmed, resolve)
}

func parseText(body []byte, resolve func(string) string) Sitemap {
	sm := Sitemap{Kind: KindText}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "http://") || strings.HasPrefix(line, "https://") {
			if u := resolve(line); u != "" {
				sm.URLs = append(sm.URLs, u)
			}
		}
	}
	return sm
}

// parseXML walks the elements by local name, so namespaces and prefixes
// (sitemap, image and news extensions, RDF) do not matter.
func parseXML(body []byte, resolve func(string) string) (Sitemap, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var sm Sitemap
	var stack []string
	var text strings.Builder
	parent := func(n int) string {
		if len(stack) > n {
			return stack[len(stack)-1-n]
		}
		return ""
	}
	add := func(list *[]string, s string) {
		if u := resolve(s); u != "" {
			*list = append(*list, u)
		}
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if sm.Kind == "" {
				return sm, fmt.Errorf("not a sitemap or feed: %w", err)
			}
			break // keep what a broken document gave so far
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if len(stack) == 0 {
				switch name {
				case "urlset":
					sm.Kind = KindURLSet
				case "sitemapindex":
					sm.Kind = KindSitemapIndex
				case "rss", "rdf":
					sm.Kind = KindRSS
				case "feed":
					sm.Kind = KindAtom
				default:
					return sm, fmt.Errorf("not a sitemap or feed: root element <%s>", t.Name.Local)
				}
			}
			stack = append(stack, name)
			text.Reset()
			if sm.Kind == KindAtom && name == "link" && parent(1) == "entry" {
				var href, rel string
				for _, a := range t.Attr {
					switch strings.ToLower(a.Name.Local) {
					case "href":
						href = a.Value
					case "rel":
						rel = a.Value
					}
				}
				if rel == "" || rel == "alternate" {
					add(&sm.URLs, href)
				}
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			name := parent(0)
			switch {
			case name == "loc" && parent(1) == "url" && sm.Kind == KindURLSet:
				add(&sm.URLs, text.String())
			case name == "loc" && parent(1) == "sitemap" && sm.Kind == KindSitemapIndex:
				add(&sm.Sitemaps, text.String())
			case name == "link" && parent(1) == "item" && sm.Kind == KindRSS:
				add(&sm.URLs, text.String())
			}
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			text.Reset()
		}
	}
	if sm.Kind == "" {
		return sm, errors.New("not a sitemap or feed: no root element")
	}
	return sm, nil
}
