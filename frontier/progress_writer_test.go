package frontier

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestProgressWriterNeverInterleaves (issue 26): a log line written while
// a live progress line is up clears that line first, so it never starts
// in the middle of it.
func TestProgressWriterNeverInterleaves(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&b, "sieve crawl", true, 0)
	p.Admitted(3)
	p.Done("ok", "a.test")
	p.report()
	width := p.width
	fmt.Fprintf(p.Writer(), "sieve crawl: line 2: http://a.test/x: interrupted\n")
	got := b.String()
	_, logLine, ok := strings.Cut(got, "\r"+strings.Repeat(" ", width)+"\r")
	if !ok || logLine != "sieve crawl: line 2: http://a.test/x: interrupted\n" {
		t.Errorf("stderr %q: the log line should follow a cleared progress line, whole", got)
	}
	p.report() // the next tick draws the progress line again, after the log line
	if !strings.Contains(b.String(), "interrupted\n\rsieve crawl: 1/3 pages") {
		t.Errorf("stderr %q: the progress line should be redrawn after the log line", b.String())
	}
}
