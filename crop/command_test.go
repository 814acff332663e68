package crop

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/schemas"
	"github.com/sieve-dev/sieve/verify"
)

var update = flag.Bool("update", false, "rewrite testdata/ from the current output")

// run runs cmd as the program name with args and stdin; it returns the exit
// code, stdout and stderr.
func run(cmd *cli.Command, stdin string, args ...string) (int, string, string) {
	var out, errw bytes.Buffer
	app := cliutil.App("sieve", &cli.Command{Name: "sieve", Subcommands: []*cli.Command{cmd}},
		cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errw})
	code := cliutil.Main(app, append([]string{"sieve", cmd.Name}, args...))
	return code, out.String(), errw.String()
}

// markerBundle writes the marker PDF, its document.ethos.json and
// citations (one not found) to a directory.
func markerBundle(t *testing.T) (dir, doc, pdf, cit string) {
	t.Helper()
	data, _, err := pdftest.Markers()
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	doc, pdf, cit = filepath.Join(dir, "document.ethos.json"), filepath.Join(dir, "source.pdf"), filepath.Join(dir, "citations.json")
	os.WriteFile(doc, distilPDF(t, data), 0o644)
	os.WriteFile(pdf, data, 0o644)
	os.WriteFile(cit, []byte(`[{"claim_id":"c1","kind":"quote","text":"Alpha"},{"claim_id":"c2","kind":"quote","text":"Delta"},`+
		`{"claim_id":"c3","kind":"quote","text":"Echo"},{"claim_id":"c4","kind":"quote","text":"Alpha"},{"claim_id":"c5","kind":"quote","text":"Zulu"}]`), 0o644)
	return dir, doc, pdf, cit
}

func TestVerifyCrops(t *testing.T) {
	dir, doc, pdf, cit := markerBundle(t)
	code, _, errs := run(verify.Command(VerifyExtension()), "", doc, "--citations", cit, "--out", filepath.Join(dir, "verification_report.json"), "--crops", dir, "--source", pdf)
	if code != 0 || !strings.Contains(errs, "crops: 3 rendered, 0 descriptor only") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines, err := os.ReadFile(filepath.Join(dir, Dir, FileDescriptors))
	if err != nil {
		t.Fatal(err)
	}
	// Alpha is cited twice (v0001, v0004): one crop serves both checks.
	if !bytes.Contains(lines, []byte(`"check_ids":["v0001","v0004"]`)) || bytes.Count(lines, []byte("\n")) != 3 {
		t.Errorf("descriptors:\n%s", lines)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, Dir, "crop_*.png"))
	if len(pngs) != 3 {
		t.Errorf("%d PNGs, want 3", len(pngs))
	}
	golden := filepath.Join("testdata", "markers.ethos-crop-descriptor.jsonl")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, lines, 0o644)
	}
	if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(want, lines) {
		t.Errorf("%s differs from the descriptors written (go test -update rewrites it): %v\n%s", golden, err, lines)
	}

	// --fail-on-ungrounded: exit 7, the crops are still written, and
	// stderr carries the canonical JSON error only.
	d2 := t.TempDir()
	code, _, errs = run(verify.Command(VerifyExtension()), "", doc, "--citations", cit, "--fail-on-ungrounded", "--crops", d2, "--source", pdf)
	if code != 7 || !strings.HasPrefix(errs, `{"error":{"code":"evidence_ungrounded"`) || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(d2, Dir, FileDescriptors)); !bytes.Equal(b, lines) {
		t.Errorf("--fail-on-ungrounded wrote other descriptors:\n%s", b)
	}
}

// TestVerifyCropsReadsOnce: sieve verify --crops reads the document and
// the citations and verifies once; the crops are cut from what verify
// loaded. An extension run before crop's removes both files: crop has
// nothing left to read them again from, and its crops are the same.
func TestVerifyCropsReadsOnce(t *testing.T) {
	_, doc, pdf, cit := markerBundle(t)
	gone := verify.Extension{After: func(*cli.Context, evcmd.Doc, *verify.Report, bool) error {
		return errors.Join(os.Remove(doc), os.Remove(cit))
	}}
	dir := t.TempDir()
	code, _, errs := run(verify.Command(gone, VerifyExtension()), "", doc, "--citations", cit, "--out", filepath.Join(dir, "report.json"), "--crops", dir, "--source", pdf)
	if code != 0 || !strings.Contains(errs, "crops: 3 rendered, 0 descriptor only") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if _, err := os.Stat(doc); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the document is still there: %v", err)
	}
	got, err := os.ReadFile(filepath.Join(dir, Dir, FileDescriptors))
	want, _ := os.ReadFile(filepath.Join("testdata", "markers.ethos-crop-descriptor.jsonl"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("descriptors differ from TestVerifyCrops' golden: %v\n%s", err, got)
	}
}

func TestCropCommand(t *testing.T) {
	dir, doc, pdf, cit := markerBundle(t)
	report := filepath.Join(dir, "verification_report.json")
	if code, _, errs := run(verify.Command(VerifyExtension()), "", doc, "--citations", cit, "--out", report); code != 0 {
		t.Fatal(errs)
	}
	rb, _ := os.ReadFile(report)
	// The same document outside its bundle: no source.pdf beside it.
	lone := filepath.Join(t.TempDir(), "document.ethos.json")
	if db, err := os.ReadFile(doc); err != nil || os.WriteFile(lone, db, 0o644) != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string // in stdout
		errs  string // in stderr
	}{
		{"report file", "", []string{doc, "--report", report, "--out", t.TempDir(), "--source", pdf}, 0, `"rendering_status":"rendered"`, "crops: 3 rendered"},
		{"report on stdin", string(rb), []string{doc, "--out", t.TempDir(), "--source", pdf}, 0, `"raster":"pdfium"`, "crops: 3 rendered"},
		{"the bundle's source.pdf", "", []string{doc, "--report", report, "--out", t.TempDir()}, 0, `"rendering_status":"rendered"`, "crops: 3 rendered"},
		{"no pixels", "", []string{lone, "--report", report, "--out", t.TempDir()}, 0, `"reason":"the file the document was read from (/test/doc.pdf) is not found`, "0 rendered, 3 descriptor only"},
		{"another PDF", "", []string{doc, "--report", report, "--out", t.TempDir(), "--source", doc}, 0, `do not hash to the source fingerprint`, "0 rendered"},
		{"dpi", "", []string{doc, "--report", report, "--out", t.TempDir(), "--source", pdf, "--dpi", "300"}, 0, `"dpi":300`, "3 rendered"},
		{"no doc", "", []string{"--report", report, "--out", t.TempDir()}, 2, "", "error (usage)"},
		{"no out", "", []string{doc, "--report", report}, 2, "", "--out"},
		{"bad dpi", "", []string{doc, "--report", report, "--out", t.TempDir(), "--dpi", "0"}, 2, "", "--dpi"},
		{"not a report", "{}", []string{doc, "--out", t.TempDir()}, 6, "", "invalid_report"},
		{"missing doc", "", []string{filepath.Join(dir, "nope.json"), "--report", report, "--out", t.TempDir()}, 4, "", "io_error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(Command(), tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.errs) {
				t.Errorf("exit %d (want %d)\nstdout %s\nstderr %s", code, tc.code, out, errs)
			}
		})
	}
}

// Crops of an evidence anchor report: one per bound ref with a box,
// named by evidence_ids.
func TestCropAnchorReport(t *testing.T) {
	dir, doc, pdf, _ := markerBundle(t)
	req, report := filepath.Join(dir, "evidence_anchor_request.json"), filepath.Join(dir, "evidence_anchor_report.json")
	os.WriteFile(req, []byte(`{"artifact_type":"ethos.evidence_anchor_request.v1","schema_version":"1.0.0","evidence_refs":[`+
		`{"evidence_id":"echo","kind":"text","text":"Echo"},{"evidence_id":"alpha","kind":"text","text":"Alpha"},{"evidence_id":"zulu","kind":"text","text":"Zulu"}]}`), 0o644)
	if code, _, errs := run(anchor.EvidenceCommand(), "", "anchor", doc, "--evidence-refs", req, "--out", report); code != 0 {
		t.Fatalf("anchor: exit %d %s", code, errs)
	}
	code, out, errs := run(Command(), "", doc, "--report", report, "--out", dir, "--source", pdf)
	if code != 0 || !strings.Contains(errs, "crops: 2 rendered, 0 descriptor only") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"check_ids":[],"coordinate_profile"`) || !strings.Contains(out, `"evidence_ids":["echo"]`) || !strings.Contains(out, `"evidence_ids":["alpha"]`) {
		t.Errorf("descriptors:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if err := schemas.Validate("ethos-crop-descriptor", []byte(l)); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
}

// A plain list of boxes (JSONL on stdin): crops of what the caller names.
func TestCropBoxList(t *testing.T) {
	dir, doc, pdf, _ := markerBundle(t)
	boxes := `{"id":"delta-area","page_ref":"p0002","bbox":[700,80,60,60],"text":"Delta"}` + "\n" +
		`{"id":"first","page_ref":"p0001","element_refs":["e000001"]}` + "\n"
	code, out, errs := run(Command(), boxes, doc, "--out", dir, "--source", pdf)
	if code != 0 || !strings.Contains(errs, "crops: 2 rendered") || !strings.Contains(out, `"evidence_ids":["delta-area"]`) {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := run(Command(), `{"page_ref":"p0001"}`, doc, "--out", dir); code != 6 || !strings.Contains(errs, "needs page_ref and a bbox") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
