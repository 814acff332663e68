package capture_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/ocr/ocrtest"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// BenchmarkScanDeskewAccuracy is the evidence for ocr.MinDeskew: the
// scanned report skewed by 0.5–3° at 150, 200 and 300 dpi (two scans
// each: two seeds of noise, four pages), read by `tesseract --psm 3` alone
// (whose page layout deskews by itself) on sieve's pixels as they are and
// on the same pixels straightened; word accuracy (%) of each, over both
// scans. Straightening pays where the first is short of the second. Not
// in make bench-ocr (some 6 minutes): go test -run '^$' -bench
// ScanDeskewAccuracy -benchtime 1x ./capture
func BenchmarkScanDeskewAccuracy(b *testing.B) {
	needOCRBench(b)
	want := ocrtest.Words(ocrtest.Report)
	for _, dpi := range benchDPIs {
		for _, skew := range []float64{0.5, 1, 1.5, 1.75, 2, 2.5, 3} {
			b.Run(fmt.Sprintf("dpi=%d/skew=%g", dpi, skew), func(b *testing.B) {
				scans := [][]byte{seededReport(b, dpi, skew, uint64(dpi)), seededReport(b, dpi, skew, uint64(dpi)+1)}
				var asIs, straight float64
				b.ResetTimer()
				for range b.N {
					asIs, straight = 0, 0
					for _, data := range scans {
						asIs += ocrtest.WordAccuracy(want, readSkewed(b, data, false)) / 2
						straight += ocrtest.WordAccuracy(want, readSkewed(b, data, true)) / 2
					}
				}
				b.StopTimer()
				b.ReportMetric(100*asIs, "as-is-word-acc%")
				b.ReportMetric(100*straight, "straightened-word-acc%")
			})
		}
	}
}

// readSkewed is Tesseract alone's reading of every page's pixels, as they
// are or straightened.
func readSkewed(b *testing.B, data []byte, straighten bool) string {
	doc, err := pdf.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	for i, p := range doc.Pages {
		bmp, dpi, err := capture.ScanPixelsStraightened(data, i, p.Width, p.Height, straighten)
		if err != nil {
			b.Fatal(err)
		}
		f := filepath.Join(b.TempDir(), fmt.Sprintf("page%d.bmp", i))
		if err := os.WriteFile(f, bmp, 0o644); err != nil {
			b.Fatal(err)
		}
		sb.WriteString(run(b, "", ocr.Command(), f, "stdout", "--psm", "3", "--dpi", fmt.Sprint(dpi)))
	}
	return sb.String()
}

// seededReport is the scanned report (skewedReport's) with noise seed.
func seededReport(b *testing.B, dpi int, skew float64, seed uint64) []byte {
	src, err := ocrtest.TextPDF(ocrtest.Report, "Helvetica", 11)
	if err != nil {
		b.Fatal(err)
	}
	scan, err := ocrtest.Scan(src, ocrtest.ScanOptions{DPI: dpi, Skew: skew, Noise: 12, Seed: seed})
	if err != nil {
		b.Fatal(err)
	}
	return scan
}
