package anchor

import (
	"bytes"
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
)

var update = flag.Bool("update", false, "rewrite the golden reports")

// distillDocs distils the sample site's docs page in-process and returns
// its graph record, with the server's address replaced so that the
// document fingerprint is stable.
func distillDocs(t *testing.T) []byte {
	t.Helper()
	srv := httptest.NewServer(sample.Handler())
	defer srv.Close()
	opts := capture.DefaultOptions()
	opts.AllowPrivate = true
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	tg, err := capture.ParseTarget([]byte(srv.URL + "/docs.html"))
	if err != nil {
		t.Fatal(err)
	}
	c := cp.Capture(context.Background(), tg)
	n, err := normalize.Normalize(&c)
	if err != nil {
		t.Fatal(err)
	}
	g, err := codec.Marshal(graph.Build(n))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(g, []byte(srv.URL), []byte("http://sample.test"))
}

// TestSampleRequest: the anchor request over the sample docs page covers
// every evidence kind and status; the report is golden.
func TestSampleRequest(t *testing.T) {
	src, err := ground.FromGraph(distillDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	req, err := ParseRequest(read(t, "testdata/sample-docs-request.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := Run(src, req)
	validateReport(t, req, r)
	kinds, statuses := map[string]bool{}, map[string]bool{}
	for _, an := range r.Anchors {
		kinds[an.Kind], statuses[an.Status] = true, true
	}
	for _, k := range []string{KindPage, KindText, KindTextRegion, KindTableCell, KindRegion, KindOther} {
		if !kinds[k] {
			t.Errorf("no sample ref of kind %s", k)
		}
	}
	for _, s := range []string{StatusBound, StatusMismatch, StatusNotFound, StatusStale, StatusCapabilityLimited, StatusUnsupportedEvidence} {
		if !statuses[s] {
			t.Errorf("no sample anchor has status %s", s)
		}
	}
	got, err := r.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "sample-docs.ethos-evidence-anchor-report.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := read(t, path); !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (review, then go test ./anchor -run %s -update)", path, t.Name())
	}
}
