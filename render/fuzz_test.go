package render

import (
	"path/filepath"
	"slices"
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

// FuzzEscapeMarkdown checks, for any text at any place, that the escaped
// text reads back as the text itself (a backslash only ever comes before
// ASCII punctuation, and every one of them is a CommonMark escape), stays
// on one line, opens no inline structure, and at the start of a line opens
// no block.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"# x", "1. x", "<!-- x -->", "  ---", "\\<", "![a](b)", "[a](javascript:b)", "&amp; a_b _c_", "x ##", "a|b", "`~*", "\xd2", "\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		flat := lineBreaks.Replace(s)
		for _, l := range strings.Split(escapeLines(s), "\n") {
			if k := lineKind(l); k != "text" && (k != "blank" || l != "") {
				t.Fatalf("escapeLines(%q) has the line %q: %s", s, l, k)
			}
		}
		for _, at := range []mdPlace{mdInline, mdLineStart, mdHeading, mdCell} {
			got := escapeMarkdown(s, at)
			want := flat
			if at == mdLineStart {
				want = strings.TrimLeft(flat, " \t")
			}
			if back := unescape(got); back != want {
				t.Fatalf("escapeMarkdown(%q, %d) = %q reads back as %q", s, at, got, back)
			}
			var dests, problems []string
			scanInline(got, "", &dests, &problems)
			if len(dests)+len(problems) > 0 || strings.ContainsAny(got, "\r\n") {
				t.Fatalf("escapeMarkdown(%q, %d) = %q: %v %v", s, at, got, dests, problems)
			}
			switch at {
			case mdLineStart:
				if k := lineKind(got); k != "text" && k != "blank" {
					t.Fatalf("escapeMarkdown(%q, line start) = %q starts a block: %s", s, got, k)
				}
			case mdHeading:
				if strings.HasSuffix(got, "#") && !escapedAt(got, len(got)-1) {
					t.Fatalf("escapeMarkdown(%q, heading) = %q ends in a closing #", s, got)
				}
			case mdCell:
				for i := range len(got) {
					if got[i] == '|' && !escapedAt(got, i) {
						t.Fatalf("escapeMarkdown(%q, cell) = %q leaves a raw |", s, got)
					}
				}
			}
		}
	})
}

// unescape is what a CommonMark reader shows for text with no structure:
// a backslash before ASCII punctuation is dropped.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && asciiPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FuzzMarkdownPageText writes one text into every place of the hostile
// fixture that shows page text and reads the index.md and document.md
// that come out (and --format markdown's content Markdown): nothing
// opened by the text, only sieve's links, and the
// blocks of the same record with the text's punctuation replaced.
func FuzzMarkdownPageText(f *testing.F) {
	for _, s := range []string{"[a](javascript:b)", "---\nx: y\n---", "# h\n===\n- l\n> q\n| a |\n|---|", "<b>&amp;</b>", "```\n~~~", "1) x\r\n\t  * y", "", "-"} {
		f.Add(s)
	}
	rec := loadRecord(f, "testdata/hostile.graph.json")
	// index.md writes a link inline and again in its link list: the
	// destinations are compared as a set.
	want := slices.Compact(slices.Sorted(slices.Values(hostileLinks)))
	f.Fuzz(func(t *testing.T, s string) {
		page := mapText(rec, func(string) string { return s })
		md := string(Markdown(page))
		dests, problems := scanMarkdown(md)
		if _, p := scanMarkdown(string(DocumentMarkdown(page))); len(p) > 0 {
			problems = append(problems, p...)
		}
		for _, header := range []bool{false, true} {
			cd, p := scanMarkdown(string(ContentMarkdown(page, header)))
			problems = append(problems, p...)
			for _, d := range cd {
				if !slices.Contains(want, d) {
					problems = append(problems, "--format markdown links to "+d)
				}
			}
		}
		if dests = slices.Compact(slices.Sorted(slices.Values(dests))); len(problems) > 0 || !slices.Equal(dests, want) {
			t.Fatalf("text %q: links %q, problems %q", s, dests, problems)
		}
		if got, want := skeleton(md), skeleton(string(Markdown(neutered(page)))); !slices.Equal(got, want) {
			t.Fatalf("text %q changed the blocks: %s", s, firstSkeletonDiff(want, got))
		}
	})
}
