package diff

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/render"
	"github.com/sieve-dev/sieve/schemas"
)

// Evidence-anchor refs made against the base page, carried to an edited
// version: each verdict, a positional element_ref and table_ref carried
// to the same block, the same bytes twice.
func TestCarryAnchors(t *testing.T) {
	s := newSite(t)
	oldRec := s.read(t, basePage)
	p := strings.Replace(basePage, "costs 10 dollars", "costs 12 dollars", 1)
	p = strings.Replace(p, "<td>25</td>", "<td>29</td>", 1)
	p = strings.Replace(p, "<h2>Support</h2>", "<h2>Customer support</h2>", 1)
	p = strings.Replace(p, "<p>Our plans suit teams of every size, from two people to two thousand.</p>", "", 1)
	newRec := s.read(t, p)
	src := func(rec *graph.Record) ground.Source {
		b, err := render.ContentJSON(rec)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ground.Load(ground.FormatGraph, b)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	oldSrc, newSrc := src(oldRec), src(newRec)
	supportAt, termsAt := "", ""
	for _, e := range oldSrc.Elements() {
		switch {
		case strings.HasPrefix(e.Text, "Support answers"):
			supportAt = e.ID
		case strings.HasPrefix(e.Text, "Cancel at any time"):
			termsAt = e.ID
		}
	}
	if supportAt == "" || termsAt == "" || len(oldSrc.Tables()) != 1 {
		t.Fatalf("base page: support %q, terms %q, %d tables", supportAt, termsAt, len(oldSrc.Tables()))
	}
	table := oldSrc.Tables()[0].ID
	refs, err := ParseRefs([]byte(`[
		{"evidence_id":"support-at","kind":"text","text":"Support answers within one business day","element_ref":"` + supportAt + `"},
		{"evidence_id":"terms-at","kind":"text","text":"Cancel at any time","element_ref":"` + termsAt + `"},
		{"evidence_id":"price","kind":"text","text":"The basic plan costs 10 dollars a month"},
		{"evidence_id":"pro","kind":"table_cell","table_ref":"` + table + `","row":2,"column":1,"text":"25"},
		{"evidence_id":"basic","kind":"table_cell","table_ref":"` + table + `","row":1,"column":1,"text":"10"},
		{"evidence_id":"intro","kind":"text","text":"Our plans suit teams of every size"},
		{"evidence_id":"never","kind":"text","text":"Free for ever"}]`))
	if err != nil {
		t.Fatal(err)
	}
	d := Compare(contentDoc(t, oldRec), contentDoc(t, newRec))
	r := CarryAnchors(oldSrc, newSrc, refs, d)
	b, err := RenderAnchors(r, FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("diff-anchors", b); err != nil {
		t.Fatalf("anchor carry JSON does not validate: %v\n%s", err, b)
	}
	if again, _ := RenderAnchors(CarryAnchors(oldSrc, newSrc, refs, d), FormatJSON); !bytes.Equal(again, b) {
		t.Fatal("two carries of the same inputs differ")
	}
	text, _ := RenderAnchors(r, FormatText)
	want := map[string]string{"support-at": CarryMoved, "terms-at": CarryGrounded, "price": CarryChanged, "pro": CarryChanged,
		"basic": CarryGrounded, "intro": CarryGone, "never": CarryNotGrounded}
	for _, c := range r.Refs {
		if c.Status != want[c.EvidenceID] {
			t.Errorf("%s: %s, want %s (old %s, new %s: %s)", c.EvidenceID, c.Status, want[c.EvidenceID], c.OldStatus, c.NewStatus, c.Reason)
		}
	}
	if t.Failed() {
		t.Fatal(text)
	}
	// The element_ref names another element on the new page (a paragraph
	// fewer above it) unless carried: it is bound to the same block.
	if r.Refs[0].NewRefs[0] != d.blocks[r.Refs[0].OldRefs[0]] {
		t.Errorf("support-at bound %v, the diff maps %v to %s", r.Refs[0].NewRefs, r.Refs[0].OldRefs, d.blocks[r.Refs[0].OldRefs[0]])
	}
	price := r.Refs[2]
	if len(price.Edits) != 1 || !strings.Contains(blockLine(price.Edits[0]), "costs [-10-] {+12+} dollars") {
		t.Errorf("price edit %+v", price.Edits)
	}
	if pro := r.Refs[3]; len(pro.Edits) != 1 || len(pro.Edits[0].Cells) != 1 || pro.Edits[0].Cells[0].New != "29" {
		t.Errorf("pro edit %+v", pro.Edits)
	}
	if r.Stands() || r.Summary != (AnchorSummary{StillGrounded: 2, Moved: 1, Changed: 2, Gone: 1, NotGroundedBefore: 1}) {
		t.Errorf("summary %+v", r.Summary)
	}
	md, _ := RenderAnchors(r, FormatMarkdown)
	if !strings.Contains(string(md), "untrusted page content") || !strings.Contains(string(text), "moved") {
		t.Errorf("md:\n%s", md)
	}
}

func TestParseRefs(t *testing.T) {
	for _, bad := range []string{`[]`, `[{"kind":"text","text":"x"}]`, `[{"evidence_id":"a","kind":"text","text":"x"},{"evidence_id":"a","kind":"text","text":"y"}]`,
		`{"artifact_type":"nope"}`, `[{"evidence_id":"a","kind":"table_cell"}]`} {
		if _, err := ParseRefs([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	req := `{"artifact_type":"ethos.evidence_anchor_request.v1","schema_version":"1.0.0","evidence_refs":[{"evidence_id":"a","kind":"text","text":"x"}]}`
	if refs, err := ParseRefs([]byte(req)); err != nil || len(refs) != 1 {
		t.Errorf("request: %v %v", refs, err)
	}
}
