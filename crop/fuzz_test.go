package crop

import "testing"

// FuzzReadCites: whatever bytes come in as a report, ReadCites returns
// cites or an error, never panics, and every cite names a page.
func FuzzReadCites(f *testing.F) {
	for _, s := range []string{
		`{"artifact_type":"ethos.verification_report.v1","checks":[{"check_id":"v0001","status":"grounded","evidence":{"page_ref":"p0001","element_refs":["e000001"],"bbox":[1,2,3,4],"text":"x"}}]}`,
		`{"artifact_type":"ethos.evidence_anchor_report.v1","anchors":[{"evidence_id":"a","status":"bound","binding":{"page_ref":"p0001","bbox":[1,2,3,4]}}]}`,
		`{"record":"check","status":"grounded","check_id":"v0001","evidence":{"page_ref":"p0001"}}` + "\n" + `{"record":"x"}`,
		`[{"id":"b","page_ref":"p0001","bbox":[0,0,1,1]}]`,
		`{"page_ref":"p0001","element_refs":["e1"]}`,
		``, `{}`, `[`, `{"record":"anchor"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		cites, err := ReadCites(b)
		if err != nil {
			return
		}
		for _, c := range cites {
			if c.Evidence.PageRef == "" {
				t.Fatalf("a cite without a page from %q", b)
			}
		}
	})
}
