package capture_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/ocr/ocrtest"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// make bench-ocr: scanned PDFs (ocrtest.Report, 2 pages, skew 1.5°,
// noise) at 150, 200 and 300 dpi read by sieve's capture against
// Tesseract alone on the very pixels sieve gives it, and by ocrmypdf +
// pdftotext when installed; ms/page and word accuracy (%) each. One
// Tesseract thread everywhere (sieve runs it so).

var benchDPIs = []int{150, 200, 300}

func needOCRBench(b *testing.B) {
	b.Helper()
	if _, err := ocr.Version(); err != nil {
		b.Skip("OCR BENCH NOT RUN: ", err)
	}
	// The render tests' shared browsers (TestMain) are not needed here:
	// benchmarks run after every test, and a running browser's memory
	// watchdog reads /proc every 250 ms, CPU time the scan reads would
	// be charged with.
	renderCap.Close()
	renderAll.Close()
}

// BenchmarkScanOCRSieveVsTesseract reads each scan by sieve's capture
// (parse, render at the scan's dpi, grey, despeckle, erase faint text,
// straighten, Tesseract, lines) and by `tesseract` alone on the very pixels capture
// hands it (made before the timer starts; the same flags), taking turns
// so that both see the same load. It reports each one's ms/page (wall)
// and CPU ms/page (the process's and its children's user+system time,
// steadier than the wall clock on a loaded machine), their ratios and
// word accuracy.
func BenchmarkScanOCRSieveVsTesseract(b *testing.B) {
	needOCRBench(b)
	want := ocrtest.Words(ocrtest.Report)
	for _, dpi := range benchDPIs {
		b.Run(fmt.Sprintf("dpi=%d", dpi), func(b *testing.B) {
			path := scannedReport(b, dpi)
			pages := sievePixels(b, path)
			defer capture.SetPDFOCRTime(10*time.Minute, time.Hour)()
			o := capture.DefaultOptions()
			o.Tier = capture.TierStatic
			c := capture.New(o)
			defer c.Close()
			tg, err := capture.ParseTarget([]byte(path))
			if err != nil {
				b.Fatal(err)
			}
			var sieve, alone spent
			var text, textAlone string
			b.ResetTimer()
			for i := range b.N {
				one := func() { sieve.add(func() { text = pdfText(c.Capture(context.Background(), tg)) }) }
				other := func() {
					alone.add(func() {
						var sb strings.Builder
						for _, p := range pages {
							sb.WriteString(run(b, "", ocr.Command(), p.file, "stdout", "--psm", "3", "--dpi", fmt.Sprint(p.dpi)))
						}
						textAlone = sb.String()
					})
				}
				if i%2 == 1 {
					one, other = other, one // neither always goes first
				}
				one()
				other()
			}
			b.StopTimer()
			n := float64(b.N * len(pages))
			b.ReportMetric(sieve.wall.Seconds()*1000/n, "sieve-ms/page")
			b.ReportMetric(alone.wall.Seconds()*1000/n, "tess-ms/page")
			b.ReportMetric(sieve.wall.Seconds()/alone.wall.Seconds(), "wall-ratio")
			b.ReportMetric(sieve.cpu().Seconds()*1000/n, "sieve-cpu-ms/page")
			b.ReportMetric(sieve.own.Seconds()*1000/n, "sieve-own-cpu-ms/page")
			b.ReportMetric(sieve.kids.Seconds()*1000/n, "sieve-tess-cpu-ms/page")
			b.ReportMetric(alone.cpu().Seconds()*1000/n, "tess-cpu-ms/page")
			b.ReportMetric(sieve.cpu().Seconds()/alone.cpu().Seconds(), "cpu-ratio")
			b.ReportMetric(sieve.own.Seconds()/alone.cpu().Seconds(), "own/tess-cpu")
			b.ReportMetric(100*ocrtest.WordAccuracy(want, text), "sieve-word-acc%")
			b.ReportMetric(100*ocrtest.WordAccuracy(want, textAlone), "tess-word-acc%")
		})
	}
}

// spent sums the wall time and the CPU time (user+system) of some calls:
// this process's own and its waited-for children's (Tesseract).
type spent struct{ wall, own, kids time.Duration }

func (s *spent) add(f func()) {
	own0, kids0, t0 := cpuTime(syscall.RUSAGE_SELF), cpuTime(syscall.RUSAGE_CHILDREN), time.Now()
	f()
	s.wall += time.Since(t0)
	s.own += cpuTime(syscall.RUSAGE_SELF) - own0
	s.kids += cpuTime(syscall.RUSAGE_CHILDREN) - kids0
}

func (s *spent) cpu() time.Duration { return s.own + s.kids }

// cpuTime is the user+system time of this process or its children.
func cpuTime(who int) time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(who, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
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

// scanPage is a page's pixels as sieve gives them to Tesseract.
type scanPage struct {
	file string // a BMP
	dpi  int
}

// sievePixels writes the BMPs capture gives Tesseract for each page.
func sievePixels(b *testing.B, path string) []scanPage {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := pdf.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var out []scanPage
	for i, p := range doc.Pages {
		bmp, dpi, err := capture.ScanPixels(data, i, p.Width, p.Height)
		if err != nil {
			b.Fatal(err)
		}
		f := filepath.Join(b.TempDir(), fmt.Sprintf("page%d.bmp", i))
		if err := os.WriteFile(f, bmp, 0o644); err != nil {
			b.Fatal(err)
		}
		out = append(out, scanPage{file: f, dpi: dpi})
	}
	return out
}

// BenchmarkScanOCRmyPDF is what people script today: ocrmypdf (one job,
// one Tesseract thread, its defaults) then pdftotext on its output (the
// time is ocrmypdf's and the default pdftotext's: wall, and CPU of the
// processes and theirs).
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
			var used spent
			b.ResetTimer()
			for range b.N {
				used.add(func() {
					run(b, "", "ocrmypdf", "-q", "-j", "1", "--output-type", "pdf", in, out)
					text = run(b, "", "pdftotext", out, "-")
				})
			}
			b.StopTimer()
			n := float64(b.N * len(ocrtest.Report))
			b.ReportMetric(used.wall.Seconds()*1000/n, "ms/page")
			b.ReportMetric(used.cpu().Seconds()*1000/n, "cpu-ms/page")
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

// BenchmarkScanPixels is sieve's own work on a scanned page before
// Tesseract (render at the scan's dpi, grey, despeckle, erase faint text,
// measure the skew, straighten, BMP): ms/page, the part of
// BenchmarkScanOCRSieveVsTesseract's overhead that is not parse or TSV.
func BenchmarkScanPixels(b *testing.B) {
	for _, dpi := range benchDPIs {
		b.Run(fmt.Sprintf("dpi=%d", dpi), func(b *testing.B) {
			data, err := os.ReadFile(scannedReport(b, dpi))
			if err != nil {
				b.Fatal(err)
			}
			doc, err := pdf.Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			p := doc.Pages[0]
			b.ResetTimer()
			for range b.N {
				if _, _, err := capture.ScanPixels(data, 0, p.Width, p.Height); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
