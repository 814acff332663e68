package normalize

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

const testURL = "https://example.test/dir/page.html"

func htmlCapture(body string) *capture.Record {
	return &capture.Record{
		Record:        "capture",
		SchemaVersion: "1.0",
		URL:           testURL,
		FinalURL:      testURL,
		Tier:          "static",
		Status:        200,
		Headers:       map[string]string{"content-type": "text/html; charset=utf-8"},
		ContentType:   "text/html",
		Body:          body,
		BodyBytes:     int64(len(body)),
	}
}

func mustNormalize(t testing.TB, body string) *Record {
	t.Helper()
	out, err := Normalize(htmlCapture(body))
	if err != nil {
		t.Fatalf("Normalize: %v", err)
	}
	checkTree(t, out)
	return out
}

// checkTree checks the invariants every node list keeps.
func checkTree(t testing.TB, r *Record) {
	t.Helper()
	for i, n := range r.Nodes {
		if n.ID != i {
			t.Fatalf("node %d has id %d", i, n.ID)
		}
		if n.Parent >= n.ID || n.Parent < -1 {
			t.Fatalf("node %d has parent %d", i, n.Parent)
		}
		if n.Parent >= 0 && r.Nodes[n.Parent].Tag == textTag {
			t.Fatalf("node %d has a text node as parent", i)
		}
		if (n.Tag == textTag) == (n.Path != "") {
			t.Fatalf("node %d (%s) has path %q", i, n.Tag, n.Path)
		}
		if n.Source != SourceStatic && (n.Source != SourceCanvas || !underCanvas(r, n)) {
			t.Fatalf("node %d has source %q", i, n.Source)
		}
	}
}

// underCanvas reports whether n has a <canvas> ancestor.
func underCanvas(r *Record, n Node) bool {
	for p := n.Parent; p >= 0; p = r.Nodes[p].Parent {
		if r.Nodes[p].Tag == "canvas" {
			return true
		}
	}
	return false
}

// byID returns the element with attribute id, failing when absent.
func byID(t testing.TB, r *Record, id string) Node {
	t.Helper()
	for _, n := range r.Nodes {
		if n.Attrs["id"] == id {
			return n
		}
	}
	t.Fatalf("no element with id %q", id)
	return Node{}
}

// allText joins every text node's text.
func allText(r *Record) string {
	var b strings.Builder
	for _, n := range r.Nodes {
		if n.Tag == textTag {
			b.WriteString(n.Text)
			b.WriteByte('|')
		}
	}
	return b.String()
}
