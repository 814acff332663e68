package graph

import (
	"slices"
	"testing"
)

// The byte-wise fast paths of tree.go must give what the rune-wise
// versions give.
func FuzzTreeFastPaths(f *testing.F) {
	for _, s := range []string{
		"", " ", "\n", " a ", "a  b", "a \n b", "a\n\n\nb", "\n a\n\n", "a\tb", "x\xffy", "日本 \n語",
		"siteFooter nav_main", "HTMLParser x2Y", "Ünïcode-Klasse", "a-B_c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := cleanInline(s), cleanInlineRunes(s); got != want {
			t.Errorf("cleanInline(%q) = %q, rune by rune %q", s, got, want)
		}
		if got, want := classTokens(s), appendClassTokensRunes(nil, s); !slices.Equal(got, want) {
			t.Errorf("classTokens(%q) = %q, rune by rune %q", s, got, want)
		}
	})
}
