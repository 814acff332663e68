package ocr

import (
	"bytes"
	"context"
	"image"
	"image/color"
	pngenc "image/png"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// TestDespeckleIsTheMedian compares Despeckle with the median of each
// pixel's 3×3 neighbourhood (edges clamped) on random images: noise
// everywhere, and one level with specks (the runs it counts, not sorts).
func TestDespeckleIsTheMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 40 {
		w, h := 1+rng.IntN(40), 1+rng.IntN(12)
		g := image.NewGray(image.Rect(0, 0, w, h))
		for i := range g.Pix {
			g.Pix[i] = uint8(rng.IntN(256))
			if n := []int{0, 3, 20}[k%3]; n > 0 && rng.IntN(n) > 0 { // a speck in 3 or in 20
				g.Pix[i] = 200
			}
		}
		d := Despeckle(cloneGray(g))
		for y := range h {
			for x := range w {
				var v []uint8
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						v = append(v, g.GrayAt(min(max(x+dx, 0), w-1), min(max(y+dy, 0), h-1)).Y)
					}
				}
				slices.Sort(v)
				if got := d.GrayAt(x, y).Y; got != v[4] {
					t.Fatalf("%dx%d image, pixel (%d, %d): %d, want the median %d", w, h, x, y, got, v[4])
				}
			}
		}
	}
}

func TestDespeckleKeepsStrokesDropsSpecks(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 20, 10))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	g.Pix[2*20+3] = 0 // a speck
	for y := 2; y < 8; y++ {
		for x := 10; x < 13; x++ {
			g.Pix[y*20+x] = 0 // a stroke three pixels wide
		}
	}
	d := Despeckle(g)
	if d.Pix[2*20+3] != 255 || d.Pix[5*20+11] != 0 {
		t.Errorf("speck %d (want 255), stroke %d (want 0)", d.Pix[2*20+3], d.Pix[5*20+11])
	}
}

// TestBMP checks the header, the padding and the bottom-up rows of BMP:
// the canvas and scan tests read every image through it.
func TestBMP(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 5, 3)) // rows padded to 8
	g.Pix[0*5+1] = 7                           // top row
	g.Pix[2*5+4] = 9                           // bottom row
	p := BMP(g)
	if string(p[:2]) != "BM" || len(p) != bmpHead+3*8 || p[18] != 5 || p[22] != 3 || p[28] != 8 || p[10] != bmpHead&255 {
		t.Fatalf("BMP header %v, %d bytes", p[:30], len(p))
	}
	if p[54+4*200] != 200 || p[54+4*200+2] != 200 {
		t.Errorf("palette entry 200 is %v, want grey 200", p[54+4*200:54+4*200+4])
	}
	if p[bmpHead+4] != 9 || p[bmpHead+2*8+1] != 7 {
		t.Errorf("rows not bottom-up: %v", p[bmpHead:])
	}
}

func TestHideFaint(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 100, 60))
	for i := range g.Pix {
		g.Pix[i] = 255
	}
	for x := 10; x < 40; x++ {
		g.Pix[10*100+x] = 254 // one level off white: unseen
		g.Pix[20*100+x] = 200 // light grey: seen
		g.Pix[30*100+x] = 20  // ink
	}
	HideFaint(g)
	if g.Pix[10*100+20] != 255 || g.Pix[20*100+20] != 200 || g.Pix[30*100+20] != 20 {
		t.Errorf("faint %d (want 255), grey %d (want 200), ink %d (want 20)", g.Pix[10*100+20], g.Pix[20*100+20], g.Pix[30*100+20])
	}
}

// TestFaintTextIsNotRead: the fixture's lines redrawn one level off white
// are read by Tesseract as they are, and not at all once Visible has
// erased what no visitor sees.
func TestFaintTextIsNotRead(t *testing.T) {
	needTesseract(t)
	png, err := os.ReadFile("testdata/lines.png")
	if err != nil {
		t.Fatal(err)
	}
	img, _, err := image.Decode(bytes.NewReader(png))
	if err != nil {
		t.Fatal(err)
	}
	g := GrayOf(img)
	for i, v := range g.Pix {
		g.Pix[i] = 255
		if v < 128 {
			g.Pix[i] = 254
		}
	}
	var faint bytes.Buffer
	if err := pngenc.Encode(&faint, g); err != nil {
		t.Fatal(err)
	}
	raw, err := Read(context.Background(), BMP(g), Options{Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(raw.Lines) == 0 {
		t.Fatal("Tesseract read nothing of the faint lines: the test shows no hole to close")
	}
	vis, err := Visible(faint.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Read(context.Background(), vis, Options{Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 0 {
		t.Errorf("faint text read after Visible: %+v", res.Lines)
	}
	vg, err := VisibleGray(faint.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if res, err := ReadImage(context.Background(), vg, Options{Scale: 2}); err != nil || len(res.Lines) != 0 {
		t.Errorf("ReadImage of the faint lines: %v, %+v", err, res)
	}
}

func cloneGray(g *image.Gray) *image.Gray {
	c := *g
	c.Pix = slices.Clone(g.Pix)
	return &c
}

// TestGrayOfFastPaths: a grey image is copied; an NRGBA one (opaque or
// not) is read as the same picture in RGBA; RGBA is within a level of
// color.GrayModel (8-bit weights against its 16-bit ones), and another
// image is color.GrayModel's exactly; bounds need not start at 0.
func TestGrayOfFastPaths(t *testing.T) {
	r := image.Rect(3, 5, 40, 29)
	rgba, nrgba, gray := image.NewRGBA(r), image.NewNRGBA(r), image.NewGray(r)
	paletted := image.NewPaletted(r, color.Palette{color.Black, color.White, color.Gray{Y: 77}})
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBA{R: uint8(x * 37), G: uint8(y * 91), B: uint8(x * y), A: 255}
			if x%3 == 0 {
				c.A = uint8(y * 11)
			}
			nrgba.SetNRGBA(x, y, c)
			rgba.Set(x, y, c)
			gray.Set(x, y, c)
			paletted.SetColorIndex(x, y, uint8(x+y)%3)
		}
	}
	same := func(name string, got *image.Gray, want func(x, y int) uint8, tol int) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if g, w := int(got.GrayAt(x-r.Min.X, y-r.Min.Y).Y), int(want(x, y)); g-w > tol || w-g > tol {
					t.Fatalf("%s at (%d, %d): %d, want %d", name, x, y, g, w)
				}
			}
		}
	}
	model := func(img image.Image) func(x, y int) uint8 {
		return func(x, y int) uint8 { return color.GrayModel.Convert(img.At(x, y)).(color.Gray).Y }
	}
	same("grey", GrayOf(gray), func(x, y int) uint8 { return gray.GrayAt(x, y).Y }, 0)
	asRGBA := GrayOf(rgba)
	same("NRGBA", GrayOf(nrgba), func(x, y int) uint8 { return asRGBA.GrayAt(x-r.Min.X, y-r.Min.Y).Y }, 0)
	same("RGBA", asRGBA, model(rgba), 1)
	same("paletted", GrayOf(paletted), model(paletted), 0)
}
