package capture_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/ocr/ocrtest"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/verify"
)

// needOCR skips (loudly) without Tesseract, or fails under
// SIEVE_REQUIRE_TESSERACT (CI); unlike needTesseract it needs no browser.
func needOCR(t *testing.T) {
	t.Helper()
	if _, err := ocr.Version(); err != nil {
		msg := fmt.Sprintf("SCANNED PDF OCR TESTS NOT RUN: %v", err)
		if os.Getenv("SIEVE_REQUIRE_TESSERACT") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// scans caches the scanned reports by dpi and skew: rendering and
// speckling a page at 300 dpi takes a while.
var scans sync.Map // scanKey → []byte

type scanKey struct {
	dpi  int
	skew float64
}

// scannedReport is ocrtest.Report printed in 11 pt Helvetica and scanned
// at dpi, skewed 1.5° (alternately), with grey noise and specks.
func scannedReport(t testing.TB, dpi int) string {
	t.Helper()
	return skewedReport(t, dpi, 1.5)
}

// skewedReport is scannedReport skewed by skew degrees (alternately).
func skewedReport(t testing.TB, dpi int, skew float64) string {
	t.Helper()
	k := scanKey{dpi, skew}
	data, ok := scans.Load(k)
	if !ok {
		src, err := ocrtest.TextPDF(ocrtest.Report, "Helvetica", 11)
		if err != nil {
			t.Fatal(err)
		}
		scan, err := ocrtest.Scan(src, ocrtest.ScanOptions{DPI: dpi, Skew: skew, Noise: 12, Seed: uint64(dpi)})
		if err != nil {
			t.Fatal(err)
		}
		data, _ = scans.LoadOrStore(k, scan)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("scan-%d-%g.pdf", dpi, skew))
	if err := os.WriteFile(path, data.([]byte), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// staticCapturer is a static-tier capturer whose OCR budgets are generous:
// the tests check what is read, not how fast (make bench-ocr measures).
func staticCapturer(t *testing.T) *capture.Capturer {
	t.Cleanup(capture.SetPDFOCRTime(10*time.Minute, 30*time.Minute))
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	c := capture.New(o)
	t.Cleanup(c.Close)
	return c
}

func TestScanOCRReadsScannedPDF(t *testing.T) {
	needOCR(t)
	want := ocrtest.Words(ocrtest.Report)
	for _, c := range []struct {
		dpi  int
		skew float64
	}{{150, 1.5}, {200, 1.5}, {300, 1.5}, {200, 3}} {
		dpi := c.dpi
		t.Run(fmt.Sprintf("%d/%g°", dpi, c.skew), func(t *testing.T) {
			rec, g := captureAndGraph(t, staticCapturer(t), skewedReport(t, dpi, c.skew))
			checkScanRecord(t, rec, dpi)
			if g.Outcome.Status != graph.StatusOK || !strings.Contains(strings.Join(g.Outcome.Evidence, " "), "read by OCR") {
				t.Fatalf("outcome %s %q: want ok with evidence of OCR", g.Outcome.Status, g.Outcome.Evidence)
			}
			var text strings.Builder
			for _, b := range g.Blocks {
				if b.Source != normalize.SourcePDFOCR || b.Page < 1 || b.Page > 2 || b.Box == nil {
					t.Errorf("block %s %q: source %s, page %d, box %v: want pdf_ocr with a page and a box", b.ID, b.Text, b.Source, b.Page, b.Box)
				}
				if b.Role == "content" {
					text.WriteString(b.Text + "\n")
				}
			}
			acc := ocrtest.WordAccuracy(want, text.String())
			t.Logf("scanned PDF at %d dpi (skew %g°, noise): word accuracy %.1f%% of %d words", dpi, c.skew, 100*acc, len(want))
			floor := 0.98
			if dpi < 200 {
				floor = 0.95 // issue 25's goal is for 200 dpi and up
			}
			if acc < floor {
				t.Errorf("word accuracy %.3f at %d dpi, want at least %.2f:\n%s", acc, dpi, floor, text.String())
			}
			if !hasHeading(g, "Costs and Outlook") {
				t.Errorf("the second page's heading is not a heading block")
			}
			if dpi == 200 && c.skew == 1.5 {
				checkOCREvidence(t, g, "The board is asked to approve the purchase")
			}
		})
	}
}

// checkScanRecord checks pages[].ocr of the scanned report's capture: a
// scan is read at its own dpi.
func checkScanRecord(t *testing.T, rec capture.Record, dpi int) {
	t.Helper()
	if rec.PDF == nil || len(rec.PDF.Pages) != 2 {
		t.Fatalf("pdf %+v, want 2 pages", rec.PDF)
	}
	for _, p := range rec.PDF.Pages {
		o := p.OCR
		if o == nil || o.Gap != "" || o.DPI != dpi || !strings.HasPrefix(o.Engine, "tesseract ") || o.Words < 50 || len(p.Lines) == 0 {
			t.Fatalf("page %d ocr %+v, %d lines: want read at %d dpi", p.Index+1, o, len(p.Lines), dpi)
		}
		for _, l := range p.Lines {
			for _, s := range l.Spans {
				if s.Box.X < 0 || s.Box.Y < 0 || s.Box.X+s.Box.W > p.Width+1 || s.Box.Y+s.Box.H > p.Height+1 || s.Size < 6 || s.Size > 30 {
					t.Errorf("span %q box %+v size %g: not on the %gx%g pt page", s.Text, s.Box, s.Size, p.Width, p.Height)
				}
			}
		}
	}
}

func hasHeading(g *graph.Record, text string) bool {
	for _, b := range g.Blocks {
		if b.Type == graph.TypeHeading && strings.Contains(b.Text, text) {
			return true
		}
	}
	return false
}

func TestScanOCRLeavesTextLayers(t *testing.T) {
	src, err := ocrtest.TextPDF(ocrtest.Report, "Times", 11)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "text.pdf")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	rec, g := captureAndGraph(t, staticCapturer(t), path)
	for _, p := range rec.PDF.Pages {
		if p.OCR != nil {
			t.Errorf("page %d with a text layer read by OCR: %+v", p.Index+1, p.OCR)
		}
	}
	for _, b := range g.Blocks {
		if b.Source != normalize.SourcePDF {
			t.Errorf("block %s source %s, want pdf", b.ID, b.Source)
		}
	}
}

func TestScanOCRMissingTesseractIsAGapPerPage(t *testing.T) {
	t.Setenv("SIEVE_TESSERACT", "/nonexistent/tesseract")
	rec, g := captureAndGraph(t, staticCapturer(t), scannedReport(t, 150))
	for _, p := range rec.PDF.Pages {
		if p.OCR == nil || !strings.Contains(p.OCR.Gap, "tesseract is not installed") || len(p.Lines) != 0 {
			t.Errorf("page %d ocr %+v: want a gap saying Tesseract is missing", p.Index+1, p.OCR)
		}
	}
	var gaps []string
	for _, gp := range g.Gaps {
		if gp.Kind == graph.GapScannedPage && strings.Contains(gp.Reason, "tesseract is not installed") {
			gaps = append(gaps, gp.Label)
		}
	}
	if strings.Join(gaps, "|") != "page 1 (no text layer)|page 2 (no text layer)" {
		t.Errorf("gaps %+v: want one scanned_page gap per page", g.Gaps)
	}
	if g.Outcome.Status == graph.StatusOK || len(g.Blocks) != 0 {
		t.Errorf("outcome %+v with %d blocks: want no text and an outcome that is not ok", g.Outcome, len(g.Blocks))
	}
}

// checkOCREvidence checks that the evidence layer says a quote was OCR'd:
// the chunks warn, and verify grounds the quote with a reason saying so.
func checkOCREvidence(t *testing.T, g *graph.Record, quote string) {
	t.Helper()
	b, err := eef.Build(g, eef.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	warned := 0
	for _, c := range b.Chunks {
		for _, w := range c.Warnings {
			if w.Code == eef.WarningMachineRead && strings.Contains(w.Message, "(pdf_ocr)") {
				warned++
			}
		}
	}
	if warned == 0 || warned != len(b.Chunks) {
		t.Errorf("%d of %d chunks warn of OCR'd text", warned, len(b.Chunks))
	}
	for _, e := range b.Document.Payload.Elements {
		if e.Source != normalize.SourcePDFOCR {
			t.Errorf("element %s source %q, want pdf_ocr", e.ID, e.Source)
		}
	}
	gb, err := codec.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	src, err := ground.FromGraph(gb)
	if err != nil {
		t.Fatal(err)
	}
	rep := verify.Verify(src, verify.Citations{Claims: []verify.Claim{{ClaimID: "c1", Kind: "quote", Text: quote}}})
	if ch := rep.Checks[0]; ch.Status != verify.StatusGrounded || !strings.Contains(ch.Reason, "OCR of a scanned PDF page (source pdf_ocr)") {
		t.Errorf("check %s %q: want grounded, the reason saying the text was OCR'd", ch.Status, ch.Reason)
	}
}

func TestScanOCRTimeBudgetIsAGap(t *testing.T) {
	needOCR(t)
	c := staticCapturer(t)
	defer capture.SetPDFOCRTime(time.Nanosecond, time.Hour)()
	rec, g := captureAndGraph(t, c, scannedReport(t, 150))
	for _, p := range rec.PDF.Pages {
		if p.OCR == nil || !strings.Contains(p.OCR.Gap, "took longer than") {
			t.Errorf("page %d ocr %+v: want a gap for the spent budget", p.Index+1, p.OCR)
		}
	}
	if n := len(g.Gaps); n < 2 {
		t.Errorf("gaps %+v: want one per page", g.Gaps)
	}
}
