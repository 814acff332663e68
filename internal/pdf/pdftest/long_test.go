package pdftest

import (
	"bytes"
	"strings"
	"testing"
)

// TestLongHTMLIsLong: the bench's document must print to 60+ pages (issue
// 6 asks for pages/s on a 60+ page document). Each chapter's h2 breaks the
// page, so 64 chapters are 64 pages at least; and the text is the same on
// every call, so that runs compare.
func TestLongHTMLIsLong(t *testing.T) {
	html := LongHTML(64)
	if !strings.Contains(string(html), "h2 { font-size: 16pt; break-before: page; }") {
		t.Fatal("the chapters no longer start a page: the page count is not assured")
	}
	if n := bytes.Count(html, []byte("<h2>")); n < 60 {
		t.Errorf("%d chapters, want 60+ pages", n)
	}
	if !bytes.Equal(html, LongHTML(64)) {
		t.Error("LongHTML is not deterministic")
	}
}
