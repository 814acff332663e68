package render

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/graph"
)

func TestEscapeMarkdown(t *testing.T) {
	for _, c := range []struct {
		in   string
		at   mdPlace
		want string
	}{
		// Inline constructs, escaped wherever the text goes.
		{"[login](javascript:alert(document.cookie))", mdInline, `\[login\](javascript:alert(document.cookie))`},
		{"see ![p](http://t/)", mdInline, `see !\[p\](http://t/)`},
		{"<http://evil.example/> <javascript:x>", mdInline, `\<http://evil.example/> \<javascript:x>`},
		{"<script>x</script>", mdInline, `\<script>x\</script>`},
		{"<!-- c -->", mdInline, `\<!-- c -->`},
		{"*a* **b** _c_ __d__ ~~e~~ `f`", mdInline, "\\*a\\* \\*\\*b\\*\\* \\_c\\_ \\_\\_d\\_\\_ \\~\\~e\\~\\~ \\`f\\`"},
		{"snake_case_name a_1 _x x_ a__b", mdInline, `snake_case_name a_1 \_x x\_ a\_\_b`},
		{"é_é", mdInline, `é\_é`},
		{"&amp; &#60; &#x3C; &copy; &Dagger;", mdInline, `\&amp; \&#60; \&#x3C; \&copy; \&Dagger;`},
		{"Tom & Jerry, a=1&b=2, &; &#; &#x; &1; & amp;", mdInline, "Tom & Jerry, a=1&b=2, &; &#; &#x; &1; & amp;"},
		{`C:\path\<name> \[x\]`, mdInline, `C:\\path\\\<name> \\\[x\\\]`},
		{"trailing backslash\\", mdInline, `trailing backslash\\`},
		{"[ref]: javascript:x", mdInline, `\[ref\]: javascript:x`},
		{"[^1] [x][ref] []", mdInline, `\[^1\] \[x\]\[ref\] \[\]`},
		{"a\nb\r\nc\rd", mdInline, "a b  c d"},
		// Sieve's own line carries these, so they stay inside a line.
		{"# > - + = | : 1. 2)", mdInline, "# > - + = | : 1. 2)"},
		{"  - x", mdInline, "  - x"},
		// Line starts: block markers.
		{"# heading", mdLineStart, `\# heading`},
		{"  ## indented", mdLineStart, `\## indented`},
		{" \t  # tab and spaces", mdLineStart, `\# tab and spaces`},
		{"    indented code", mdLineStart, "indented code"},
		{"> quote", mdLineStart, `\> quote`},
		{"- item", mdLineStart, `\- item`},
		{"* item", mdLineStart, `\* item`},
		{"+ item", mdLineStart, `\+ item`},
		{"1. item", mdLineStart, `1\. item`},
		{"12) item", mdLineStart, `12\) item`},
		{"123456789. item", mdLineStart, `123456789\. item`},
		{"1234567890. not a list", mdLineStart, "1234567890. not a list"},
		{"2024 was a year", mdLineStart, "2024 was a year"},
		{"plain text 1. here", mdLineStart, "plain text 1. here"},
		{"---", mdLineStart, `\---`},
		{"===", mdLineStart, `\===`},
		{"***", mdLineStart, `\*\*\*`},
		{"___", mdLineStart, `\_\_\_`},
		{"- - -", mdLineStart, `\- - -`},
		{"```js", mdLineStart, "\\`\\`\\`js"},
		{"~~~", mdLineStart, `\~\~\~`},
		{"| a | b |", mdLineStart, `\| a | b |`},
		{":--- | ---", mdLineStart, `\:--- | ---`},
		{"[x]: http://e/", mdLineStart, `\[x\]: http://e/`},
		{"<div>", mdLineStart, `\<div>`},
		{"<!-- section: s_x -->", mdLineStart, `\<!-- section: s_x -->`},
		{"_x", mdLineStart, `\_x`},
		{"&amp;", mdLineStart, `\&amp;`},
		// Headings: a closing "#" run cannot form.
		{"Title ##", mdHeading, `Title #\#`},
		{"#", mdHeading, `\#`},
		{"# inner # text", mdHeading, "# inner # text"},
		{"*x* [y](z)", mdHeading, `\*x\* \[y\](z)`},
		// Table cells: every pipe.
		{"a|b | c", mdCell, `a\|b \| c`},
		{`a\|b`, mdCell, `a\\\|b`},
		{"# - > 1.", mdCell, "# - > 1."},
		{"", mdLineStart, ""},
		{"   ", mdLineStart, ""},
	} {
		if got := escapeMarkdown(c.in, c.at); got != c.want {
			t.Errorf("escapeMarkdown(%q, %d) = %q, want %q", c.in, c.at, got, c.want)
		}
	}
}

func TestEscapeLines(t *testing.T) {
	in := "Setext\n=====\n\n  - item  \r\n---\ntitle: x\r---"
	want := "Setext\n\\=====\n\\- item\n\\---\ntitle: x\n\\---"
	if got := escapeLines(in); got != want {
		t.Errorf("escapeLines(%q) =\n%s\nwant\n%s", in, got, want)
	}
}

func TestEntityAt(t *testing.T) {
	for s, want := range map[string]bool{
		"&amp;": true, "&a;": true, "&CounterClockwiseContourIntegral;": true, "&h1;": true,
		"&#0;": true, "&#1234567;": true, "&#x1;": true, "&#XaF;": true,
		"&": false, "&;": false, "&amp": false, "& amp;": false, "&1a;": false,
		"&#;": false, "&#x;": false, "&#xg;": false, "&#12a;": false, "&a-b;": false, "x&amp;": false,
	} {
		if got := entityAt(s); got != want {
			t.Errorf("entityAt(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDestination(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a(b)?q=<x>":  "https://example.com/a%28b%29?q=%3Cx%3E",
		"https://e/a b\tc`d\\e":           "https://e/a%20b%09c%60d%5Ce",
		"https://e/?a=1&b=2&amp;c=&#60;d": `https://e/?a=1&b=2\&amp;c=\&#60;d`,
		"https://e/*_[x]~":                "https://e/*_[x]~",
	} {
		if got := destination(in); got != want {
			t.Errorf("destination(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestYAMLString(t *testing.T) {
	for _, s := range []string{
		"plain", `quote " and \ backslash`, "new\nline\r---\n...", "tab\tnul\x00",
		"del\x7f c1\u0085\u0090 ls\u2028 ps\u2029 bom\ufeff nonchars\ufffe\uffff",
		"<b>&amp;</b> # not a comment: not a map", "---", "- a", "'single'", "é 😀",
	} {
		got := yamlString(s)
		if !yamlDoubleQuoted(got) {
			t.Errorf("yamlString(%q) = %q: not a one-line YAML double-quoted scalar", s, got)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != s {
			t.Errorf("yamlString(%q) = %q reads back as %q (%v)", s, got, back, err)
		}
	}
}

// yamlDoubleQuoted reports whether s is a YAML double-quoted scalar on one
// line that uses only escapes YAML 1.1 and 1.2 share and only characters
// both print without an escape.
func yamlDoubleQuoted(s string) bool {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return false
	}
	body := s[1 : len(s)-1]
	for i, r := range body {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return false
		}
		if r == '"' && !escapedAt(body, i) {
			return false
		}
	}
	return !regexp.MustCompile(`(^|[^\\])(\\\\)*\\[^"\\bfnrtu]`).MatchString(body)
}

// escapedAt reports whether s[i] follows an odd run of backslashes.
func escapedAt(s string, i int) bool {
	n := 0
	for n < i && s[i-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// hostileLinks are the only link and image destinations the hostile
// fixture's index.md may hold: its http(s) links and image, as sieve
// writes them.
var hostileLinks = []string{
	`https://example.com/a%28b%29?q=1\&amp;c=%3Cd%3E`,
	"https://example.org/empty-text",
	"https://hostile.example/",
	`https://hostile.example/i.png?a=1\&lt;b`,
}

// TestHostileMarkdown reads the hostile fixture's index.md (and the
// evidence document.md, which shares its escaping) the way a CommonMark
// reader would: the only links are sieve's http(s) ones, no page text
// opens raw HTML, an autolink, an entity, a code span or emphasis, the
// blocks are exactly those of the same record with every punctuation
// character of its text replaced, and the front matter is sieve's.
func TestHostileMarkdown(t *testing.T) {
	rec := loadRecord(t, "testdata/hostile.graph.json")
	md := string(Markdown(rec))
	dests, problems := scanMarkdown(md)
	for _, p := range problems {
		t.Errorf("index.md: %s", p)
	}
	slices.Sort(dests)
	if want := slices.Sorted(slices.Values(hostileLinks)); !slices.Equal(dests, want) {
		t.Errorf("index.md links:\n%s\nwant:\n%s", strings.Join(dests, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range dests {
		if !webURL(strings.ReplaceAll(d, `\&`, "&")) {
			t.Errorf("index.md links to %q", d)
		}
	}
	doc := string(DocumentMarkdown(rec))
	if _, problems := scanMarkdown(doc); len(problems) > 0 {
		t.Errorf("document.md: %s", strings.Join(problems, "; "))
	}

	// A link to any scheme but http(s) is inert text: "text (href)".
	for _, want := range []string{
		"- script link (javascript:alert(14))",
		"- data link (data:text/html;base64,PHNjcmlwdD5hbGVydCgxNSk8L3NjcmlwdD4=)",
		`- \- vb link (vbscript:msgbox(16))`,
		`- \# file link (file:///etc/passwd)`,
		"- Case JavaScript (JaVaScRiPt:alert(18))",
		`- mail \[me\](javascript:alert(17)) (mailto:someone@example.com)`,
		`\[image: bad src \[z\](javascript:alert(22))\] \<svg onload=alert(23)>\]`,
	} {
		if !strings.Contains(md, want+"\n") {
			t.Errorf("index.md lacks the line %q", want)
		}
	}

	got, want := skeleton(md), skeleton(string(Markdown(neutered(rec))))
	if !slices.Equal(got, want) {
		t.Errorf("page text changed index.md's blocks:\n%s", firstSkeletonDiff(want, got))
	}

	// Front matter: eleven one-line keys between sieve's two "---".
	lines := strings.Split(md, "\n")
	if lines[0] != "---" || lines[12] != "---" {
		t.Fatalf("front matter is not lines 1-13:\n%s", strings.Join(lines[:14], "\n"))
	}
	for _, l := range lines[1:12] {
		k, v, ok := strings.Cut(l, ": ")
		if !ok || !regexp.MustCompile(`^[a-z_]+$`).MatchString(k) || strings.HasPrefix(v, `"`) && !yamlDoubleQuoted(v) {
			t.Errorf("front matter line %q", l)
		}
	}
	var title string
	if err := json.Unmarshal([]byte(strings.TrimPrefix(lines[11], "title: ")), &title); err != nil || title != rec.Title {
		t.Errorf("front matter title %q reads back as %q (%v)", lines[11], title, err)
	}
}

// TestGoldenMarkdownLinks holds every golden input's index.md to the same
// reading: only http(s) links, nothing opened by page text.
func TestGoldenMarkdownLinks(t *testing.T) {
	for name, path := range goldenCases(t) {
		rec := loadRecord(t, path)
		md := string(Markdown(rec))
		dests, problems := scanMarkdown(md)
		for _, p := range problems {
			t.Errorf("%s: %s", name, p)
		}
		for _, d := range dests {
			if !webURL(strings.ReplaceAll(d, `\&`, "&")) {
				t.Errorf("%s: links to %q", name, d)
			}
		}
		if got, want := skeleton(md), skeleton(string(Markdown(neutered(rec)))); !slices.Equal(got, want) {
			t.Errorf("%s: page text changed the blocks:\n%s", name, firstSkeletonDiff(want, got))
		}
	}
}

// sieveInline are the inline constructs sieve writes itself.
var sieveInline = regexp.MustCompile(`\*\*(Untrusted content\.|Form:|Q:|A:|Outcome: [a-z_]+\.)\*\*`)

// sieveLine are the lines of raw HTML sieve writes itself.
var sieveLine = regexp.MustCompile(`^<!-- (section: [A-Za-z0-9_]+|end of page content) -->$`)

// scanMarkdown reads a document the way a CommonMark reader would as far as
// inline structure goes: it skips the front matter and fenced code, and
// returns the destination of every inline link and image (sieve writes no
// other kind) and a description of every unescaped character that could
// open something else: raw HTML, an autolink, an entity, a code span,
// emphasis, strikethrough, or a reference link or definition.
func scanMarkdown(md string) (dests, problems []string) {
	lines := splitLines(md)
	i := 0
	if len(lines) > 0 && lines[0] == "---" {
		for i = 1; i < len(lines) && lines[i] != "---"; i++ {
		}
		i++
	}
	fence, depth := "", 0
	for ; i < len(lines); i++ {
		if fence != "" {
			if fenceCloses(stripQuotes(lines[i], depth), fence) {
				fence = ""
			}
			continue
		}
		l := stripQuotes(lines[i], -1)
		if f := fenceOpen(l); f != "" {
			fence, depth = f, quoteDepth(lines[i])
			continue
		}
		if sieveLine.MatchString(l) {
			continue
		}
		l = sieveInline.ReplaceAllString(l, "")
		scanInline(l, fmt.Sprintf("line %d", i+1), &dests, &problems)
	}
	return dests, problems
}

func scanInline(s, where string, dests, problems *[]string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && asciiPunct(s[i+1]):
			i++
		case c == '[' || c == '!' && i+1 < len(s) && s[i+1] == '[':
			if c == '!' {
				i++
			}
			label, dest, end, ok := inlineLink(s, i)
			switch {
			case ok:
				scanInline(label, where, dests, problems)
				*dests = append(*dests, dest)
			case end > i && label == "":
				// "[]" before neither "(" nor "[": no link can form.
			default:
				*problems = append(*problems, fmt.Sprintf("%s: a %q that is no inline link: %q", where, "[", s))
				continue
			}
			i = end
		case c == ']' || c == '<' || c == '`' || c == '*' || c == '~':
			*problems = append(*problems, fmt.Sprintf("%s: unescaped %q in %q", where, c, s))
		case c == '_' && (i == 0 || i+1 == len(s) || !asciiAlnum(s[i-1]) || !asciiAlnum(s[i+1])):
			*problems = append(*problems, fmt.Sprintf("%s: unescaped _ in %q", where, s))
		case c == '&' && entityAt(s[i:]):
			*problems = append(*problems, fmt.Sprintf("%s: unescaped entity in %q", where, s))
		}
	}
}

// inlineLink reads "[label](dest)" at s[i] == '['. end is the index of its
// last byte; for "[]" alone, ok is false and end that of "]".
func inlineLink(s string, i int) (label, dest string, end int, ok bool) {
	j := i + 1
	for ; j < len(s) && s[j] != ']'; j++ {
		switch {
		case s[j] == '\\' && j+1 < len(s):
			j++
		case s[j] == '[':
			return "", "", i, false
		}
	}
	if j == len(s) {
		return "", "", i, false
	}
	label = s[i+1 : j]
	if j+1 == len(s) || s[j+1] != '(' {
		if label == "" && (j+1 == len(s) || s[j+1] != '[') {
			return "", "", j, false
		}
		return label, "", i, false
	}
	k := strings.IndexByte(s[j+2:], ')')
	if k < 0 {
		return label, "", i, false
	}
	return label, s[j+2 : j+2+k], j + 2 + k, true
}

func asciiPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// stripQuotes drops up to n block quote markers (all of them for n < 0)
// from the start of a line.
func stripQuotes(l string, n int) string {
	for ; n != 0 && strings.HasPrefix(l, ">"); n-- {
		l = strings.TrimPrefix(l[1:], " ")
	}
	return l
}

// quoteDepth is the number of block quote markers a line starts with.
func quoteDepth(l string) int {
	n := 0
	for ; strings.HasPrefix(l, ">"); n++ {
		l = strings.TrimPrefix(l[1:], " ")
	}
	return n
}

// fenceCloses reports whether a line closes a code block opened by fence.
func fenceCloses(l, fence string) bool {
	t := strings.TrimLeft(l, " ")
	return len(l)-len(t) <= 3 && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]+" ") == ""
}

// fenceOpen is the fence a line opens ("```", "~~~~", …), or "".
func fenceOpen(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || t[0] != '`' && t[0] != '~' {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 || t[0] == '`' && strings.Contains(t[n:], "`") {
		return ""
	}
	return t[:n]
}

// skeleton is the block structure of a document, one entry a line: the
// containers (quote, list item with its indent) and what the line is
// (front matter, fence, code, heading level, table row, thematic break,
// setext underline, HTML, link definition, blank or paragraph text), as
// far as the characters at its start decide it.
func skeleton(md string) []string {
	var out []string
	lines := splitLines(md)
	front := len(lines) > 0 && lines[0] == "---"
	fence, depth := "", 0
	for i, l := range lines {
		if front {
			out = append(out, "front matter")
			front = i == 0 || l != "---"
			continue
		}
		if fence != "" {
			prefix := strings.Repeat("quote ", depth)
			if fenceCloses(stripQuotes(l, depth), fence) {
				fence = ""
				out = append(out, prefix+"fence")
			} else {
				out = append(out, prefix+"code")
			}
			continue
		}
		body := stripQuotes(l, -1)
		prefix := strings.Repeat("quote ", quoteDepth(l))
		if f := fenceOpen(body); f != "" {
			fence, depth = f, quoteDepth(l)
			out = append(out, prefix+"fence")
			continue
		}
		out = append(out, prefix+lineKind(body))
	}
	return out
}

var (
	listMarker = regexp.MustCompile(`^( *)([-+*]|[0-9]{1,9}[.)])( +|$)`)
	atx        = regexp.MustCompile(`^ {0,3}(#{1,6})( |$)`)
	thematic   = regexp.MustCompile(`^ {0,3}(([-*_]) *){3,}$`)
	setext     = regexp.MustCompile(`^ {0,3}(=+|-+) *$`)
	delimRow   = regexp.MustCompile(`^ *\|? *:?-+:? *(\| *:?-+:? *)*\|? *$`)
)

func lineKind(l string) string {
	if m := listMarker.FindStringSubmatch(l); m != nil && !thematic.MatchString(l) {
		kind := "bullet"
		if strings.ContainsAny(m[2], ".)") {
			kind = "ordered"
		}
		return fmt.Sprintf("%s(%d) ", kind, len(m[1])) + lineKind(l[len(m[0]):])
	}
	t := strings.TrimLeft(l, " ")
	switch {
	case strings.Trim(l, " \t") == "":
		return "blank"
	case len(l)-len(t) >= 4:
		return "indented code"
	case atx.MatchString(l):
		return "h" + fmt.Sprint(len(atx.FindStringSubmatch(l)[1]))
	case setext.MatchString(l):
		return "setext"
	case thematic.MatchString(l):
		return "thematic break"
	case t[0] == '|':
		return "table row" // a row that looks like a delimiter is a row, after the first two
	case delimRow.MatchString(l) && strings.ContainsAny(l, "|:"):
		return "table delimiter"
	case t[0] == '<':
		return "html"
	case t[0] == '[':
		return "link definition?"
	}
	return "text"
}

func firstSkeletonDiff(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("line %d: want %q, got %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}

// neutered is a copy of rec whose page text has every ASCII punctuation
// character replaced by "x": what index.md looks like when the page writes
// no Markdown at all. URLs are kept, so the same links are links.
func neutered(rec *graph.Record) *graph.Record {
	return mapText(rec, func(s string) string {
		return strings.Map(func(r rune) rune {
			if r < 0x80 && asciiPunct(byte(r)) {
				return 'x'
			}
			return r
		}, s)
	})
}

// mapText is a copy of rec with f applied to every piece of page text that
// index.md shows; URLs, ids and kinds are kept.
func mapText(rec *graph.Record, f func(string) string) *graph.Record {
	fs := func(ss []string) []string {
		out := make([]string, len(ss))
		for i, s := range ss {
			out[i] = f(s)
		}
		return out
	}
	n := *rec
	n.Title, n.Summary = f(rec.Title), f(rec.Summary)
	n.Outcome.Evidence, n.Outcome.BodyExcerpt = fs(rec.Outcome.Evidence), f(rec.Outcome.BodyExcerpt)
	n.Audit.Notes = fs(rec.Audit.Notes)
	n.Audit.Dropped = slices.Clone(rec.Audit.Dropped)
	for i := range n.Audit.Dropped {
		n.Audit.Dropped[i].Reason = f(n.Audit.Dropped[i].Reason)
	}
	n.Provenance.TierReason = f(rec.Provenance.TierReason)
	n.Blocks = slices.Clone(rec.Blocks)
	for i, b := range n.Blocks {
		n.Blocks[i].Text = f(b.Text)
		rows := make([][]graph.Cell, len(b.Rows))
		for r, row := range b.Rows {
			rows[r] = slices.Clone(row)
			for c := range rows[r] {
				rows[r][c].Text = f(row[c].Text)
			}
		}
		n.Blocks[i].Rows = rows
	}
	n.Actions = slices.Clone(rec.Actions)
	for i, a := range n.Actions {
		n.Actions[i].Label = f(a.Label)
		n.Actions[i].Fields = slices.Clone(a.Fields)
		for j, fl := range a.Fields {
			n.Actions[i].Fields[j].Name, n.Actions[i].Fields[j].Label = f(fl.Name), f(fl.Label)
		}
	}
	n.Links = slices.Clone(rec.Links)
	for i, l := range n.Links {
		n.Links[i].Text = f(l.Text)
	}
	n.MediaAll = slices.Clone(rec.MediaAll)
	for i, m := range n.MediaAll {
		n.MediaAll[i].Description = f(m.Description)
	}
	n.Gaps = slices.Clone(rec.Gaps)
	for i, g := range n.Gaps {
		n.Gaps[i].Label, n.Gaps[i].Reason = f(g.Label), f(g.Reason)
	}
	n.FAQ = slices.Clone(rec.FAQ)
	for i, q := range n.FAQ {
		n.FAQ[i].Question, n.FAQ[i].Answer = f(q.Question), f(q.Answer)
	}
	return &n
}
