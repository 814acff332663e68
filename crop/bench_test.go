package crop

import (
	"bytes"
	"fmt"
	"os/exec"
	"testing"

	"github.com/go-pdf/fpdf"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/verify"
)

// longPDF is a pages-page PDF with perPage numbered lines a page: a long
// document to crop from.
func longPDF(b *testing.B, pages, perPage int) ([]byte, []string) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCatalogSort(true)
	f.SetAutoPageBreak(false, 0)
	f.SetFont("Helvetica", "", 11)
	var words []string
	for p := range pages {
		f.AddPage()
		for i := range perPage {
			w := fmt.Sprintf("Line %d of page %d, cited by the benchmark.", i+1, p+1)
			f.Text(72, 80+float64(i)*60, w)
			words = append(words, w)
		}
	}
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes(), words
}

// benchMake times Make (pixels, PNG encoding) and reports crops/s.
func benchMake(b *testing.B, src ground.Source, r verify.Report, ras Raster, opts Options) {
	targets := Targets(src, &r)
	b.ResetTimer()
	n := 0
	for b.Loop() {
		set, err := Make(src, targets, ras, opts)
		if err != nil {
			b.Fatal(err)
		}
		if set.Rendered() != len(targets) {
			b.Fatalf("%d of %d rendered", set.Rendered(), len(targets))
		}
		n += len(targets)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "crops/s")
}

// BenchmarkPDFCrops: one crop of every fourth line of a 60-page PDF
// (150 crops a run) at 144 dpi, rendered by PDFium, the quoted lines
// marked (the text layer read once a run) and encoded.
func BenchmarkPDFCrops(b *testing.B) { benchPDF(b, false) }

// BenchmarkPDFCropsPlain: the same crops --plain (no text layer read, no
// mark drawn).
func BenchmarkPDFCropsPlain(b *testing.B) { benchPDF(b, true) }

func benchPDF(b *testing.B, plain bool) {
	data, words := longPDF(b, 60, 10)
	doc := distilPDF(b, data)
	var cited []string
	for i := 0; i < len(words); i += 4 {
		cited = append(cited, words[i])
	}
	src, r := quotes(b, doc, cited...)
	ras, err := LoadRaster(doc, src, Sources{PDF: writeTemp(b, "long.pdf", data)})
	if err != nil || ras.NoPixels != "" {
		b.Fatal(err, ras.NoPixels)
	}
	benchMake(b, src, r, ras, Options{Padding: DefaultPadding, DPI: DefaultDPI, Plain: plain})
}

// BenchmarkScreenshotCrops: the markers of a 7000 px rendered page cut
// from its capture-time screenshot (the capture is not timed).
func BenchmarkScreenshotCrops(b *testing.B) {
	if _, err := exec.LookPath(capture.DefaultChromium); err != nil {
		b.Skip("Chromium is unavailable")
	}
	srv := serve(b, map[string]string{"/markers": markerPage(7000, webMarkers)})
	blobs := b.TempDir()
	doc, _ := distilWeb(b, srv.URL+"/markers", capture.TierRender, blobs)
	words := make([]string, len(webMarkers))
	for i, m := range webMarkers {
		words[i] = m.Word
	}
	src, r := quotes(b, doc, words...)
	ras, err := LoadRaster(doc, src, Sources{Blobs: blobs})
	if err != nil || ras.NoPixels != "" {
		b.Fatal(err, ras.NoPixels)
	}
	benchMake(b, src, r, ras, Options{Padding: DefaultPadding})
}
