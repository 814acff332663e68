package pdf

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"
)

// overWhiteFloat is the float compositing overWhiteInt replaced.
func overWhiteFloat(v, a uint8) uint8 {
	f := float64(a) / 255
	return uint8(math.Round(float64(v)*f + 255*(1-f)))
}

func TestOverWhiteInt(t *testing.T) {
	for a := range 256 {
		for v := range 256 {
			if got, want := overWhiteInt(uint8(v), uint32(a)), overWhiteFloat(uint8(v), uint8(a)); got != want {
				t.Fatalf("v=%d a=%d: %d, float math gives %d", v, a, got, want)
			}
		}
	}
}

// TestFlatten checks the row-copy path against the per-pixel float form,
// opaque and transparent, on an image not at the origin.
func TestFlatten(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := image.NewRGBA(image.Rect(3, 5, 40, 29))
	for i := range src.Pix {
		src.Pix[i] = uint8(rng.IntN(256))
	}
	sub := src.SubImage(image.Rect(7, 6, 33, 20)).(*image.RGBA)
	for _, transparent := range []bool{false, true} {
		got := flatten(sub, transparent)
		b := sub.Bounds()
		if got.Bounds() != image.Rect(0, 0, b.Dx(), b.Dy()) {
			t.Fatalf("bounds %v", got.Bounds())
		}
		for y := range b.Dy() {
			for x := range b.Dx() {
				c := sub.RGBAAt(b.Min.X+x, b.Min.Y+y)
				want := color.RGBA{c.R, c.G, c.B, 255}
				if transparent {
					want = color.RGBA{overWhiteFloat(c.R, c.A), overWhiteFloat(c.G, c.A), overWhiteFloat(c.B, c.A), 255}
				}
				if g := got.RGBAAt(x, y); g != want {
					t.Fatalf("transparent=%v (%d,%d): %v, want %v", transparent, x, y, g, want)
				}
			}
		}
		// any other image goes the per-pixel way, to the same result
		if other := flatten(image.NewNRGBA(image.Rect(0, 0, 2, 2)), transparent); other.RGBAAt(1, 1).A != 255 {
			t.Fatalf("NRGBA: %v", other.RGBAAt(1, 1))
		}
	}
}
