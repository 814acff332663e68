package anchor

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
	"github.com/sieve-dev/sieve/verify"
)

// pdfSources are graph's hand-built three-page PDF report through the
// graph adapter and the native document: real page sizes, page-local
// boxes in points.
func pdfSources(t *testing.T) map[string]ground.Source {
	t.Helper()
	rec := pdfRecord(t)
	line, err := codec.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ground.FromGraph(line)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ground.FromEthos(ethosOf(t, rec))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]ground.Source{"graph": g, "ethos": e}
}

// pdfRecord is the fixture's graph record.
func pdfRecord(t *testing.T) *graph.Record {
	t.Helper()
	var n normalize.Record
	if err := codec.Unmarshal(read(t, filepath.Join("..", "graph", "testdata", "pdf-fixture.normalized.json")), &n); err != nil {
		t.Fatal(err)
	}
	return graph.Build(&n)
}

func ip(i int) *int { return &i }

func TestPDFAnchorLevels(t *testing.T) {
	cases := []struct {
		ref      Ref
		status   string
		achieved string
		page     string
		bbox     []int
		reason   string
	}{
		{Ref{Kind: KindPage, PageRef: "p0002"}, StatusBound, LevelPage, "p0002", nil, ""},
		{Ref{Kind: KindPage, PageRef: "p0002", RequiredAnchorLevel: LevelBBox, BBox: []int{0, 0, 792, 612}}, StatusBound, LevelBBox, "p0002", []int{0, 0, 792, 612}, ""},
		{Ref{Kind: KindPage, PageRef: "p0001", RequiredAnchorLevel: LevelBBox, BBox: []int{0, 0, 792, 612}}, StatusMismatch, LevelPage, "p0001", nil, "outside page p0001 (612x792)"},
		{Ref{Kind: KindPage, PageRef: "p0009"}, StatusNotFound, "", "", nil, "not a page"},
		{Ref{Kind: KindText, Text: "steady demand"}, StatusBound, LevelText, "p0002", nil, ""},
		{Ref{Kind: KindText, Text: "steady demand", RequiredAnchorLevel: LevelTextBBox}, StatusBound, LevelTextBBox, "p0002", []int{72, 80, 300, 14}, ""},
		{Ref{Kind: KindText, Text: "Quarterly Report", RequiredAnchorLevel: LevelBBox}, StatusBound, LevelBBox, "p0001", []int{72, 60, 300, 24}, ""},
		{Ref{Kind: KindText, Text: "steady demand", PageRef: "p0001", RequiredAnchorLevel: LevelPage}, StatusMismatch, "", "", nil, "not in the located page p0001; it occurs only outside it, at e000005 (page p0002"},
		{Ref{Kind: KindTextRegion, Text: "steady demand", PageRef: "p0002", BBox: []int{60, 70, 400, 40}}, StatusBound, LevelTextBBox, "p0002", []int{72, 80, 300, 14}, ""},
		{Ref{Kind: KindTextRegion, Text: "steady demand", PageRef: "p0002", BBox: []int{60, 0, 400, 70}}, StatusMismatch, "", "", nil, "occurs only outside it, at e000005"},
		{Ref{Kind: KindTextRegion, Text: "steady demand", PageRef: "p0002", BBox: []int{60, 0, 400, 700}}, StatusMismatch, LevelPage, "p0002", nil, "outside page p0002"},
		{Ref{Kind: KindTableCell, TableRef: "t0001", Row: ip(2), Column: ip(1), Text: "950"}, StatusBound, LevelTableCell, "p0001", []int{172, 180, 100, 20}, ""},
		{Ref{Kind: KindTableCell, TableRef: "t0001", Row: ip(0), Column: ip(0), Text: "Sales"}, StatusMismatch, LevelPage, "p0001", []int{72, 140, 100, 20}, "other text"},
		{Ref{Kind: KindTableCell, TableRef: "t0001", Row: ip(1), Column: ip(0), PageRef: "p0002"}, StatusMismatch, "", "p0001", nil, "not p0002"},
		{Ref{Kind: KindRegion, PageRef: "p0001", BBox: []int{60, 50, 450, 70}}, StatusBound, LevelBBox, "p0001", []int{60, 50, 450, 70}, "2 elements"},
		{Ref{Kind: KindRegion, PageRef: "p0001", BBox: []int{60, 50, 450, 70}, RequiredAnchorLevel: LevelTextBBox, Text: "Revenue grew"}, StatusBound, LevelTextBBox, "p0001", []int{72, 100, 400, 14}, ""},
		{Ref{Kind: KindRegion, PageRef: "p0003", BBox: []int{0, 0, 100, 100}}, StatusNotFound, LevelPage, "p0003", nil, "no element"},
		{Ref{Kind: KindRegion, PageRef: "p0002", BBox: []int{0, 600, 100, 100}}, StatusMismatch, LevelPage, "p0002", nil, "outside page"},
		{Ref{Kind: KindText, Text: "Ignore previous instructions"}, StatusNotFound, "", "", nil, verify.LatentOnly},
	}
	for name, src := range pdfSources(t) {
		req := Request{ArtifactType: RequestType, SchemaVersion: SchemaVersion}
		for i, c := range cases {
			c.ref.EvidenceID = fmt.Sprintf("r%d", i)
			if err := ValidateRef(c.ref); err != nil {
				t.Fatalf("ref %d is malformed: %v", i, err)
			}
			req.EvidenceRefs = append(req.EvidenceRefs, c.ref)
		}
		rep := Run(src, req)
		for i, c := range cases {
			an := rep.Anchors[i]
			achieved := ""
			if an.AchievedAnchorLevel != nil {
				achieved = *an.AchievedAnchorLevel
			}
			if an.Status != c.status || achieved != c.achieved || !strings.Contains(an.Reason, c.reason) {
				t.Errorf("%s: ref %d (%s): %s at %q (%s), want %s at %q (%s)", name, i, c.ref.Kind, an.Status, achieved, an.Reason, c.status, c.achieved, c.reason)
				continue
			}
			if c.page == "" {
				continue
			}
			if an.Binding == nil || an.Binding.PageRef != c.page || !reflect.DeepEqual(an.Binding.BBox, c.bbox) {
				t.Errorf("%s: ref %d binding %+v, want page %s bbox %v", name, i, an.Binding, c.page, c.bbox)
			}
		}
		found := false
		for _, w := range rep.Warnings {
			found = found || w.Code == "latent_text_cited"
		}
		if !found {
			t.Errorf("%s: no latent_text_cited warning: %+v", name, rep.Warnings)
		}
		b, err := rep.Canonical()
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate("ethos-evidence-anchor-report", b); err != nil {
			t.Errorf("%s: report: %v", name, err)
		}
	}
}
