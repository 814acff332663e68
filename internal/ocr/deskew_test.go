package ocr

import (
	"image"
	"math"
	"testing"

	"github.com/sieve-dev/sieve/internal/ocr/ocrtest"
)

// linesPage is a white page with rows of dark dashes, like lines of words.
func linesPage() *image.Gray {
	g := image.NewGray(image.Rect(0, 0, 800, 1000))
	for i := range g.Pix {
		g.Pix[i] = 250
	}
	for y := 100; y < 900; y += 40 {
		for x := 80; x < 720; x++ {
			if (x/30)%4 == 3 {
				continue // a gap between "words"
			}
			for d := range 14 {
				g.Pix[(y+d)*g.Stride+x] = 30
			}
		}
	}
	return g
}

// TestSkewMeasuresATurnedPage: a page turned by 3° either way (as
// ocrtest scans it) measures 3° that way, to the step; a level page 0.
func TestSkewMeasuresATurnedPage(t *testing.T) {
	page := linesPage()
	if s := Skew(page); s != 0 {
		t.Errorf("level page: skew %g, want 0", s)
	}
	for _, deg := range []float64{3, -3, 1.5, -5} {
		if s := Skew(ocrtest.Rotate(page, deg)); math.Abs(s-deg) > skewStep+1e-9 {
			t.Errorf("page turned %g°: skew %g", deg, s)
		}
	}
}

// TestStraightenedAndUnskew: straightening a turned page brings its rows
// back level (the level page's skew), and Unskew puts a box read on the
// straightened page back where its middle was on the turned one.
func TestStraightenedAndUnskew(t *testing.T) {
	turned := ocrtest.Rotate(linesPage(), 3)
	straight := Straightened(turned, Skew(turned))
	if s := Skew(straight); s != 0 {
		t.Errorf("straightened page: skew %g, want 0", s)
	}
	// the second dash of the first row: x 120–209, y 100–113 on the level
	// page; on the turned page its middle is where Rotate put it
	b := Unskew(Box{X: 120, Y: 100, W: 90, H: 14}, 3, 800, 1000, 1)
	mx, my := b.X+b.W/2, b.Y+b.H/2
	if turned.GrayAt(int(mx), int(my)).Y > 100 || b.W != 90 || b.H != 14 {
		t.Errorf("unskewed box %+v: its middle (%.0f, %.0f) is not on the dash (level %d), or its size changed", b, mx, my, turned.GrayAt(int(mx), int(my)).Y)
	}
}

// TestStraightenedIsBilinear: the runs Straightened fills from squares of
// one level are what the bilinear sum gives pixel by pixel (sampleFixed),
// on a page with flat margins, text and noise.
func TestStraightenedIsBilinear(t *testing.T) {
	page := ocrtest.Rotate(linesPage(), 2.3)
	for i := 0; i < len(page.Pix); i += 997 {
		page.Pix[i] = uint8(i % 251) // specks, a few squares apart
	}
	for _, skew := range []float64{2.3, -0.7} {
		got := Straightened(page, skew)
		w, h := page.Rect.Dx(), page.Rect.Dy()
		bg := uint8(background(page))
		sin, cos := math.Sincos(skew * math.Pi / 180)
		for y := range h {
			sx, sy := unskew(0, float64(y), skew, float64(w)/2, float64(h)/2)
			fx, fy := int64(math.Round(sx*65536)), int64(math.Round(sy*65536))
			dx, dy := int64(math.Round(cos*65536)), int64(math.Round(-sin*65536))
			for x := range w {
				if want := sampleFixed(page, fx, fy, bg); got.Pix[y*got.Stride+x] != want {
					t.Fatalf("skew %g, pixel (%d, %d): %d, want %d", skew, x, y, got.Pix[y*got.Stride+x], want)
				}
				fx, fy = fx+dx, fy+dy
			}
		}
	}
}
