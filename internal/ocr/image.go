package ocr

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	_ "image/png" // canvas screenshots
)

// GrayOf is img's luminance (color.GrayModel's weights, on 8-bit levels
// for RGBA and NRGBA). A grey image is copied, an RGBA or NRGBA one (the
// PNG decoder's) weighted row by row: the per-pixel colour conversion
// took 12 ms of a 1800 × 1120 grey canvas.
func GrayOf(img image.Image) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		o := out.Pix[y*out.Stride : y*out.Stride+b.Dx()]
		switch m := img.(type) {
		case *image.Gray:
			copy(o, m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		case *image.RGBA:
			lumaRow(o, m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		case *image.NRGBA:
			nrgbaRow(o, m, b.Min.X, b.Min.Y+y)
		default:
			grayRow(o, img, b.Min.X, b.Min.Y+y)
		}
	}
	return out
}

// lumaRow weights a row of RGBA pixels into o.
func lumaRow(o, px []uint8) {
	for x, i := 0, 0; x < len(o); x, i = x+1, i+4 {
		o[x] = luma(px[i], px[i+1], px[i+2])
	}
}

// nrgbaRow is lumaRow for m's row y from x0 on, each pixel as the RGBA
// one it is (premultiplied: the same where opaque).
func nrgbaRow(o []uint8, m *image.NRGBA, x0, y int) {
	px := m.Pix[m.PixOffset(x0, y):]
	for x := range o {
		p := px[4*x : 4*x+4]
		if p[3] != 255 {
			c := color.RGBAModel.Convert(m.NRGBAAt(x0+x, y)).(color.RGBA)
			p = []uint8{c.R, c.G, c.B}
		}
		o[x] = luma(p[0], p[1], p[2])
	}
}

// grayRow converts row y of img from x0 on, a pixel at a time.
func grayRow(o []uint8, img image.Image, x0, y int) {
	for x := range o {
		o[x] = color.GrayModel.Convert(img.At(x0+x, y)).(color.Gray).Y
	}
}

// luma is color.GrayModel's weighting of 8-bit RGB.
func luma(r, g, b uint8) uint8 {
	return uint8((19595*uint32(r) + 38470*uint32(g) + 7471*uint32(b) + 1<<15) >> 16)
}

// bmpHead is the size of an 8-bit BMP's file and info headers and its
// 256-entry grey palette.
const bmpHead = 14 + 40 + 256*4

// BMP encodes g as an uncompressed 8-bit BMP with a grey palette, the
// image Tesseract reads fastest: Leptonica reads a BMP's rows whole (some
// 15–25 ms for a 300 dpi page) but a PGM's a byte at a time (185–190 ms,
// a fifth of Tesseract's time on the page), and a PNG must be compressed
// and inflated. Rows bottom-up, each padded to 4 bytes.
func BMP(g *image.Gray) []byte {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	stride := (w + 3) &^ 3
	out := make([]byte, bmpHead+stride*h)
	le := binary.LittleEndian
	copy(out, "BM")
	le.PutUint32(out[2:], uint32(len(out)))
	le.PutUint32(out[10:], bmpHead)
	info := out[14:]
	le.PutUint32(info[0:], 40)
	le.PutUint32(info[4:], uint32(w))
	le.PutUint32(info[8:], uint32(h))
	le.PutUint16(info[12:], 1) // planes
	le.PutUint16(info[14:], 8) // bits a pixel
	le.PutUint32(info[20:], uint32(stride*h))
	le.PutUint32(info[32:], 256) // colours in the palette
	pal := out[54:bmpHead]
	for i := range 256 {
		pal[4*i], pal[4*i+1], pal[4*i+2] = byte(i), byte(i), byte(i)
	}
	for y := range h {
		i := g.PixOffset(b.Min.X, b.Min.Y+y)
		o := bmpHead + (h-1-y)*stride
		copy(out[o:o+w], g.Pix[i:i+w])
	}
	return out
}

// Despeckle puts g, in place, through a 3×3 median filter and returns
// g: a scan's specks and grain go, strokes two pixels wide or more stay.
// Without it Tesseract takes specks beside a word for accents of it, and
// the word's box grows. A pixel five of whose nine neighbours share one
// level has that level as its median, whatever the other four: once
// HideFaint has levelled a page's background that is most of a page, and
// it is counted for eight pixels at a time in a machine word (medianRun),
// so only pixels near ink are sorted. The rows above the one being
// written are kept as they were in two rows' room (no second page buffer).
func Despeckle(g *image.Gray) *image.Gray {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return g
	}
	row := func(y int) []uint8 {
		i := g.PixOffset(b.Min.X, b.Min.Y+y)
		return g.Pix[i : i+w : i+w]
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
		medianRow(row(y), up, here, down)
		above, here = here, above
	}
	return g
}

// medianRow writes into o the 3×3 median of each pixel of row mid (rows
// up and down about it; edges clamped), eight at a time where it can.
func medianRow(o, up, mid, down []uint8) {
	w := len(o)
	for x := 0; x < w; x += 8 {
		end := min(x+8, w)
		if x >= 1 && x+9 <= w {
			done := medianRun(o, up, mid, down, x)
			for i := x; i < end; i, done = i+1, done>>8 {
				if done&0x80 == 0 {
					o[i] = median9(up, mid, down, i)
				}
			}
			continue
		}
		for i := x; i < end; i++ {
			o[i] = median9(up, mid, down, i)
		}
	}
}

const (
	ones = 0x0101010101010101
	lows = 0x7f7f7f7f7f7f7f7f
	tops = 0x8080808080808080
)

// medianRun sets o[x:x+8] to v = mid[x] where at least five of a pixel's
// nine neighbours are v, and returns which (the top bit of each byte, the
// first pixel lowest): the rest still need their median. Columns x-1 to
// x+8 are read eight bytes at a time; each byte counts.
func medianRun(o, up, mid, down []uint8, x int) uint64 {
	v := mid[x]
	vv := uint64(v) * ones
	le := binary.LittleEndian
	u, m, d := up[x-1:x+9:x+9], mid[x-1:x+9:x+9], down[x-1:x+9:x+9]
	u0, u1, u2 := le.Uint64(u[0:]), le.Uint64(u[1:]), le.Uint64(u[2:])
	m0, m1, m2 := le.Uint64(m[0:]), le.Uint64(m[1:]), le.Uint64(m[2:])
	d0, d1, d2 := le.Uint64(d[0:]), le.Uint64(d[1:]), le.Uint64(d[2:])
	if u0 == vv && u2 == vv && m0 == vv && m2 == vv && d0 == vv && d2 == vv {
		return tops // all one level: o already holds it
	}
	// per column, how many of the three rows are v (0–3), summed over
	// the columns left of, at and right of each of the eight pixels
	n := isV(u0, vv) + isV(m0, vv) + isV(d0, vv) +
		isV(u1, vv) + isV(m1, vv) + isV(d1, vv) +
		isV(u2, vv) + isV(m2, vv) + isV(d2, vv) // 0–9 a byte
	done := (n + (0x80-5)*ones) & tops // top bit set where n ≥ 5
	if done == 0 {
		return 0
	}
	if done == tops {
		le.PutUint64(o[x:], vv)
		return done
	}
	for i, d := x, done; i < x+8; i, d = i+1, d>>8 {
		if d&0x80 != 0 {
			o[i] = v
		}
	}
	return done
}

// isV is 1 in each byte of a that equals the byte of vv, else 0.
func isV(a, vv uint64) uint64 {
	t := a ^ vv // zero bytes where equal
	return (^((t&lows + lows) | t) & tops) >> 7
}

// median9 is the median of pixel x's 3×3 neighbourhood (edges clamped):
// the median of the largest low, the middle middle and the smallest high
// of its three columns, each sorted.
func median9(up, mid, down []uint8, x int) uint8 {
	l, r := max(x-1, 0), min(x+1, len(mid)-1)
	a := sort3(int(up[l]), int(mid[l]), int(down[l]))
	c := sort3(int(up[x]), int(mid[x]), int(down[x]))
	e := sort3(int(up[r]), int(mid[r]), int(down[r]))
	return uint8(median3(max(a[0], c[0], e[0]), median3(a[1], c[1], e[1]), min(a[2], c[2], e[2])))
}

// sort3 is a, b, c in order, without branches (min and max of ints are
// conditional moves: on a scan's grain a branch goes either way at random).
func sort3(a, b, c int) [3]int {
	return [3]int{min(a, b, c), median3(a, b, c), max(a, b, c)}
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
	if flatRect(g, r, g.Pix[g.PixOffset(r.Min.X, r.Min.Y)]) {
		return // all one level: nothing near it but itself
	}
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
// as a BMP.
func Visible(file []byte) ([]byte, error) {
	g, err := VisibleGray(file)
	if err != nil {
		return nil, err
	}
	return BMP(g), nil
}

// VisibleGray is Visible's grey image, for ReadImage.
func VisibleGray(file []byte) (*image.Gray, error) {
	img, _, err := image.Decode(bytes.NewReader(file))
	if err != nil {
		return nil, fmt.Errorf("ocr: the image cannot be decoded: %v", err)
	}
	return HideFaint(GrayOf(img)), nil
}
