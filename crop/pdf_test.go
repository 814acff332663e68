package crop

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
	"github.com/sieve-dev/sieve/verify"
)

// distilPDF runs a PDF through the real chain (capture with the embedded
// PDFium, normalize, graph, the EEF bundle) and returns document.ethos.json.
func distilPDF(t testing.TB, data []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := capture.New(capture.DefaultOptions())
	defer c.Close()
	cr := c.Capture(context.Background(), capture.Target{URL: "file:///test/doc.pdf", Path: path}) // a fixed URL: the same document every run
	if cr.PDF == nil {
		t.Fatalf("capture read no PDF: %+v", cr.Error)
	}
	n, err := normalize.Normalize(&cr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := eef.Build(graph.Build(n), eef.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := c14n.Marshal(b.Document)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// quotes verifies one quote claim per word against doc.
func quotes(t testing.TB, doc []byte, words ...string) (ground.Source, verify.Report) {
	t.Helper()
	src, err := ground.FromEthos(doc)
	if err != nil {
		t.Fatal(err)
	}
	var cit verify.Citations
	for _, w := range words {
		cit.Claims = append(cit.Claims, verify.Claim{Kind: verify.KindQuote, Text: w})
	}
	return src, verify.Verify(src, cit)
}

// near says whether pixel c is within tol of colour want on every channel.
func near(r, g, b uint8, want [3]uint8, tol int) bool {
	d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
	return d(r, want[0]) <= tol && d(g, want[1]) <= tol && d(b, want[2]) <= tol
}

// share is the fraction of img's pixels near colour want.
func share(img image.Image, want [3]uint8) float64 {
	bounds := img.Bounds()
	n := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if near(uint8(r>>8), uint8(g>>8), uint8(b>>8), want, 40) {
				n++
			}
		}
	}
	return float64(n) / float64(bounds.Dx()*bounds.Dy())
}

// checkMarkers asserts that each marker's crop shows its colour and no
// other marker's.
func checkMarkers[M any](t *testing.T, set Set, ms []M, word func(M) string, colour func(M) [3]uint8) {
	t.Helper()
	if len(set.Descriptors) != len(ms) {
		t.Fatalf("%d descriptors for %d markers: %+v", len(set.Descriptors), len(ms), set.Descriptors)
	}
	for i, m := range ms {
		d := set.Descriptors[i]
		if d.RenderingStatus != StatusRendered {
			t.Errorf("%s: %s (%s)", word(m), d.RenderingStatus, d.Reason)
			continue
		}
		img, err := png.Decode(bytes.NewReader(set.PNGs[d.CropRef]))
		if err != nil {
			t.Fatalf("%s: %v", word(m), err)
		}
		if s := share(img, colour(m)); s < 0.3 {
			t.Errorf("%s (page %s, box %v): %.0f%% of the crop is the marker's colour, want most of it", word(m), d.Page.PageRef, d.BBox, 100*s)
		}
		for j, o := range ms {
			if j != i && share(img, colour(o)) > 0 {
				t.Errorf("%s: the crop shows %s's colour", word(m), word(o))
			}
		}
		if img.Bounds().Dx() != d.Pixels.Width || img.Bounds().Dy() != d.Pixels.Height {
			t.Errorf("%s: PNG %v, descriptor says %dx%d", word(m), img.Bounds(), d.Pixels.Width, d.Pixels.Height)
		}
	}
}

func TestPDFMarkers(t *testing.T) {
	data, ms, err := pdftest.Markers()
	if err != nil {
		t.Fatal(err)
	}
	doc := distilPDF(t, data)
	words := make([]string, len(ms))
	for i, m := range ms {
		words[i] = m.Word
	}
	src, r := quotes(t, doc, words...)
	for _, c := range r.Checks {
		if c.Status != verify.StatusGrounded {
			t.Fatalf("%s: %s %s", c.CheckID, c.Status, c.Reason)
		}
	}
	ras, err := LoadRaster(doc, src, Sources{PDF: writeTemp(t, "src.pdf", data)})
	if err != nil || ras.NoPixels != "" || !ras.PDF {
		t.Fatalf("raster: %v %q pdf=%v", err, ras.NoPixels, ras.PDF)
	}
	make := func() Set {
		set, err := Make(src, Targets(src, &r), ras, Options{Padding: DefaultPadding, DPI: DefaultDPI, Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	set := make()
	checkMarkers(t, set, ms, func(m pdftest.Marker) string { return m.Word }, func(m pdftest.Marker) [3]uint8 { return m.Color })
	wantPages := []string{"p0001", "p0001", "p0001", "p0002", "p0003"}
	for i, d := range set.Descriptors {
		if d.Page.PageRef != wantPages[i] {
			t.Errorf("%s on %s, want %s", ms[i].Word, d.Page.PageRef, wantPages[i])
		}
	}
	// The decoy outside page 3's CropBox is never shown.
	for _, d := range set.Descriptors {
		img, _ := png.Decode(bytes.NewReader(set.PNGs[d.CropRef]))
		if share(img, [3]uint8{250, 200, 0}) > 0 {
			t.Errorf("%s shows the marker outside the CropBox", d.CropRef)
		}
	}
	checkDeterministic(t, set, make())
	checkSchema(t, set)
}

func writeTemp(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkDeterministic asserts that two runs gave the same bytes.
func checkDeterministic(t *testing.T, a, b Set) {
	t.Helper()
	la, _ := Lines(a)
	lb, _ := Lines(b)
	if !bytes.Equal(la, lb) {
		t.Errorf("two runs gave different descriptors:\n%s\n%s", la, lb)
	}
	for ref, p := range a.PNGs {
		if !bytes.Equal(p, b.PNGs[ref]) {
			t.Errorf("two runs gave different PNG bytes for %s", ref)
		}
	}
}

// checkSchema validates every descriptor line.
func checkSchema(t *testing.T, set Set) {
	t.Helper()
	lines, err := Lines(set)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(bytes.TrimSpace(lines), []byte("\n")) {
		if err := schemas.Validate("ethos-crop-descriptor", l); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
}

// A flat picture where text is cited is refused, not shown (a blank
// screenshot tile would otherwise pass for evidence).
func TestBlankCropRefused(t *testing.T) {
	src, err := ground.FromEthos(distilPDF(t, mustMarkers(t)))
	if err != nil {
		t.Fatal(err)
	}
	shot := image.NewRGBA(image.Rect(0, 0, 1000, 1000)) // all transparent black
	set, err := Make(src, []Target{{CheckIDs: []string{"v0001"}, PageRef: "p0001", BBox: &ground.Box{X: 10, Y: 10, W: 50, H: 20}, Text: "x"}},
		Raster{Screenshot: shot}, Options{Padding: 2})
	if err != nil {
		t.Fatal(err)
	}
	if d := set.Descriptors[0]; d.RenderingStatus != StatusDescriptorOnly || !strings.Contains(d.Reason, "flat colour") || len(set.PNGs) != 0 {
		t.Errorf("%+v", d)
	}
}

func mustMarkers(t *testing.T) []byte {
	data, _, err := pdftest.Markers()
	if err != nil {
		t.Fatal(err)
	}
	return data
}
