package main

import (
	"net/url"
	"strings"

	readability "codeberg.org/readeck/go-readability/v2"
	trafilatura "github.com/markusmobius/go-trafilatura"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
)

// peerExtractors are the Go extractors users would otherwise pick. Each
// gets the same UTF-8 body sieve's capture decoded, so the charset
// decision is the same for all, and the page's original URL.
func peerExtractors() []extractor {
	return []extractor{
		{"go-readability-v2", readabilityText, false},
		{"go-trafilatura", trafilaturaText(true), false},
		{"go-trafilatura-nofb", trafilaturaText(false), false},
	}
}

func readabilityText(p bench.Page, rec *capture.Record) (string, error) {
	u, _ := url.Parse(p.URL)
	a, err := readability.FromReader(strings.NewReader(rec.Body), u)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	err = a.RenderText(&sb)
	return sb.String(), err
}

func trafilaturaText(fallback bool) func(bench.Page, *capture.Record) (string, error) {
	return func(p bench.Page, rec *capture.Record) (string, error) {
		u, _ := url.Parse(p.URL)
		r, err := trafilatura.Extract(strings.NewReader(rec.Body), trafilatura.Options{
			OriginalURL: u, EnableFallback: fallback, ExcludeComments: true,
		})
		if err != nil {
			return "", err
		}
		return r.ContentText, nil
	}
}
