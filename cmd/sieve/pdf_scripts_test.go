package main

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/schemas"
)

// TestPDFJavaScriptEverywhere distils a one-page PDF with JavaScript in one
// place only, for each place a viewer may run it from (the open action,
// the document's and the page's additional actions, an annotation's
// additional actions, a link's action, a form field's keystroke action,
// the name tree): security_report.json counts it in scripts and names the
// place in a javascript finding, and the page's text is still read.
func TestPDFJavaScriptEverywhere(t *testing.T) {
	if raceEnabled {
		t.Skip("PDFium under the race detector is slow; make test runs this without -race (unit)")
	}
	dir := t.TempDir()
	for _, p := range pdftest.ScriptPlaces {
		t.Run(p.Place, func(t *testing.T) {
			data, err := pdftest.ScriptPDF(p.Place)
			if err != nil {
				t.Fatal(err)
			}
			a := distillPDF(t, dir, pdftest.Doc{Name: "js-" + p.Place, PDF: data, Pages: 1})
			if err := schemas.Validate("ethos-security-report", []byte(a.report)); err != nil {
				t.Errorf("security_report.json: %v", err)
			}
			if n := gjson.Get(a.report, "inventory.scripts").Int(); n < 1 {
				t.Errorf("inventory.scripts %d, want at least 1:\n%s", n, a.report)
			}
			found := false
			for _, f := range gjson.Get(a.report, "findings").Array() {
				if f.Get("code").String() == "javascript" && f.Get("evidence.reason").String() == p.Where {
					found = true
				}
			}
			if !found {
				t.Errorf("no javascript finding with reason %q:\n%s", p.Where, a.report)
			}
			if p.Place == "link_action" && gjson.Get(a.report, "inventory.actions").Int() != 1 {
				t.Errorf("a link that runs JavaScript is not among the actions:\n%s", gjson.Get(a.report, "inventory").Raw)
			}
			if !strings.Contains(a.md, pdftest.ScriptText) {
				t.Errorf("index.md lacks the page's text %q", pdftest.ScriptText)
			}
		})
	}
}
