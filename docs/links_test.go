// Package docs holds the project's documentation; its test keeps the
// Markdown links of README.md and docs/ pointing somewhere.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestLinksResolve checks every Markdown link of README.md and of the .md
// files under docs/: a relative link must name a file or folder of the
// repository, and a #fragment a heading of the file it points into.
// External links (a scheme) are not fetched.
func TestLinksResolve(t *testing.T) {
	files := []string{"../README.md"}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	for _, file := range files {
		for _, l := range links(t, file) {
			if msg := check(file, l, anchors); msg != "" {
				t.Errorf("%s:%d: link %q %s", file, l.line, l.target, msg)
			}
		}
	}
}

type link struct {
	line   int
	target string
}

// linkRE matches an inline link or image, [text](target "title"); the text
// may hold one level of brackets ([`[x]`](y) after code spans are gone).
var linkRE = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)

var codeSpanRE = regexp.MustCompile("(`+)[^`]*?(`+)")

// links lists the links of a Markdown file outside code blocks and spans.
func links(t *testing.T, file string) []link {
	t.Helper()
	var out []link
	for n, line := range proseLines(t, file) {
		if line == "" {
			continue
		}
		for _, m := range linkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(line, ""), -1) {
			out = append(out, link{line: n + 1, target: m[1]})
		}
	}
	return out
}

// proseLines is the file's lines with those inside fenced code blocks
// blanked, so that line numbers stay the file's.
func proseLines(t *testing.T, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			lines[i] = ""
		}
	}
	return lines
}

// check says what is wrong with a link, or "" when it resolves.
func check(from string, l link, anchors map[string]map[string]bool) string {
	target := l.target
	if target == "" {
		return "is empty"
	}
	if regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`).MatchString(target) {
		return "" // http(s), mailto: not checked here
	}
	path, frag, _ := strings.Cut(target, "#")
	dest := from
	if path != "" {
		dest = filepath.Join(filepath.Dir(from), filepath.FromSlash(path))
		info, err := os.Stat(dest)
		if err != nil {
			return "leads nowhere: " + dest + " does not exist"
		}
		if info.IsDir() || frag == "" {
			return ""
		}
	}
	if frag == "" {
		return ""
	}
	if !strings.HasSuffix(dest, ".md") {
		return "has a fragment into a file that is not Markdown"
	}
	if anchors[dest] == nil {
		anchors[dest] = headingAnchors(dest)
	}
	if !anchors[dest][frag] {
		return "names no heading of " + dest
	}
	return ""
}

// headingAnchors lists the anchors GitHub gives a file's headings.
func headingAnchors(file string) map[string]bool {
	out := map[string]bool{}
	b, err := os.ReadFile(file)
	if err != nil {
		return out
	}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		slug := Slug(text)
		if n := seen[slug]; n > 0 {
			out[slug+"-"+itoa(n)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// Slug is GitHub's anchor for a heading: lower case, letters, digits,
// spaces, hyphens and underscores kept, spaces made hyphens.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Exit codes": "exit-codes",
		"Crops: the picture of the cited evidence":        "crops-the-picture-of-the-cited-evidence",
		"Passthrough at the speed of the pipe (issue 17)": "passthrough-at-the-speed-of-the-pipe-issue-17",
		"`sieve mcp`":           "sieve-mcp",
		"index.md and --format": "indexmd-and---format",
		"Read `outcome` first":  "read-outcome-first",
		"Ids and hashes":        "ids-and-hashes",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

// TestDecisionRecord holds docs/DECISIONS.md to its form (every entry with
// a status and a date, under 800 lines) and README.md to a front door's
// length (under 250 lines).
func TestDecisionRecord(t *testing.T) {
	for file, limit := range map[string]int{"DECISIONS.md": 800, "../README.md": 250} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(b), "\n"); n >= limit {
			t.Errorf("%s has %d lines, the limit is %d", file, n, limit)
		}
	}
	b, _ := os.ReadFile("DECISIONS.md")
	status := regexp.MustCompile(`\n- Status: (accepted|superseded by "[^"]+")`)
	date := regexp.MustCompile(`Date: \d{4}-\d\d-\d\d\.`)
	for _, entry := range strings.Split(string(b), "\n### ")[1:] {
		entry, _, _ = strings.Cut(entry, "\n## ")
		title, _, _ := strings.Cut(entry, "\n")
		if !status.MatchString(entry) || !date.MatchString(entry) {
			t.Errorf("DECISIONS.md entry %q lacks a \"- Status: accepted\" (or superseded by \"…\") line with \"Date: YYYY-MM-DD.\"", title)
		}
	}
}

// TestCitedSectionsExist follows the references of the code and the docs
// into the documents they cite: `docs/DECISIONS.md, "Name"` and
// `README.md ("Name")` must find the text, `SPEC.md §4.4` a section of
// docs/spec/SPEC.md, `ARTIFACT.md "Name"` (and DESIGN, FACTS) its text.
func TestCitedSectionsExist(t *testing.T) {
	targets := map[string]string{
		"DECISIONS": "DECISIONS.md", "README": "../README.md", "SPEC": "spec/SPEC.md",
		"ARTIFACT": "spec/ARTIFACT.md", "DESIGN": "spec/DESIGN.md", "FACTS": "spec/FACTS.md",
	}
	texts := map[string]string{}
	for name, file := range targets {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts[name] = strings.ToLower(strings.Join(strings.Fields(string(b)), " "))
	}
	named := regexp.MustCompile(`\b(DECISIONS|README|ARTIFACT|DESIGN|FACTS)(?:\.md)?,? \(?"([^"]+)"`)
	section := regexp.MustCompile(`\bSPEC(?:\.md)?,? § ?([0-9]+(?:\.[0-9]+)*)`)
	commentBreak := regexp.MustCompile(`\s*\n\s*(//)?\s*`)
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin" || d.Name() == "spec" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".md")) || strings.HasSuffix(path, "links_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := commentBreak.ReplaceAllString(string(b), " ")
		for _, m := range named.FindAllStringSubmatch(text, -1) {
			if !strings.Contains(texts[m[1]], strings.ToLower(m[2])) {
				t.Errorf("%s cites %s %q, which %s does not hold", path, m[1], m[2], targets[m[1]])
			}
		}
		for _, m := range section.FindAllStringSubmatch(text, -1) {
			if !specSection(m[1]) {
				t.Errorf("%s cites SPEC.md §%s, which docs/spec/SPEC.md has no section for", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// specSection says whether SPEC.md has a section numbered n ("4.4 Title",
// or "2. Title" for a top-level one).
func specSection(n string) bool {
	b, err := os.ReadFile("spec/SPEC.md")
	if err != nil {
		return false
	}
	head := n + " "
	if !strings.Contains(n, ".") {
		head = n + ". "
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, head) {
			return true
		}
	}
	return false
}
