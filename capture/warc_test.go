package capture

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/warctest"
)

const identical = "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"

var pageA = []byte("<!doctype html><title>A</title><p>caf\xe9 au lait</p>")

// ccFile is a Common Crawl-style file: gzip per record, with every kind
// of record a reader meets and the faults it must survive.
func ccFile() []byte {
	html := []string{"Content-Type: text/html; charset=windows-1252"}
	a := warctest.HTTPBlock(200, html, pageA)
	return warctest.File(true,
		warctest.Rec{Type: "warcinfo", Block: []byte("software: test\r\n")},
		warctest.Rec{Type: "request", URI: "http://a.test/", Block: []byte("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n")},
		warctest.Rec{Type: "response", URI: "http://a.test/", Block: a},
		warctest.Rec{Type: "response", URI: "http://a.test/logo.png", Block: warctest.HTTPBlock(200, []string{"Content-Type: image/png"}, []byte("\x89PNG\r\n\x1a\nxxxx"))},
		warctest.Rec{Type: "revisit", URI: "http://a.test/again", PayloadDigest: warctest.PayloadDigestOf(a),
			Fields: []string{identical, "WARC-Refers-To-Target-URI: http://a.test/"}, Block: warctest.HTTPBlock(200, html, nil)},
		warctest.Rec{Type: "revisit", URI: "http://a.test/lost", PayloadDigest: "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
			Fields: []string{identical}, Block: warctest.HTTPBlock(200, html, nil)},
		warctest.Rec{Type: "response", URI: "http://a.test/cut", Fields: []string{"WARC-Truncated: length"},
			Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html"}, []byte("<p>the first part"))},
		warctest.Rec{Type: "response", URI: "http://a.test/broken", Corrupt: true,
			Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html"}, bytes.Repeat([]byte("<p>lost words "), 200))},
		warctest.Rec{Type: "response", URI: "http://a.test/long", ContentLength: 9999,
			Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html"}, []byte("<p>short"))},
		warctest.Rec{Type: "response", URI: "http://a.test/tampered", PayloadDigest: warctest.PayloadDigestOf(a),
			Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html"}, []byte("<p>not A"))},
		warctest.Rec{Type: "metadata", URI: "http://a.test/", Block: []byte("fetchTimeMs: 12\r\n")},
		warctest.Rec{Type: "response", URI: "http://a.test/last", Block: warctest.HTTPBlock(404, []string{"Content-Type: text/html; charset=utf-8"}, []byte("<p>gone"))},
	)
}

func writeFile(t *testing.T, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// offline is a Capturer whose address policy and resolver count every
// question: a WARC read must ask neither.
func offline(t *testing.T) (*Capturer, *atomic.Int32) {
	o := DefaultOptions() // the address policy on, robots.txt honoured
	c := newCapturer(t, o)
	var asked atomic.Int32
	if c.deny == nil {
		t.Fatal("the default options have no address policy")
	}
	c.deny = func(netip.AddrPort) bool { asked.Add(1); return true }
	c.lookup = func(context.Context, string) ([]netip.Addr, error) {
		asked.Add(1)
		return nil, context.Canceled
	}
	return c, &asked
}

func readAll(t *testing.T, c *Capturer, path string) ([]WARCPage, WARCStats) {
	t.Helper()
	var pages []WARCPage
	stats, err := c.ReadWARC(context.Background(), path, func(p WARCPage) error {
		pages = append(pages, p)
		return nil
	})
	if err != nil {
		t.Fatalf("ReadWARC: %v", err)
	}
	return pages, stats
}

// Every response and revisit of a page becomes a capture record or an
// error record, in file order; the other records are counted; nothing is
// dialled or resolved.
func TestWARCCommonCrawlStyle(t *testing.T) {
	c, asked := offline(t)
	pages, stats := readAll(t, c, writeFile(t, "cc.warc.gz", ccFile()))
	type want struct {
		uri, err string
	}
	wants := []want{
		{"http://a.test/", ""},
		{"http://a.test/again", ""},
		{"http://a.test/lost", "no earlier response"},
		{"http://a.test/cut", ""},
		{"", "unreadable WARC record"},
		{"http://a.test/long", "content length mismatch"},
		{"http://a.test/tampered", "payload digest mismatch"},
		{"http://a.test/last", ""},
	}
	if len(pages) != len(wants) {
		for _, p := range pages {
			t.Logf("%d %s %v", p.No, p.URI, p.Err)
		}
		t.Fatalf("%d pages, want %d", len(pages), len(wants))
	}
	for i, w := range wants {
		p := pages[i]
		switch {
		case w.err == "" && p.Err != nil:
			t.Errorf("%s: %v", w.uri, p.Err)
		case w.err != "" && (p.Err == nil || !strings.Contains(p.Err.Error(), w.err)):
			t.Errorf("%s: error %v, want one saying %q", w.uri, p.Err, w.err)
		case w.err == "" && p.Record.URL != w.uri:
			t.Errorf("page %d is %s, want %s", i, p.Record.URL, w.uri)
		}
		if p.Err == nil {
			validateRecord(t, "capture", p.Record)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Errorf("the address policy or the resolver was asked %d times", n)
	}
	if stats.Pages != 4 || stats.Errors != 4 || stats.Records != 12 {
		t.Errorf("stats %+v, want 4 pages, 4 errors, 12 records", stats)
	}
	for why, n := range map[string]int{"warcinfo": 1, "request": 1, "metadata": 1, "responses of other types": 1} {
		if stats.Skipped[why] != n {
			t.Errorf("passed over %q: %d, want %d (%v)", why, stats.Skipped[why], n, stats.Skipped)
		}
	}
	checkPages(t, pages)
}

func checkPages(t *testing.T, pages []WARCPage) {
	a, again, cut, last := pages[0].Record, pages[1].Record, pages[3].Record, pages[7].Record
	if a.Body != "<!doctype html><title>A</title><p>café au lait</p>" || a.Charset.Name != "windows-1252" || a.Charset.Source != "header" {
		t.Errorf("page A: body %q, charset %+v: not decoded as a fetch decodes it", a.Body, a.Charset)
	}
	if a.Status != 200 || a.Headers["content-type"] != "text/html; charset=windows-1252" || a.Timing.StartedAt != "2026-01-02T03:04:05Z" {
		t.Errorf("page A: status %d, headers %v, started_at %s", a.Status, a.Headers, a.Timing.StartedAt)
	}
	if a.Robots != nil || a.Trace.Robots {
		t.Errorf("page A claims a robots.txt check: %+v, trace %v", a.Robots, a.Trace.Robots)
	}
	if again.Body != a.Body || again.SourceFingerprint != a.SourceFingerprint || again.FinalURL != "http://a.test/again" {
		t.Errorf("the revisit is not A's payload under its own URI: %+v", again)
	}
	if !cut.Truncated || cut.Error != nil {
		t.Errorf("WARC-Truncated: length: truncated %v, error %+v", cut.Truncated, cut.Error)
	}
	if last.Status != 404 || last.Body != "<p>gone" {
		t.Errorf("the record after the corrupt ones: status %d body %q", last.Status, last.Body)
	}
}

// A plain (uncompressed) WARC 1.0 file reads too, wget's <uri> included;
// a record whose Content-Length is short of its block is an error record
// and the records after it still read.
func TestWARCPlainFile(t *testing.T) {
	c, _ := offline(t)
	html := []string{"Content-Type: text/html"}
	b := warctest.File(false,
		warctest.Rec{Type: "response", URI: "<http://b.test/one>", Block: warctest.HTTPBlock(200, html, []byte("<p>one"))},
		warctest.Rec{Type: "response", URI: "http://b.test/short", ContentLength: 40, Block: warctest.HTTPBlock(200, html, []byte("<p>a body longer than its stated length"))},
		warctest.Rec{Type: "response", URI: "http://b.test/three", Block: warctest.HTTPBlock(200, html, []byte("<p>three"))},
	)
	b = bytes.Replace(b, []byte("WARC/1.1"), []byte("WARC/1.0"), 1)
	pages, stats := readAll(t, c, writeFile(t, "plain.warc", b))
	var got []string
	for _, p := range pages {
		if p.Err != nil {
			got = append(got, "error")
		} else {
			got = append(got, p.Record.URL)
		}
	}
	if strings.Join(got, " ") != "http://b.test/one error http://b.test/three" {
		for _, p := range pages {
			t.Log(p.Err)
		}
		t.Fatalf("pages %v, stats %+v", got, stats)
	}
}

// A WARC file gzipped as one stream (not per record) reads whole, its
// revisits too: gowarc alone would stop after the first record.
func TestWARCWholeGzip(t *testing.T) {
	c, _ := offline(t)
	html := []string{"Content-Type: text/html"}
	one := warctest.HTTPBlock(200, html, []byte("<p>one"))
	plain := warctest.File(false,
		warctest.Rec{Type: "response", URI: "http://b.test/one", Block: one},
		warctest.Rec{Type: "response", URI: "http://b.test/two", Block: warctest.HTTPBlock(200, html, []byte("<p>two"))},
		warctest.Rec{Type: "revisit", URI: "http://b.test/again", PayloadDigest: warctest.PayloadDigestOf(one), Fields: []string{identical}},
	)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(plain)
	zw.Close()
	pages, _ := readAll(t, c, writeFile(t, "whole.warc.gz", b.Bytes()))
	var got []string
	for _, p := range pages {
		got = append(got, p.URI+" "+p.Record.Body)
		if p.Err != nil {
			t.Error(p.Err)
		}
	}
	if want := "http://b.test/one <p>one|http://b.test/two <p>two|http://b.test/again <p>one"; strings.Join(got, "|") != want {
		t.Errorf("pages %q, want %q", strings.Join(got, "|"), want)
	}
}

// sieve-capture --warc writes the capture and error records as JSON lines
// that validate, says what it passed over on stderr, and exits 1 for the
// error records.
func TestWARCCommand(t *testing.T) {
	path := writeFile(t, "cc.warc.gz", ccFile())
	lines, stderr, code := runCommand(t, "", "--warc", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (error records); stderr:\n%s", code, stderr)
	}
	kinds := map[string]int{}
	for _, l := range lines {
		var o outLine
		if err := codec.Unmarshal([]byte(l), &o); err != nil {
			t.Fatal(err)
		}
		kinds[o.Record]++
		validateLine(t, o.Record, []byte(l))
	}
	if kinds["capture"] != 4 || kinds["error"] != 4 {
		t.Errorf("records %v, want 4 capture and 4 error", kinds)
	}
	if !strings.Contains(stderr, "12 WARC records: 4 pages, 4 errors; passed over: 1 metadata, 1 request, 1 responses of other types, 1 warcinfo") {
		t.Errorf("stderr lacks the counts:\n%s", stderr)
	}
	if _, stderr, code := runCommand(t, "", "--warc", path, "--tier", "auto"); code != 2 {
		t.Errorf("--warc --tier auto: exit %d, want 2 (usage)\n%s", code, stderr)
	}
}

// A record the WARC library panics on (FuzzWARC's find: gowarc v2.2.4
// indexes the one-byte version line of "WARC/\n" at -1) ends the file's
// read with an error page after the pages before it, not the process.
func TestWARCReaderPanic(t *testing.T) {
	good := warctest.File(false, warctest.Rec{Type: "response", URI: "http://p.test/", Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html"}, []byte("<p>before"))})
	c, _ := offline(t)
	pages, stats := readAll(t, c, writeFile(t, "p.warc", append(good, "WARC/\n"...)))
	if len(pages) != 2 || pages[0].Err != nil || pages[1].Err == nil || !strings.Contains(pages[1].Err.Error(), "the WARC reader failed on it") {
		t.Fatalf("pages %+v", pages)
	}
	if stats.Records != 2 || stats.Pages != 1 || stats.Errors != 1 {
		t.Errorf("stats %+v", stats)
	}
}

// Whatever the bytes, a read ends, without a panic, and every page it
// gives is a capture record that validates or an error.
func FuzzWARC(f *testing.F) {
	f.Add(ccFile())
	f.Add(warctest.File(false, warctest.Rec{Type: "response", URI: "http://f.test/", Block: warctest.HTTPBlock(200, []string{"Content-Type: text/html", "Transfer-Encoding: chunked"}, []byte("5\r\n<p>hi\r\n0\r\n\r\n"))}))
	dir := f.TempDir()
	c := New(DefaultOptions()) // one for every input, as one sieve distill reads many files
	f.Cleanup(c.Close)
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f.warc")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _ = c.ReadWARC(context.Background(), p, func(pg WARCPage) error {
			if pg.Err == nil && pg.Record.Record != "capture" {
				t.Fatalf("page without a record: %+v", pg)
			}
			return nil
		})
	})
}
