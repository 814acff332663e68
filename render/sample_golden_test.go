package render

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
)

// samplePages are rendered from the real chain (capture → normalize →
// graph) over the bundled sample site, so a change anywhere upstream that
// changes what a reader sees shows up here as a diff of real output.
var samplePages = []string{"/article.html", "/docs.html", "/hidden.html", "/forbidden", "/account", "/challenge", "/app"}

// stable replaces what differs between runs: the server's address and the
// capture time.
var capturedAt = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`)

func TestSampleSiteGolden(t *testing.T) {
	srv := httptest.NewServer(sample.Handler())
	defer srv.Close()
	opts := capture.DefaultOptions()
	opts.AllowPrivate = true
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	for _, p := range samplePages {
		name := strings.Trim(strings.ReplaceAll(p, ".html", ""), "/")
		t.Run(name, func(t *testing.T) {
			tg, err := capture.ParseTarget([]byte(srv.URL + p))
			if err != nil {
				t.Fatal(err)
			}
			c := cp.Capture(context.Background(), tg)
			n, err := normalize.Normalize(&c)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Write(Options{Out: t.TempDir()}, graph.Build(n))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range artifactFiles {
				got, err := os.ReadFile(filepath.Join(a.Dir, f))
				if err != nil {
					t.Fatal(err)
				}
				got = []byte(strings.ReplaceAll(string(got), srv.URL, "http://sample.test"))
				got = capturedAt.ReplaceAll(got, []byte("2026-01-01T00:00:00Z"))
				compareGolden(t, filepath.Join("testdata", "golden-sample", name, f), got)
			}
		})
	}
}
