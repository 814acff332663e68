package capture_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/ocr/ocrtest"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// make bench-ocr: scanned PDFs (ocrtest.Report, 2 pages, skew 1.5°,
// noise) at 150, 200 and 300 dpi read by sieve's capture, by Tesseract
// alone on the very pixels sieve gives it, and by ocrmypdf + pdftotext
// when installed; ms/page and word accuracy (%) each. One Tesseract
// thread everywhere (sieve runs it so).

var benchDPIs = []int{150, 200, 300}

func needOCRBench(b *testing.B) {
	b.Helper()
	if _, err := ocr.Version(); err != nil {
		b.Skip("OCR BENCH NOT RUN: ", err)
	}
}

func BenchmarkScanOCRSieve(b *testing.B) {
	needOCRBench(b)
	want := ocrtest.Words(ocrtest.Report)
	for _, dpi := range benchDPIs {
		b.Run(fmt.Sprintf("dpi=%d", dpi), func(b *testing.B) {
			path := scannedReport(b, dpi)
			defer capture.SetPDFOCRTime(10*time.Minute, time.Hour)()
			o := capture.DefaultOptions()
			o.Tier = capture.TierStatic
			c := capture.New(o)
			defer c.Close()
			tg, err := capture.ParseTarget([]byte(path))
			if err != nil {
				b.Fatal(err)
			}
			var text string
			b.ResetTimer()
			for range b.N {
				rec := c.Capture(context.Background(), tg)
				text = pdfText(rec)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(ocrtest.Report)), "ms/page")
			b.ReportMetric(100*ocrtest.WordAccuracy(want, text), "word-acc%")
		})
	}
}

// pdfText is a capture's PDF lines, one per line of text.
func pdfText(rec capture.Record) string {
	var sb strings.Builder
	if rec.PDF == nil {
		return ""
	}
	for _, p := range rec.PDF.Pages {
		for _, l := range p.Lines {
			for _, s := range l.Spans {
				sb.WriteString(s.Text + " ")
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// BenchmarkScanOCRTesseractAlone runs `tesseract` on the pages as sieve
// hands them over (rendered at 300 dpi, grey, despeckled: made before the
// timer starts), the same flags.
func BenchmarkScanOCRTesseractAlone(b *testing.B) {
	needOCRBench(b)
	want := ocrtest.Words(ocrtest.Report)
	for _, dpi := range benchDPIs {
		b.Run(fmt.Sprintf("dpi=%d", dpi), func(b *testing.B) {
			pages := sievePixels(b, scannedReport(b, dpi))
			var text string
			b.ResetTimer()
			for range b.N {
				var sb strings.Builder
				for _, p := range pages {
					sb.WriteString(run(b, "", ocr.Command(), p, "stdout", "--psm", "3", "--dpi", fmt.Sprint(capture.PDFOCRDPI)))
				}
				text = sb.String()
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(pages)), "ms/page")
			b.ReportMetric(100*ocrtest.WordAccuracy(want, text), "word-acc%")
		})
	}
}

// sievePixels writes the PGMs capture gives Tesseract for each page.
func sievePixels(b *testing.B, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := pdf.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var out []string
	for i, p := range doc.Pages {
		imgs, errs, err := pdf.Render(data, []pdf.Region{{Page: i, Box: pdf.Box{X1: p.Width, Y1: p.Height}}}, capture.PDFOCRDPI)
		if err != nil || errs[0] != nil {
			b.Fatal(err, errs)
		}
		f := filepath.Join(b.TempDir(), fmt.Sprintf("page%d.pgm", i))
		if err := os.WriteFile(f, ocr.PGM(ocr.HideFaint(ocr.Despeckle(ocr.GrayOf(imgs[0])))), 0o644); err != nil {
			b.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// BenchmarkScanOCRmyPDF is what people script today: ocrmypdf (one job,
// one Tesseract thread, its defaults) then pdftotext on its output (the
// time is ocrmypdf's and the default pdftotext's).
func BenchmarkScanOCRmyPDF(b *testing.B) {
	needOCRBench(b)
	for _, tool := range []string{"ocrmypdf", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s is not installed (apt-get install ocrmypdf poppler-utils)", tool)
		}
	}
	want := ocrtest.Words(ocrtest.Report)
	for _, dpi := range benchDPIs {
		b.Run(fmt.Sprintf("dpi=%d", dpi), func(b *testing.B) {
			in := scannedReport(b, dpi)
			out := filepath.Join(b.TempDir(), "out.pdf")
			var text string
			b.ResetTimer()
			for range b.N {
				run(b, "", "ocrmypdf", "-q", "-j", "1", "--output-type", "pdf", in, out)
				text = run(b, "", "pdftotext", out, "-")
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(ocrtest.Report)), "ms/page")
			b.ReportMetric(100*ocrtest.WordAccuracy(want, text), "word-acc%")
			// pdftotext's default layout cuts the words of a skewed OCR
			// layer at the skew; -raw (content-stream order) keeps them
			b.ReportMetric(100*ocrtest.WordAccuracy(want, run(b, "", "pdftotext", "-raw", out, "-")), "raw-word-acc%")
		})
	}
}

// run runs a command with one OCR thread and returns its stdout.
func run(b *testing.B, stdin string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v: %s", name, err, errb.String())
	}
	return out.String()
}
