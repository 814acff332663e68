package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

var update = flag.Bool("update", false, "rewrite the golden reports")

// The sample claim set: testdata/sample-claims.json holds one citations
// envelope per sample page; each is verified against the page distilled
// through the real chain, and the report is golden.
var samplePaths = map[string]string{"docs": "/docs.html", "hidden": "/hidden.html", "article": "/article.html"}

// SampleHost replaces the test server's address in distilled graphs, so
// that document fingerprints (which cover the URL) are stable.
const SampleHost = "http://sample.test"

// distillSample distils the sample pages in-process: capture, normalize,
// graph, and the EEF document. It returns each page's graph record,
// document.ethos.json and security_report.json.
func distillSample(t *testing.T) (graphs, docs, reports map[string][]byte) {
	t.Helper()
	srv := httptest.NewServer(sample.Handler())
	defer srv.Close()
	opts := capture.DefaultOptions()
	opts.AllowPrivate = true
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	graphs, docs, reports = map[string][]byte{}, map[string][]byte{}, map[string][]byte{}
	for name, p := range samplePaths {
		tg, err := capture.ParseTarget([]byte(srv.URL + p))
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
		graphs[name] = bytes.ReplaceAll(g, []byte(srv.URL), []byte(SampleHost))
		var rec graph.Record
		if err := codec.Unmarshal(graphs[name], &rec); err != nil {
			t.Fatal(err)
		}
		b, err := eef.Build(&rec, eef.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if docs[name], err = c14n.Marshal(b.Document); err != nil {
			t.Fatal(err)
		}
		if reports[name], err = c14n.Marshal(b.Security); err != nil {
			t.Fatal(err)
		}
	}
	return graphs, docs, reports
}

func sampleClaims(t *testing.T) map[string]Citations {
	t.Helper()
	var set map[string]json.RawMessage
	if err := json.Unmarshal(read(t, "testdata/sample-claims.json"), &set); err != nil {
		t.Fatal(err)
	}
	out := map[string]Citations{}
	for page, raw := range set {
		if err := schemas.Validate("ethos-citations", raw); err != nil {
			t.Errorf("%s: %v", page, err)
		}
		c, err := ParseCitations(raw)
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		out[page] = c
	}
	return out
}

func TestSampleClaims(t *testing.T) {
	graphs, docs, reports := distillSample(t)
	kinds, statuses, claims := map[string]bool{}, map[string]bool{}, 0
	for page, cit := range sampleClaims(t) {
		// As sieve verify reads the bundle: the document with the
		// security report beside it.
		src, err := ground.FromEthos(docs[page])
		if err == nil {
			src, err = ground.WithSecurityReport(src, reports[page])
		}
		if err != nil {
			t.Fatal(err)
		}
		r := Verify(src, cit)
		got, err := r.Canonical()
		if err != nil {
			t.Fatal(err)
		}
		golden(t, filepath.Join("testdata", "sample-"+page+".ethos-verification-report.json"), append(got, '\n'))
		validateReport(t, &r)
		for i, c := range r.Checks {
			kinds[cit.Claims[i].Kind], statuses[c.Status] = true, true
		}
		claims += len(cit.Claims)
		sameVerdictsFromGraph(t, page, graphs[page], cit, r)
	}
	if claims < 40 {
		t.Errorf("%d sample claims, want at least 40", claims)
	}
	for _, k := range []string{KindQuote, KindValue, KindPresence, KindTableCell, KindRegion, KindOther} {
		if !kinds[k] {
			t.Errorf("no sample claim of kind %s", k)
		}
	}
	for _, s := range []string{StatusGrounded, StatusNotFound, StatusMismatch, StatusStale, StatusUnsupported, StatusCapabilityBlocked, StatusError} {
		if !statuses[s] {
			t.Errorf("no sample check has status %s", s)
		}
	}
}

// sameVerdictsFromGraph: the graph adapter over the same page gives the
// same verdicts as the native document (only the identity differs).
func sameVerdictsFromGraph(t *testing.T, page string, g []byte, cit Citations, want Report) {
	t.Helper()
	s, err := ground.FromGraph(g)
	if err != nil {
		t.Fatal(err)
	}
	got := Verify(s, cit)
	if !reflect.DeepEqual(got.Checks, want.Checks) || got.Grounding.DocumentFingerprint == nil ||
		*got.Grounding.DocumentFingerprint != *want.Grounding.DocumentFingerprint {
		t.Errorf("%s: the graph adapter's verdicts differ from the native document's", page)
	}
}

// validateReport checks a report and its checks as sieve-verify lines.
func validateReport(t *testing.T, r *Report) {
	t.Helper()
	b, err := r.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("ethos-verification-report", b); err != nil {
		t.Error(err)
	}
	for _, c := range r.Checks {
		line, _ := codec.Marshal(CheckRecord{Record: "check", SchemaVersion: record.SchemaVersion, Check: c})
		if err := schemas.Validate("ethos-check-line", line); err != nil {
			t.Error(err)
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./verify -run %s -update)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (review, then go test ./verify -run %s -update)", path, t.Name())
	}
}

// TestSampleClaimsScript: the txtar script that runs the same set through
// `sieve verify` carries the same claims.
func TestSampleClaimsScript(t *testing.T) {
	a, err := txtar.ParseFile("../cmd/sieve/testdata/script/evidence_verify.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var set map[string]json.RawMessage
	if err := json.Unmarshal(read(t, "testdata/sample-claims.json"), &set); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range a.Files {
		page, ok := strings.CutSuffix(f.Name, ".citations.json")
		if !ok {
			continue
		}
		found++
		var got, want any
		if err := json.Unmarshal(f.Data, &got); err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if err := json.Unmarshal(set[page], &want); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s differs from testdata/sample-claims.json[%q]", f.Name, page)
		}
	}
	if found != len(set) {
		t.Errorf("the script carries %d citation files, the set has %d pages", found, len(set))
	}
}
