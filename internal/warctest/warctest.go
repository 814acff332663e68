// Package warctest writes WARC files for tests, record by record: plain,
// or gzip per record as Common Crawl writes them, with the faults a reader
// must survive (a payload digest that does not match, a Content-Length
// past the block, a corrupt gzip member): one writer for the tests of
// capture, distill and pipelines.
package warctest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Rec is one record of a hand-made WARC file.
type Rec struct {
	Type   string   // response, revisit, request, warcinfo, metadata…
	URI    string   // WARC-Target-URI
	Fields []string // more header lines, "Name: value"
	Block  []byte
	// PayloadDigest replaces the computed WARC-Payload-Digest of an
	// HTTP block; "-" writes none.
	PayloadDigest string
	// ContentLength replaces the true length (a corrupt record).
	ContentLength int
	// Corrupt flips bytes in the middle of the record's gzip member.
	Corrupt bool
}

// HTTPBlock is an HTTP response as a WARC block: status line, headers,
// blank line, body.
func HTTPBlock(status int, headers []string, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\n", status, statusText(status))
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

func statusText(code int) string {
	if code == 200 {
		return "OK"
	}
	return "Status"
}

// PayloadDigestOf is "sha1:" + base32 of the bytes after an HTTP block's
// headers, as Common Crawl writes WARC-Payload-Digest.
func PayloadDigestOf(block []byte) string {
	_, body, _ := bytes.Cut(block, []byte("\r\n\r\n"))
	sum := sha1.Sum(body)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// File is recs as a WARC/1.1 file, each record its own gzip member
// when gz is set (as Common Crawl writes them).
func File(gz bool, recs ...Rec) []byte {
	var out bytes.Buffer
	for i, r := range recs {
		rec := warcBytes(i, r)
		if !gz {
			out.Write(rec)
			continue
		}
		var m bytes.Buffer
		zw := gzip.NewWriter(&m)
		zw.Write(rec)
		zw.Close()
		member := m.Bytes()
		if r.Corrupt {
			for j := len(member) / 2; j < len(member)/2+8; j++ {
				member[j] ^= 0x5a
			}
		}
		out.Write(member)
	}
	return out.Bytes()
}

func warcBytes(i int, r Rec) []byte {
	var h strings.Builder
	fmt.Fprintf(&h, "WARC/1.1\r\nWARC-Type: %s\r\n", r.Type)
	fmt.Fprintf(&h, "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-%012d>\r\n", i)
	h.WriteString("WARC-Date: 2026-01-02T03:04:05Z\r\n")
	if r.URI != "" {
		fmt.Fprintf(&h, "WARC-Target-URI: %s\r\n", r.URI)
	}
	http := r.Type == "response" || r.Type == "revisit" || r.Type == "request"
	switch {
	case r.Type == "response":
		h.WriteString("Content-Type: application/http; msgtype=response\r\n")
	case r.Type == "request":
		h.WriteString("Content-Type: application/http; msgtype=request\r\n")
	case r.Type == "revisit" && len(r.Block) > 0:
		h.WriteString("Content-Type: application/http; msgtype=response\r\n")
	case r.Type == "warcinfo":
		h.WriteString("Content-Type: application/warc-fields\r\n")
	}
	switch {
	case r.PayloadDigest == "-":
	case r.PayloadDigest != "":
		fmt.Fprintf(&h, "WARC-Payload-Digest: %s\r\n", r.PayloadDigest)
	case http && r.Type == "response":
		fmt.Fprintf(&h, "WARC-Payload-Digest: %s\r\n", PayloadDigestOf(r.Block))
	}
	for _, f := range r.Fields {
		h.WriteString(f + "\r\n")
	}
	n := len(r.Block)
	if r.ContentLength != 0 {
		n = r.ContentLength
	}
	fmt.Fprintf(&h, "Content-Length: %d\r\n\r\n", n)
	return append(append([]byte(h.String()), r.Block...), "\r\n\r\n"...)
}

// WrongDigest is a payload digest of the right shape that no test payload
// has: a record with it fails its digest check.
const WrongDigest = "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

// Page is a 200 response record for uri serving body as HTML in UTF-8.
func Page(uri string, body []byte) Rec {
	return Rec{Type: "response", URI: uri, Block: HTTPBlock(200, []string{"Content-Type: text/html; charset=utf-8"}, body)}
}

// Site is a web site on 127.0.0.1 that serves body as contentType under
// every path but /robots.txt (not found: everything allowed), for a live
// read of the pages a test's WARC file holds. It closes when the test
// ends.
func Site(tb testing.TB, contentType string, body []byte) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", contentType)
		w.Write(body)
	}))
	tb.Cleanup(srv.Close)
	return srv
}
