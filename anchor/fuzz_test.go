package anchor

import (
	"os"
	"testing"

	"github.com/sieve-dev/sieve/evidence/ground"
)

// FuzzParseRequest: whatever the request file holds, parsing never panics,
// and what it accepts anchors without panicking against a real source.
func FuzzParseRequest(f *testing.F) {
	for _, p := range []string{"testdata/sample-docs-request.json", "../schemas/testdata/eef/valid/ethos-evidence-anchor-request--docs.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	b, err := os.ReadFile("../render/testdata/docs.graph.json")
	if err != nil {
		f.Fatal(err)
	}
	src, err := ground.Load(ground.FormatAuto, b)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		req, err := ParseRequest(b)
		if err != nil {
			return
		}
		if r := Run(src, req); len(r.Anchors) != len(req.EvidenceRefs) {
			t.Fatalf("%d anchors for %d refs", len(r.Anchors), len(req.EvidenceRefs))
		}
	})
}

// FuzzParseRef: a line of sieve-anchor's input never panics the parsers.
func FuzzParseRef(f *testing.F) {
	f.Add([]byte(`{"evidence_id":"a","kind":"text_region","text":"x","page_ref":"p0001","bbox":[0,0,1,1],"id":7}`))
	f.Add([]byte(`{"evidence_id":"a","kind":"table_cell","table_ref":"t0001","row":0,"column":0}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParseRef(b)
		_, _ = ParseRefLine(b)
	})
}
