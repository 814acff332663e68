package pdftest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// popplerText is pdftotext's reading of data (poppler is a reference in
// tests only), spaces collapsed.
func popplerText(t *testing.T, data []byte, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pdftotext is missing under CI: apt-get install poppler-utils")
		}
		t.Skip("pdftotext is missing: apt-get install poppler-utils")
	}
	in := filepath.Join(t.TempDir(), "in.pdf")
	if err := os.WriteFile(in, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", append(args, in, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// TestFactsHoldInPoppler checks each document's expected facts against
// poppler's text (its layout reading or the content stream's order: one
// of them keeps a paragraph that crosses columns whole): every visible and hidden string is in the text layer
// (off-page text aside: poppler crops it), the reading order holds, every
// table cell and list item is there. It keeps the expectations honest.
func TestFactsHoldInPoppler(t *testing.T) {
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Password != "" || len(d.Order)+len(d.Visible)+len(d.Hidden)+len(d.Tables) == 0 {
			continue
		}
		t.Run(d.Name, func(t *testing.T) {
			text := popplerText(t, d.PDF)
			raw := popplerText(t, d.PDF, "-raw")
			var want []string
			want = append(want, d.Visible...)
			for _, h := range d.Hidden {
				if h.Reason != ReasonOffPage {
					want = append(want, h.Text)
				}
			}
			for _, tb := range d.Tables {
				for _, c := range tb.Cells {
					want = append(want, c.Text)
				}
			}
			for _, l := range d.Lists {
				want = append(want, l.Items...)
			}
			for _, h := range d.Headings {
				want = append(want, h.Text)
			}
			for _, s := range want {
				if !strings.Contains(text, s) && !strings.Contains(raw, s) {
					t.Errorf("poppler's text has no %q", s)
				}
			}
			// The content stream's order (-raw) is the reading order,
			// except where the document is built to need layout analysis.
			if inOrder(raw, d.Order) == drawnAcross[d.Name] {
				t.Errorf("order in the content stream: %v, want %v: %q", !drawnAcross[d.Name], drawnAcross[d.Name], d.Order)
			}
		})
	}
}

// drawnAcross names the documents whose content stream is not in reading
// order.
var drawnAcross = map[string]bool{"two-column": true}

func inOrder(text string, order []string) bool {
	at := 0
	for _, s := range order {
		i := strings.Index(text[at:], s)
		if i < 0 {
			return false
		}
		at += i + len(s)
	}
	return true
}

// TestTruncatedAndBroken: poppler cannot read them either.
func TestTruncatedAndBroken(t *testing.T) {
	tr, err := Truncated()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []Doc{tr, Broken()} {
		if strings.Contains(string(d.PDF), "%%EOF") {
			t.Errorf("%s: has an end-of-file marker", d.Name)
		}
	}
}

// TestSameBytes: every document carries the fixed date and comes out the
// same from one call to the next (fpdf sorts its catalog only when told),
// so the goldens made from them hold.
func TestSameBytes(t *testing.T) {
	docs, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		if d.Password == "" && strings.Contains(string(d.PDF), "/CreationDate") && !strings.Contains(string(d.PDF), "(D:20260101000000") {
			t.Errorf("%s: creation date not fixed", d.Name)
		}
	}
	for range 5 {
		again, err := All()
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range again {
			if !bytes.Equal(d.PDF, docs[i].PDF) {
				t.Errorf("%s differs from one call to the next", d.Name)
			}
		}
	}
}
