package normalize_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
)

// TestPDFRealNoSilentLoss reads documents of ../shared/bench/pdf-real
// that once lost text while saying ok, and checks that every letter and
// digit poppler's pdftotext reads ends in a block (content or chrome, with
// its reason) or in latent[]: at most pdfLossShare of pdftotext's may be
// missing (where the two split ligatures and hyphens differently).
func TestPDFRealNoSilentLoss(t *testing.T) {
	for _, c := range []struct {
		set, id string
		// content: the content blocks alone (what text and Markdown show)
		// keep all but pdfContentLossShare of pdftotext's letters.
		content bool
	}{
		{"kreuzberg", "issue-67-example", true}, // Chinese quarterly report: sections and tables
		{"kreuzberg", "pdffill-demo", false},    // its page-top buttons (First Page, …) repeat on every page: a running header
		{"kreuzberg", "annotations", true},      // a stamp's text: annotations are read as drawn
		{"kreuzberg", "federal-register-2020-17221", true},
		{"docling-md", "code_and_formula", true}, // the code listing's body, repeated paragraphs
	} {
		t.Run(c.id, func(t *testing.T) {
			path := pdftest.RealFile(t, c.set, c.id)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := runeCounts(popplerWords(t, path))
			rec := capturePDF(t, data)
			n, err := normalize.Normalize(&rec)
			if err != nil {
				t.Fatal(err)
			}
			g := graph.Build(n)
			var kept strings.Builder
			for _, b := range g.Blocks {
				kept.WriteString(b.Text + "\n")
			}
			for _, l := range g.Latent {
				kept.WriteString(l.Text + "\n")
			}
			have := runeCounts(kept.String())
			missing, total := 0, 0
			var lost []rune
			for r, k := range want {
				total += k
				if d := k - have[r]; d > 0 {
					missing += d
					lost = append(lost, r)
				}
			}
			if float64(missing) > pdfLossShare*float64(total) {
				t.Errorf("%d of pdftotext's %d letters and digits are in no block and not latent (e.g. %q)", missing, total, string(lost[:min(len(lost), 40)]))
			}
			if !c.content {
				return
			}
			var shown strings.Builder
			for _, b := range g.Blocks {
				if b.Role == "content" {
					shown.WriteString(b.Text + "\n")
				}
			}
			if m := missingFrom(want, runeCounts(shown.String())); float64(m) > pdfContentLossShare*float64(total) {
				t.Errorf("the content blocks miss %d of pdftotext's %d letters and digits: pages were dropped as chrome", m, total)
			}
		})
	}
}

const (
	pdfLossShare        = 0.02
	pdfContentLossShare = 0.10
)

// missingFrom counts the letters of want that have lacks.
func missingFrom(want, have map[rune]int) int {
	n := 0
	for r, k := range want {
		if d := k - have[r]; d > 0 {
			n += d
		}
	}
	return n
}

// popplerWords is pdftotext's reading of the file; the test is skipped
// without it, and fails under CI.
func popplerWords(t *testing.T, path string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pdftotext is missing under CI: apt-get install poppler-utils")
		}
		t.Skip("SKIPPING: pdftotext is missing: apt-get install poppler-utils")
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// runeCounts counts the letters and digits of s, NFKC-folded and
// lower-cased, so that ligatures and full-width forms compare equal.
func runeCounts(s string) map[rune]int {
	out := map[rune]int{}
	for _, r := range strings.ToLower(norm.NFKC.String(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out[r]++
		}
	}
	return out
}
