package crop

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"github.com/sieve-dev/sieve/evidence/ground"
)

// TestMarkDimsAroundTheBox (issue 26): a marked crop keeps the cited box
// as the page shows it, outlines it and dims the rest; at 2 pixels per
// document unit (a PDF crop above 72 dpi) the box is scaled.
func TestMarkDimsAroundTheBox(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 80, 60)) // area 40x30 units at 2 px per unit
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{0, 0, 0, 255}}, image.Point{}, draw.Src)
	area := [4]int{100, 200, 140, 230}
	box := ground.Box{X: 110, Y: 210, W: 20, H: 10} // pixels 20..60 x 20..40
	m := Mark(img, area, box)
	at := func(x, y int) color.RGBA { return m.RGBAAt(x, y) }
	if c := at(40, 30); c != (color.RGBA{0, 0, 0, 255}) {
		t.Errorf("inside the box: %v, want the page's own black", c)
	}
	if c := at(2, 2); c.R < 150 || c.R != c.G {
		t.Errorf("outside the box: %v, want dimmed towards white", c)
	}
	if c := at(19, 30); c != markColour {
		t.Errorf("just outside the box's left edge: %v, want the outline", c)
	}
	if img.RGBAAt(2, 2) != (color.RGBA{0, 0, 0, 255}) {
		t.Error("Mark changed its input")
	}
}
