package textnorm

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain ascii", "Hello, world.", "Hello, world."},
		{"empty", "", ""},
		{"NBSP", "a\u00a0b", "a b"},
		{"narrow NBSP", "10\u202fkm", "10 km"},
		{"en quad to hair space", "a\u2000b\u2001c\u2002d\u2003e\u2004f\u2005g\u2006h\u2007i\u2008j\u2009k\u200al", "a b c d e f g h i j k l"},
		{"ideographic space", "日本\u3000語", "日本 語"},
		{"line and paragraph separators", "a\u2028b\u2029c", "a b c"},
		{"NEL", "a\u0085b", "a b"},
		{"ascii white space", "a\tb\nc\rd\fe\vf", "a b c d e f"},
		{"soft hyphen removed", "hy\u00adphen", "hyphen"},
		{"ZWSP removed", "zero\u200bwidth", "zerowidth"},
		{"word joiner removed", "a\u2060b", "ab"},
		{"BOM removed", "\ufeffstart", "start"},
		{"collapse runs", "a  \t\n\u00a0 b", "a b"},
		{"collapse across removed", "a \u00ad\u200b b", "a b"},
		{"leading and trailing kept", "  a  ", " a "},
		{"only spaces", " \t\n ", " "},
		{"NFC composes e + acute", "e\u0301", "\u00e9"},
		{"NFC across removed char", "e\u00ad\u0301", "\u00e9"},
		{"NFC Hangul jamo", "\u1100\u1161", "\uac00"},
		{"NFC reorders marks", "a\u0323\u0302", "\u1ead"},
		{"already NFC", "café", "café"},
		{"invalid byte", "a\xffb", "a\ufffdb"},
		{"truncated rune", "a\xe2\x82", "a\ufffd\ufffd"},
		{"invalid between spaces", " \xff ", " \ufffd "},
		{"U+FFFD kept", "\ufffd", "\ufffd"},
		{"ZWJ family emoji intact", "👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"},
		{"ZWNJ kept", "a\u200cb", "a\u200cb"},
		{"flag and skin tone intact", "🇩🇪 👍🏽", "🇩🇪 👍🏽"},
		{"variation selector kept", "❤\ufe0f", "❤\ufe0f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPre(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"keeps spaces and indentation", "  if x {\n\t\treturn  1\n  }", "  if x {\n\t\treturn  1\n  }"},
		{"CRLF", "a\r\nb\r\n", "a\nb\n"},
		{"lone CR", "a\rb", "a\nb"},
		{"CR CRLF is two breaks", "a\r\r\nb", "a\n\nb"},
		{"LF CR is two breaks", "a\n\rb", "a\n\nb"},
		{"blank lines kept", "a\n\n\nb", "a\n\n\nb"},
		{"NBSP kept", "a\u00a0b", "a\u00a0b"},
		{"removed characters", "\ufeffso\u00adft\u200b\u2060", "soft"},
		{"CR removed char LF", "a\r\u00ad\nb", "a\n\nb"},
		{"NFC", "e\u0301", "\u00e9"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"ZWJ emoji intact", "👩\u200d💻", "👩\u200d💻"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Pre(tt.in); got != tt.want {
				t.Errorf("Pre(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  Getting  Started\u00a0", "getting started"},
		{"CAFE\u0301", "café"},
		{"\ufeffÜber\u00adsicht", "übersicht"},
		{"\t\n", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Key(tt.in); got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestVersion(t *testing.T) {
	if Version == "" {
		t.Error("Version is empty")
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "a  b", "e\u0301", " \u00a0\u2003 ", "\xff\xfe", "a\u00ad\u0301",
		"👨\u200d👩\u200d👧", "\u1100\u1161\u11a8", "a" + strings.Repeat("\u0301", 40),
		"\u0f73\u0f75", "\u2000\u2001", "Å\u212b\u0041\u030a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Text(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Text(%q) = %q: invalid UTF-8", s, got)
		}
		if strings.Contains(got, "  ") {
			t.Fatalf("Text(%q) = %q: two spaces in a row", s, got)
		}
		if !norm.NFC.IsNormalString(got) {
			t.Fatalf("Text(%q) = %q: not NFC", s, got)
		}
		if again := Text(got); again != got {
			t.Fatalf("not idempotent:\nText(%q)  = %q\nText(that) = %q", s, got, again)
		}
		for _, r := range got {
			if dropped(r) || (r != ' ' && unicode.IsSpace(r)) {
				t.Fatalf("Text(%q) = %q keeps %U", s, got, r)
			}
		}
	})
}

func FuzzPre(f *testing.F) {
	for _, s := range []string{"", "a\r\nb", "\r\r\n", "e\u0301\r", "\xff\r\n\u00ad"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Pre(s)
		if !utf8.ValidString(got) || strings.Contains(got, "\r") {
			t.Fatalf("Pre(%q) = %q", s, got)
		}
		if again := Pre(got); again != got {
			t.Fatalf("not idempotent:\nPre(%q)  = %q\nPre(that) = %q", s, got, again)
		}
	})
}

// textV1 and preV1 are Text and Pre as first written, before their fast
// paths: the fuzz tests below hold the fast versions to the same output.
func textV1(s string) string {
	var b strings.Builder
	space, ascii := false, true
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteRune(r)
			space = false
		case dropped(r):
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
		default:
			if r >= utf8.RuneSelf {
				ascii = false
			}
			b.WriteRune(r)
			space = false
		}
	}
	out := b.String()
	if !ascii {
		out = norm.NFC.String(out)
	}
	return out
}

func preV1(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.Map(func(r rune) rune {
		if dropped(r) {
			return -1
		}
		return r
	}, s)
	return norm.NFC.String(strings.ToValidUTF8(s, "\uFFFD"))
}

func FuzzSameAsV1(f *testing.F) {
	for _, s := range []string{
		"", " ", "a  b", "a\tb", " \n ", "plain text", "e\u0301", "café", "a\u00a0b", "\xff",
		"\ufffd", "a\r\nb", "\u00ad", "x\vy", "\u0085", "日本 語",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Text(s), textV1(s); got != want {
			t.Fatalf("Text(%q) = %q, version 1 gives %q", s, got, want)
		}
		if got, want := Pre(s), preV1(s); got != want {
			t.Fatalf("Pre(%q) = %q, version 1 gives %q", s, got, want)
		}
	})
}
