package capture

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"https://example.com/", "testdata/page.html", `{"url":"http://x/"}`, `{"url":1}`, "ftp://x", "::", "\x00", "file:///etc/"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		tg, err := ParseTarget(line)
		if err == nil && tg.URL == "" {
			t.Fatalf("ParseTarget(%q) accepted a target without a URL", line)
		}
	})
}

func FuzzDecodeText(f *testing.F) {
	f.Add([]byte("<meta charset=euc-kr>\xb0\xa1"), "text/html", "", false)
	f.Add([]byte("\xef\xbb\xbfx"), "text/plain", "latin1", true)
	f.Add([]byte("<?xml encoding='shift_jis'?>\x82\xa0"), "application/xml", "", false)
	f.Add([]byte("<meta http-equiv=content-type content='text/html;charset=\"x'>"), "text/html", "utf-16", true)
	f.Fuzz(func(t *testing.T, body []byte, mt, label string, truncated bool) {
		text, cs := decodeText(body, mt, label, truncated)
		if !utf8.ValidString(text) {
			t.Fatalf("decodeText gave invalid UTF-8 for %q", body)
		}
		if cs.Name == "" || cs.Source == "" {
			t.Fatalf("no decision recorded: %+v", cs)
		}
	})
}

func FuzzReadBody(f *testing.F) {
	for _, coding := range []string{"gzip", "deflate", "br", "gzip, br", "identity"} {
		f.Add([]byte("\x1f\x8b\x08\x00garbage"), coding)
		f.Add([]byte("\x78\x9c\x03\x00"), coding)
	}
	f.Fuzz(func(t *testing.T, b []byte, coding string) {
		body, truncated, _ := readBody(bytes.NewReader(b), coding, 1<<16)
		if len(body) > 1<<16 || (truncated && len(body) != 1<<16) {
			t.Fatalf("cap broken: %d bytes, truncated %v", len(body), truncated)
		}
	})
}
