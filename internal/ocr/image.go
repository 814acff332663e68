package ocr

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/png" // canvas screenshots
)

// GrayOf is img's luminance (color.GrayModel's weights).
func GrayOf(img image.Image) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	if m, ok := img.(*image.RGBA); ok {
		for y := 0; y < b.Dy(); y++ {
			i, o := m.PixOffset(b.Min.X, b.Min.Y+y), y*out.Stride
			for x := 0; x < b.Dx(); x, i = x+1, i+4 {
				out.Pix[o+x] = luma(m.Pix[i], m.Pix[i+1], m.Pix[i+2])
			}
		}
		return out
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.Pix[y*out.Stride+x] = color.GrayModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.Gray).Y
		}
	}
	return out
}

// luma is color.GrayModel's weighting of 8-bit RGB.
func luma(r, g, b uint8) uint8 {
	return uint8((19595*uint32(r) + 38470*uint32(g) + 7471*uint32(b) + 1<<15) >> 16)
}

// PGM encodes g as a binary PGM (P5): Tesseract reads it like a PNG, and
// it costs no compression before a page is read.
func PGM(g *image.Gray) []byte {
	b := g.Bounds()
	head := fmt.Sprintf("P5\n%d %d\n255\n", b.Dx(), b.Dy())
	out := make([]byte, len(head), len(head)+b.Dx()*b.Dy())
	copy(out, head)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := g.PixOffset(b.Min.X, y)
		out = append(out, g.Pix[i:i+b.Dx()]...)
	}
	return out
}

// Despeckle puts g, in place, through a 3×3 median filter and returns
// g: a scan's specks and grain go, strokes two pixels wide or more stay.
// Without it Tesseract takes specks beside a word for accents of it, and
// the word's box grows. Each column of three is sorted once per row; the
// median of nine is then the median of the largest low, the middle middle
// and the smallest high of three sorted columns (exact). Sorting is by min
// and max, without branches: on a scan's grain a branch goes either way at
// random. The rows above the one being written are kept as they were in
// two rows' room (no second page buffer).
func Despeckle(g *image.Gray) *image.Gray {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return g
	}
	// ints, not bytes: the compiler turns min and max of ints into
	// conditional moves
	lo, mid, hi := make([]int, w), make([]int, w), make([]int, w)
	row := func(y int) []uint8 {
		i := g.PixOffset(b.Min.X, b.Min.Y+y)
		return g.Pix[i : i+w]
	}
	above, here := make([]uint8, w), make([]uint8, w) // rows y-1 and y as they were
	for y := 0; y < h; y++ {
		copy(here, row(y))
		up, down := above, here
		if y == 0 {
			up = here
		}
		if y+1 < h {
			down = row(y + 1)
		}
		for x := range w {
			a, b, c := int(up[x]), int(here[x]), int(down[x])
			lo[x], mid[x], hi[x] = min(a, b, c), median3(a, b, c), max(a, b, c)
		}
		o := row(y)
		for x := range w {
			l, r := max(x-1, 0), min(x+1, w-1)
			o[x] = uint8(median3(max(lo[l], lo[x], lo[r]), median3(mid[l], mid[x], mid[r]), min(hi[l], hi[x], hi[r])))
		}
		above, here = here, above
	}
	return g
}

// median3 is the middle one of a, b, c.
func median3(a, b, c int) int {
	return max(min(a, b), min(max(a, b), c))
}

// MinContrast is the least difference in grey levels (of 255) from the
// background around it at which a pixel is ink: text closer to its
// background than this (one level off white, the background colour
// itself) is not seen by a visitor, and is not content. Tesseract's
// binarisation would find it all the same (an otherwise empty canvas of
// #fefefe text on #ffffff reads at 96 % confidence), so it is erased
// before the read. The same distance as normalize's same-colour rule for
// PDF text (pdfColorNear).
const MinContrast = 24

// faintTile is the side of the squares whose most common level is taken
// as the background under their pixels: small enough for a chart's
// panels, larger than the strokes of 48 px text shot at 2×.
const faintTile = 48

// HideFaint sets, in place, every pixel within MinContrast of the most
// common level of its faintTile square to that level, and returns g.
func HideFaint(g *image.Gray) *image.Gray {
	b := g.Bounds()
	for ty := b.Min.Y; ty < b.Max.Y; ty += faintTile {
		for tx := b.Min.X; tx < b.Max.X; tx += faintTile {
			r := image.Rect(tx, ty, min(tx+faintTile, b.Max.X), min(ty+faintTile, b.Max.Y))
			hideFaintIn(g, r)
		}
	}
	return g
}

func hideFaintIn(g *image.Gray, r image.Rectangle) {
	var hist [256]int
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := g.Pix[g.PixOffset(r.Min.X, y):g.PixOffset(r.Max.X, y)]
		for _, v := range row {
			hist[v]++
		}
	}
	bg := 0
	for v := range hist {
		if hist[v] > hist[bg] {
			bg = v
		}
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := g.Pix[g.PixOffset(r.Min.X, y):g.PixOffset(r.Max.X, y)]
		for i, v := range row {
			if d := int(v) - bg; d < MinContrast && d > -MinContrast {
				row[i] = uint8(bg)
			}
		}
	}
}

// Visible is an image file (PNG: a canvas's screenshot) as Read should
// get it: grey, with text too close to its background erased (HideFaint),
// as a PGM.
func Visible(file []byte) ([]byte, error) {
	g, err := VisibleGray(file)
	if err != nil {
		return nil, err
	}
	return PGM(g), nil
}

// VisibleGray is Visible's grey image, for ReadImage.
func VisibleGray(file []byte) (*image.Gray, error) {
	img, _, err := image.Decode(bytes.NewReader(file))
	if err != nil {
		return nil, fmt.Errorf("ocr: the image cannot be decoded: %v", err)
	}
	return HideFaint(GrayOf(img)), nil
}
