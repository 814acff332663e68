package distill

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// TestHandoffKeepsTheTierParse: the handoff gives normalize the tree
// capture's tier decision parsed (the page is parsed once in sieve
// distill), and lets it go when the body it was parsed from changed.
func TestHandoffKeepsTheTierParse(t *testing.T) {
	para := strings.Repeat("The cooperative weighed every basket twice before noon. ", 12)
	c := capture.New(capture.DefaultOptions())
	t.Cleanup(c.Close)
	for _, tc := range []struct {
		name, body string
		kept       bool // false: the body holds an invalid UTF-8 byte
	}{
		{"valid.html", "<!doctype html><title>Plain</title><p>" + para + "</p>", true},
		{"invalid.html", "<!doctype html><title>Bad byte</title><p>" + para + "</p>", false},
	} {
		path := filepath.Join(t.TempDir(), tc.name)
		if err := os.WriteFile(path, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		rec := c.Capture(context.Background(), capture.Target{URL: "file://" + path, Path: path})
		if probe := rec; probe.ParsedBody() == nil {
			t.Fatalf("%s: the tier decision kept no parse tree (%s)", tc.name, rec.TierReason)
		}
		if !tc.kept {
			// capture transcodes what it reads to UTF-8; a record whose body
			// is not valid UTF-8 is made here, its tree kept with it
			doc := rec.ParsedBody()
			rec.Body += "\xff"
			rec.KeepParsedBody(doc)
		}
		plain := rec
		asDecoded(&plain)
		if plain.ParsedBody() != nil {
			t.Fatalf("%s: asDecoded kept the unexported parse tree: a JSON round trip does not", tc.name)
		}
		captureAsDecoded(&rec)
		if got := rec.ParsedBody() != nil; got != tc.kept {
			t.Errorf("%s: parse tree kept = %v, want %v", tc.name, got, tc.kept)
		}
	}
}
