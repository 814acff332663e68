package capture

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// scanPages are served pages for the tier decision's scan: the
// scrapinghub set when it is there, else none (the cases below still run).
func scanPages(tb testing.TB) []string {
	tb.Helper()
	dir := os.Getenv("SIEVE_BENCH_DIR")
	if dir == "" {
		dir = "../../shared/bench"
	}
	gz, _ := filepath.Glob(filepath.Join(dir, "scrapinghub/html/*.html.gz"))
	sort.Strings(gz)
	var out []string
	for i := 0; i < len(gz); i += 6 {
		f, err := os.Open(gz[i])
		if err != nil {
			tb.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(z)
		f.Close()
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, transcode(b, "utf-8", false))
	}
	return out
}

// TestSpacedLen: spacedLen counts what the joined fields would hold.
func TestSpacedLen(t *testing.T) {
	for _, s := range []string{"", " ", "a", "  a  b\t\nc ", "\u00a0x\u0085y\u2003z", "caf\xc3\xa9 \xff bad", "\xe2\x82", "one\u00a0", "\v\f\r"} {
		want := utf8.RuneCountInString(strings.Join(strings.Fields(s), " "))
		if got := spacedLen(s); got != want {
			t.Errorf("spacedLen(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestMarkerAsJoined: the marker scan finds what the lower-cased,
// space-joined parts hold, first marker first.
func TestMarkerAsJoined(t *testing.T) {
	for _, parts := range [][]string{
		{"", ""}, {"x TURNSTILE y", "cf-chl"}, {"a", "b", "https://x/CF-CHL/1"}, {"cf-", "chl"},
		{"\u212aCaptcha hCAPTCHA", ""}, {"DataDome-\xff", "x"}, {"Ünïcode hcaptcha", "awswaf"}, {"px-captcha", "Challenge-Platform"},
	} {
		var want staticRead
		low := strings.ToLower(strings.Join(parts, " "))
		for _, m := range challengeMarkers {
			if strings.Contains(low, m) {
				want.vendor = m
				break
			}
		}
		var got staticRead
		got.marker(parts...)
		if got.vendor != want.vendor {
			t.Errorf("marker(%q) = %q, want %q", parts, got.vendor, want.vendor)
		}
	}
}

func BenchmarkScanStatic(b *testing.B) {
	pages := scanPages(b)
	if len(pages) == 0 {
		b.Skip("no scrapinghub pages (SIEVE_BENCH_DIR)")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scanStatic(pages[i%len(pages)])
	}
}
