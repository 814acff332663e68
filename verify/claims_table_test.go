package verify

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
)

// runVerifyCLI runs `sieve verify DOC --citations FILE` in-process and
// returns the exit code, the report (stdout) and stderr.
func runVerifyCLI(t *testing.T, doc, citations string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	app := cliutil.App("sieve", &cli.Command{Name: "sieve", Subcommands: []*cli.Command{Command()}}, cliutil.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	code := cliutil.Main(app, []string{"sieve", "verify", doc, "--citations", citations})
	return code, out.String(), errb.String()
}

// pdfBundleDir writes the PDF fixture's bundle (three pages, two
// sections, table t0001, spans, regions, a high security finding) as
// sieve distill does: evidence/document.ethos.json and security_report.json.
func pdfBundleDir(t *testing.T) string {
	t.Helper()
	_, b := pdfFixtureBundle(t)
	dir := t.TempDir()
	for name, v := range map[string]any{eef.FileDocument: b.Document, eef.FileSecurityReport: b.Security} {
		data, err := c14n.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, eef.FileDocument)
}

// The claim kinds of SPEC.md §4.3 in the order of a want string, and the
// one claim each makes: table t0001's cell at row 1, column 1 ("1,200",
// in element e000003 on page p0001, section s_07da4984cc, region r0003).
var tableKinds = []string{KindQuote, KindValue, KindPresence, KindOther, KindTableCell, KindRegion}

// statusOf is the legend of a want string: one letter per kind.
var statusOf = map[byte]string{'G': StatusGrounded, 'M': StatusMismatch, 'N': StatusNotFound, 'E': StatusError, 'B': StatusCapabilityBlocked}

// TestClaimKindsByLocator: every claim kind with every locator field,
// alone and combined — present and right, pointing elsewhere, absent,
// malformed, naming something the document does not have — through
// `sieve verify` on the PDF fixture's bundle, with the status each must
// give. want has one letter per kind of tableKinds (statusOf). table_cell
// needs table, row and column and region needs region or page and bbox:
// without them they are errors, so the "cell+" rows combine each field
// with a cell locator.
func TestClaimKindsByLocator(t *testing.T) {
	doc := pdfBundleDir(t)
	cell := `"table":"t0001","row":1,"column":1`
	cases := []struct{ name, locator, want string }{
		// QVPOTR
		{"absent", ``, "GGGGEE"},
		{"page", `"page":"p0001"`, "GGGGEE"},
		{"page elsewhere", `"page":"p0002"`, "MMMMEE"},
		{"page not there", `"page":"p0009"`, "NNNNEE"},
		{"section", `"section":"s_07da4984cc"`, "GGGGEE"},
		{"section elsewhere", `"section":"s_4f53c6c301"`, "MMMMEE"},
		{"section not there", `"section":"s_nowhere"`, "NNNNEE"},
		{"element", `"element":"e000003"`, "GGGGEE"},
		{"element native id", `"element":"b_002"`, "GGGGEE"},
		{"element elsewhere", `"element":"e000005"`, "MMMMEE"},
		{"element not there", `"element":"e999999"`, "NNNNEE"},
		{"span", `"span":"s000003"`, "GGGGEE"},
		{"span elsewhere", `"span":"s000005"`, "MMMMEE"},
		{"span not there", `"span":"s999999"`, "NNNNEE"},
		{"table", `"table":"t0001"`, "GGGGEE"},
		{"table not there", `"table":"t0009"`, "NNNNEE"},
		{"row without table", `"row":1`, "EEEEEE"},
		{"column without table", `"column":1`, "EEEEEE"},
		{"row and column without table", `"row":1,"column":1`, "EEEEEE"},
		{"region", `"region":"r0003"`, "GGGGEG"},
		{"region elsewhere", `"region":"r0005"`, "MMMMEM"},
		{"region not there", `"region":"r9999"`, "NNNNEN"},
		{"bbox without page", `"bbox":[72,140,200,60]`, "EEEEEE"},
		{"page+bbox", `"page":"p0001","bbox":[72,140,200,60]`, "GGGGEG"},
		{"page+bbox elsewhere", `"page":"p0001","bbox":[72,100,400,14]`, "MMMMEM"},
		{"page+bbox empty area", `"page":"p0003","bbox":[0,0,100,100]`, "MMMMEM"},
		{"page+bbox off the page", `"page":"p0001","bbox":[0,700,612,200]`, "EEEEEE"},
		{"page+bbox negative", `"page":"p0001","bbox":[-1,0,10,10]`, "EEEEEE"},
		{"page+bbox on no page", `"page":"p0009","bbox":[0,0,10,10]`, "NNNNEN"},
		{"cell", cell, "GGGGGE"},
		{"cell elsewhere", `"table":"t0001","row":2,"column":1`, "MMMMME"},
		{"cell row not there", `"table":"t0001","row":9,"column":1`, "NNNNNE"},
		{"cell column not there", `"table":"t0001","row":1,"column":9`, "NNNNNE"},
		{"cell negative row", `"table":"t0001","row":-1,"column":1`, "EEEEEE"},
		{"cell negative column", `"table":"t0001","row":1,"column":-1`, "EEEEEE"},
		{"table+row", `"table":"t0001","row":1`, "GGGGEE"},
		{"table+row elsewhere", `"table":"t0001","row":2`, "MMMMEE"},
		{"table+row not there", `"table":"t0001","row":9`, "NNNNEE"},
		{"table+column", `"table":"t0001","column":1`, "GGGGEE"},
		{"table+column elsewhere", `"table":"t0001","column":0`, "MMMMEE"},
		{"table+column not there", `"table":"t0001","column":9`, "NNNNEE"},
		{"cell+page", cell + `,"page":"p0001"`, "GGGGGE"},
		{"cell+page elsewhere", cell + `,"page":"p0002"`, "NNNNNE"},
		{"cell+section", cell + `,"section":"s_07da4984cc"`, "GGGGGE"},
		{"cell+section elsewhere", cell + `,"section":"s_4f53c6c301"`, "NNNNNE"},
		{"cell+element", cell + `,"element":"e000003"`, "GGGGGE"},
		{"cell+element elsewhere", cell + `,"element":"e000005"`, "NNNNNE"},
		{"cell+span", cell + `,"span":"s000003"`, "GGGGGE"},
		{"cell+span elsewhere", cell + `,"span":"s000002"`, "NNNNNE"},
		{"cell+region", cell + `,"region":"r0003"`, "GGGGGG"},
		{"cell+region elsewhere", cell + `,"region":"r0002"`, "NNNNNN"},
		{"cell+page+bbox of the cell", cell + `,"page":"p0001","bbox":[172,160,100,20]`, "GGGGGG"},
		{"cell+page+bbox of another cell", cell + `,"page":"p0001","bbox":[172,180,100,20]`, "NNNNNN"},
		{"cell+bbox, page from the table", cell + `,"bbox":[172,160,100,20]`, "GGGGGE"},
		{"every field", cell + `,"page":"p0001","section":"s_07da4984cc","element":"e000003","span":"s000003","region":"r0003","bbox":[72,140,200,60]`, "GGGGGG"},
	}
	var claims []string
	for i, c := range cases {
		for k, kind := range tableKinds {
			loc := ""
			if c.locator != "" {
				loc = `,"locator":{` + c.locator + `}`
			}
			field := "text"
			if kind == KindValue {
				field = "value"
			}
			claims = append(claims, fmt.Sprintf(`{"claim_id":"c%d-%d","kind":%q,%q:"1,200"%s}`, i, k, kind, field, loc))
		}
	}
	// An unknown kind is unsupported whatever its locator.
	claims = append(claims, `{"claim_id":"unknown","kind":"sentiment","text":"1,200","locator":{"row":-1}}`)
	dir := t.TempDir()
	cit := filepath.Join(dir, "citations.json")
	if err := os.WriteFile(cit, []byte("["+strings.Join(claims, ",")+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, report, stderr := runVerifyCLI(t, doc, cit)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	status := func(id string) (string, string) {
		c := gjson.Get(report, `checks.#(claim_id=="`+id+`")`)
		return c.Get("status").Str, c.Get("reason").Str
	}
	for i, c := range cases {
		for k, kind := range tableKinds {
			got, reason := status(fmt.Sprintf("c%d-%d", i, k))
			if want := statusOf[c.want[k]]; got != want {
				t.Errorf("%s {%s} %s: %s (%s), want %s", kind, c.locator, c.name, got, reason, want)
			}
		}
	}
	if got, _ := status("unknown"); got != StatusUnsupported {
		t.Errorf("unknown kind: %s", got)
	}
}

// TestMalformedClaimsAreRefused: a locator or fingerprint of the wrong
// shape or type fails the citations schema: the command refuses the file
// (exit 6), it never approximates a check from it.
func TestMalformedClaimsAreRefused(t *testing.T) {
	doc := pdfBundleDir(t)
	dir := t.TempDir()
	for _, claim := range []string{
		`{"claim_id":"a","kind":"quote","text":"x","locator":{"page":"1"}}`,
		`{"claim_id":"a","kind":"quote","text":"x","locator":{"row":"1","table":"t0001"}}`,
		`{"claim_id":"a","kind":"quote","text":"x","locator":{"column":1.5,"table":"t0001"}}`,
		`{"claim_id":"a","kind":"quote","text":"x","locator":{"bbox":[1,2,3]}}`,
		`{"claim_id":"a","kind":"quote","text":"x","locator":{"section":""}}`,
		`{"claim_id":"a","kind":"quote","text":"x","locator":{"row_header":"July"}}`,
		`{"claim_id":"a","kind":"quote","text":"x","locator":"p0001"}`,
		`{"claim_id":"a","kind":"quote","text":"x","document_fingerprint":"sha256:abc"}`,
	} {
		cit := filepath.Join(dir, "c.json")
		if err := os.WriteFile(cit, []byte("["+claim+"]"), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runVerifyCLI(t, doc, cit); code != cliutil.ExitInvalidCitations {
			t.Errorf("%s: exit %d (%s), want %d", claim, code, stderr, cliutil.ExitInvalidCitations)
		}
	}
	// Past the schema (the filters' and the library's callers), a
	// malformed fingerprint is an error, not capability_blocked.
	src, err := evcmd.LoadFile(ground.FormatAuto, doc)
	if err != nil {
		t.Fatal(err)
	}
	if c := New(src).Check(1, Claim{Kind: KindQuote, Text: "Outlook", DocumentFingerprint: "sha256:abc"}); c.Status != StatusError {
		t.Errorf("malformed fingerprint: %s (%s)", c.Status, c.Reason)
	}
}

// TestValueUnitMustBeStated: a unit, currency or percent the claim gives
// must be stated next to the value in the document; a bare number does
// not ground "$120" or "120%" (mismatch, with where the number is).
func TestValueUnitMustBeStated(t *testing.T) {
	src := ground.NewSource(ground.Identity{Parser: "t", Version: "0", Format: ground.FormatEthos},
		ground.Capabilities{CoordinateOrigin: "none", Limits: []ground.Limit{}}, []ground.Page{{ID: "p0001"}},
		[]ground.Element{{ID: "e000001", PageRef: "p0001", Type: "paragraph", Text: "We shipped 120 crates and 45% of orders at $9."}}, nil, nil)
	v := New(src)
	for value, want := range map[string]string{
		"120": StatusGrounded, "$120": StatusMismatch, "120%": StatusMismatch, "EUR 120": StatusMismatch,
		"45%": StatusGrounded, "45 percent": StatusGrounded, "45": StatusGrounded, "$45": StatusMismatch,
		"$9": StatusGrounded, "USD 9": StatusGrounded, "9": StatusGrounded, "9%": StatusMismatch, "121": StatusNotFound,
	} {
		got := v.Check(1, Claim{Kind: KindValue, Value: value})
		if got.Status != want {
			t.Errorf("value %q: %s (%s), want %s", value, got.Status, got.Reason, want)
		}
		if want == StatusMismatch && (got.Evidence == nil || !strings.Contains(got.Reason, "e000001")) {
			t.Errorf("value %q: the mismatch does not say where the number is: %+v", value, got)
		}
	}
	// The same rule in a table cell.
	for name, s := range pdfSources(t) {
		c := New(s).Check(1, Claim{Kind: KindTableCell, Value: "$950", Locator: &Locator{Table: "t0001", Row: intp(2), Column: intp(1)}})
		if c.Status != StatusMismatch {
			t.Errorf("%s: cell 950 claimed as $950: %s (%s)", name, c.Status, c.Reason)
		}
	}
}

// TestProofSummarySaysWhatWasVerified: a report whose every check is
// semantic_unverified proves nothing reusable: unverified, not verified.
func TestProofSummarySaysWhatWasVerified(t *testing.T) {
	src := pdfSources(t)["ethos"]
	for _, c := range []struct {
		claims []Claim
		proof  string
		n      int
	}{
		{[]Claim{{ClaimID: "a", Kind: KindOther, Text: "Outlook"}}, ProofUnverified, 0},
		{[]Claim{{ClaimID: "a", Kind: KindQuote, Text: "Outlook", Statement: "the report looks ahead"}}, ProofUnverified, 0},
		{[]Claim{{ClaimID: "a", Kind: KindQuote, Text: "Outlook"}}, ProofVerified, 1},
		{[]Claim{{ClaimID: "a", Kind: KindQuote, Text: "Outlook"}, {ClaimID: "b", Kind: KindOther, Text: "Outlook"}}, ProofVerified, 1},
		{[]Claim{{ClaimID: "a", Kind: KindQuote, Text: "Outlook"}, {ClaimID: "b", Kind: KindQuote, Text: "nowhere at all"}}, ProofPartiallyVerified, 1},
	} {
		r := Verify(src, Citations{Claims: c.claims})
		if proof, n := r.ProofSummary(); proof != c.proof || n != c.n {
			t.Errorf("%+v: %s (%d reusable), want %s (%d)", c.claims, proof, n, c.proof, c.n)
		}
	}
}

// TestSecurityFindingsWarn: a document whose security report has findings
// of severity warning or above (here a high prompt-injection-like hidden
// text) warns in the report of a check that grounds visible text, and in
// the proof limitations; without its report the document's security
// signals warn with their severity not known; info findings do not warn.
func TestSecurityFindingsWarn(t *testing.T) {
	doc := pdfBundleDir(t)
	cit := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(cit, []byte(`[{"claim_id":"a","kind":"quote","text":"Outlook"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, report, stderr := runVerifyCLI(t, doc, cit)
	w := gjson.Get(report, `warnings.#(code=="security_findings")`)
	if code != 0 || gjson.Get(report, "checks.0.status").Str != StatusGrounded || !w.Exists() ||
		!strings.Contains(w.Get("message").Str, "prompt_injection_like_hidden_text (high") || w.Get("check_refs.0").Str != "v0001" {
		t.Errorf("exit %d, report %s", code, report)
	}
	if !strings.Contains(stderr, "limitations: security findings: prompt_injection_like_hidden_text (high, f0002), launch_action (high") {
		t.Errorf("stderr does not surface the findings: %s", stderr)
	}
	if err := schemas.Validate("ethos-verification-report", []byte(report)); err != nil {
		t.Error(err)
	}
	// The document alone: its security signals, severity not known.
	bare, err := ground.FromEthos(read(t, doc))
	if err != nil {
		t.Fatal(err)
	}
	r := Verify(bare, Citations{Claims: []Claim{{ClaimID: "a", Kind: KindQuote, Text: "Outlook"}}})
	if !hasWarning(r, WarningSecurityFindings) || !strings.Contains(r.Warnings[len(r.Warnings)-1].Message, "severity not known") {
		t.Errorf("bare document: warnings %+v", r.Warnings)
	}
	// Info findings only: no warning.
	info := []ground.Finding{{ID: "f0001", Code: "external_links", Severity: "info"}}
	if got := SecurityFindings(info); len(got) != 0 {
		t.Errorf("info findings warn: %v", got)
	}
	// A security report of another document beside it is refused.
	other := filepath.Join(filepath.Dir(doc), eef.FileSecurityReport)
	b, _ := os.ReadFile(other)
	if err := os.WriteFile(other, bytes.Replace(b, []byte(gjson.GetBytes(b, "document_fingerprint").Str), []byte("sha256:"+strings.Repeat("0", 64)), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runVerifyCLI(t, doc, cit); code != cliutil.ExitInvalidSource {
		t.Errorf("a report of another document: exit %d (%s), want %d", code, stderr, cliutil.ExitInvalidSource)
	}
}
