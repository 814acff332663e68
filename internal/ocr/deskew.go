package ocr

import (
	"encoding/binary"
	"image"
	"math"
)

// Page deskew. Tesseract's page layout (--psm 3) deskews a page it reads,
// but a scan turned by a few degrees can defeat it: a noisy 200 dpi page
// skewed 3° read as its heading alone, its paragraphs taken for a
// picture. So a scanned page's skew is measured first, and a page turned
// by MinDeskew or more is turned straight before it is read.
const (
	// maxSkew is the largest skew looked for, each way; skewStep the
	// finest step it is measured to.
	maxSkew  = 6.0
	skewStep = 0.1
	// MinDeskew is the least skew (degrees) that is corrected: under it
	// Tesseract reads a page as it is. From the word accuracy of
	// Tesseract alone on scans skewed 0.5–3°, as they are and
	// straightened (capture's BenchmarkScanDeskewAccuracy, docs/BENCH.md):
	// straightening gains words from 0.5° at 150 dpi and from 1° at 200
	// and 300 dpi; Tesseract's own deskew loses 5 % of words at 2° (150,
	// 200 dpi) and a third or more at 2.5°.
	MinDeskew = 0.5
	// skewSample is the length, in pixels, of the runs along a row whose
	// darkest pixel stands for them when the skew is measured, skewRows
	// the rows apart they are taken from, skewBin the rows a band of the
	// projection sums (as many as skewRows: finer bands would be empty
	// or full by the sampling alone at a level angle).
	skewSample = 8
	skewRows   = 2
	skewBin    = 2
)

// Skew is the angle (degrees, counter-clockwise: the page's lines rise to
// the right) by which a page's lines of text are turned: the angle whose
// projection of the ink onto the vertical has the sharpest peaks (the
// largest sum of squared row counts; the smaller angle on a tie), coarse
// to fine.
func Skew(g *image.Gray) float64 {
	pts := inkPoints(g)
	if len(pts) == 0 {
		return 0
	}
	h := g.Bounds().Dy()
	w := g.Bounds().Dx()
	rows := make([]int32, (h+w)/skewBin+2)
	best := 0.0
	for step := 1.0; step >= skewStep-1e-9; step /= 10 {
		lo, hi := best-10*step, best+10*step
		if step == 1.0 {
			lo, hi = -maxSkew, maxSkew
		}
		score, at := -1.0, best
		for k := 0; lo+float64(k)*step <= hi+1e-9; k++ {
			a := math.Round((lo+float64(k)*step)/skewStep) * skewStep
			if s := sharpness(pts, w, rows, a); s > score || s == score && math.Abs(a) < math.Abs(at) {
				score, at = s, a
			}
		}
		best = at
	}
	return best
}

// inkPoints are the runs of skewSample pixels along every skewRows-th row
// of g whose darkest pixel is MinContrast darker than the page's most
// common level, as pixel coordinates (x, y) packed in pairs: a sample of
// the ink (a sixteenth of it) is as good a measure of its rows' angle,
// and the projection (sharpness) costs as many points.
func inkPoints(g *image.Gray) []int32 {
	bg := background(g)
	b := g.Bounds()
	var pts []int32
	for y := b.Min.Y; y < b.Max.Y; y += skewRows {
		row := g.Pix[g.PixOffset(b.Min.X, y):g.PixOffset(b.Max.X, y)]
		for x := 0; x < len(row); x += skewSample {
			dark := 255
			for _, v := range row[x:min(x+skewSample, len(row))] {
				dark = min(dark, int(v))
			}
			if bg-dark >= MinContrast {
				pts = append(pts, int32(x), int32(y-b.Min.Y))
			}
		}
	}
	return pts
}

// sharpness is the sum of squared counts of ink points per band of
// skewBin rows once the points are turned clockwise by deg degrees
// (undoing a skew of deg), on a page w pixels wide; rows is scratch.
// Fixed point (16 bits of fraction): the same count for every angle,
// without a float a point.
func sharpness(pts []int32, w int, rows []int32, deg float64) float64 {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	s16, c16 := int64(math.Round(sin*65536)), int64(math.Round(cos*65536))
	// the least turned row: a point at x = w on the left-going side
	off := int64(0)
	if s16 < 0 {
		off = -s16 * int64(w)
	}
	clear(rows)
	div := int64(skewBin) << 16
	for i := 0; i < len(pts); i += 2 {
		r := (int64(pts[i+1])*c16 + int64(pts[i])*s16 + off) / div
		rows[r]++
	}
	s := 0.0
	for _, n := range rows {
		s += float64(n) * float64(n)
	}
	return s
}

// Straightened is g turned clockwise by skew degrees about its centre
// (undoing a counter-clockwise skew), bilinear (8-bit weights, fixed
// point), with the page's most common level where no pixel of g falls.
// A run of 8 pixels drawn from squares of g that are all one level is
// that level (what the sum gives): most of a despeckled page.
func Straightened(g *image.Gray, skew float64) *image.Gray {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	bg := uint8(background(g))
	flat := flatTiles(g)
	sin, cos := math.Sincos(skew * math.Pi / 180)
	const one = 1 << 16
	dx, dy := int64(math.Round(cos*one)), int64(math.Round(-sin*one))
	for y := range h {
		o := out.Pix[y*out.Stride : y*out.Stride+w]
		// the row's first source point (relative to g's corner), then
		// cos, -sin a pixel
		sx, sy := unskew(0, float64(y), skew, float64(w)/2, float64(h)/2)
		fx, fy := int64(math.Round(sx*one)), int64(math.Round(sy*one))
		for x := 0; x < w; x += 8 {
			n := min(8, w-x)
			if v, ok := flat.level(fx, fy, fx+int64(n-1)*dx, fy+int64(n-1)*dy); ok {
				fill(o[x:x+n], v)
			} else {
				sampleRun(g, o[x:x+n], fx, fy, dx, dy, bg)
			}
			fx, fy = fx+int64(n)*dx, fy+int64(n)*dy
		}
	}
	return out
}

// fill sets o to v: eight bytes at a time when o is eight long, by
// doubling copies when it is long.
func fill(o []uint8, v uint8) {
	switch {
	case len(o) == 8:
		binary.LittleEndian.PutUint64(o, uint64(v)*ones)
	case len(o) > 64:
		o[0] = v
		for n := 1; n < len(o); n *= 2 {
			copy(o[n:], o[:n])
		}
	default:
		for i := range o {
			o[i] = v
		}
	}
}

// sampleRun fills o with g's bilinear levels from (fx, fy) on, a step
// (dx, dy) a pixel (16.16 fixed point, relative to g's corner).
func sampleRun(g *image.Gray, o []uint8, fx, fy, dx, dy int64, bg uint8) {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	base := g.PixOffset(b.Min.X, b.Min.Y)
	for x := range o {
		x0, y0 := int(fx>>16), int(fy>>16)
		if uint(x0) < uint(w-1) && uint(y0) < uint(h-1) {
			// inside: sampleFixed's sum, inline
			i := base + y0*g.Stride + x0
			ax, ay := uint32(fx>>8)&255, uint32(fy>>8)&255
			top := uint32(g.Pix[i])*(256-ax) + uint32(g.Pix[i+1])*ax
			bot := uint32(g.Pix[i+g.Stride])*(256-ax) + uint32(g.Pix[i+g.Stride+1])*ax
			o[x] = uint8((top*(256-ay) + bot*ay + 1<<15) >> 16)
		} else {
			o[x] = sampleFixed(g, fx, fy, bg)
		}
		fx, fy = fx+dx, fy+dy
	}
}

// tileSide is the side of the squares flatTiles marks.
const tileSide = 16

// tiles marks which tileSide squares of an image are all one level.
type tiles struct {
	lv   []int16 // each square's level, or -1
	cols int
	w, h int // the image's size
}

// flatTiles marks g's squares that are all one level.
func flatTiles(g *image.Gray) tiles {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	t := tiles{cols: (w + tileSide - 1) / tileSide, w: w, h: h}
	t.lv = make([]int16, t.cols*((h+tileSide-1)/tileSide))
	for i := range t.lv {
		ty, tx := i/t.cols, i%t.cols
		x0, y0 := b.Min.X+tx*tileSide, b.Min.Y+ty*tileSide
		v := g.Pix[g.PixOffset(x0, y0)]
		t.lv[i] = int16(v)
		for y := y0; y < min(y0+tileSide, b.Max.Y) && t.lv[i] >= 0; y++ {
			for _, p := range g.Pix[g.PixOffset(x0, y):g.PixOffset(min(x0+tileSide, b.Max.X), y)] {
				if p != v {
					t.lv[i] = -1
					break
				}
			}
		}
	}
	return t
}

// level is the one level of the squares under the pixels a bilinear run
// from (x0, y0) to (x1, y1) reads (16.16 fixed point), if they have one;
// false too when the run reads off the image.
func (t tiles) level(x0, y0, x1, y1 int64) (uint8, bool) {
	lx, hx := int(min(x0, x1)>>16), int(max(x0, x1)>>16)+1
	ly, hy := int(min(y0, y1)>>16), int(max(y0, y1)>>16)+1
	if lx < 0 || ly < 0 || hx >= t.w || hy >= t.h {
		return 0, false
	}
	v := int16(-1)
	for ty := ly / tileSide; ty <= hy/tileSide; ty++ {
		for tx := lx / tileSide; tx <= hx/tileSide; tx++ {
			l := t.lv[ty*t.cols+tx]
			if l < 0 || v >= 0 && l != v {
				return 0, false
			}
			v = l
		}
	}
	return uint8(v), true
}

// sampleFixed is g's bilinear level at (x, y) in 16.16 fixed point,
// relative to g's corner; bg outside g.
func sampleFixed(g *image.Gray, x, y int64, bg uint8) uint8 {
	b := g.Bounds()
	x0, y0 := int(x>>16), int(y>>16)
	ax, ay := uint32(x>>8)&255, uint32(y>>8)&255
	var p00, p01, p10, p11 uint32
	if x0 >= 0 && y0 >= 0 && x0+1 < b.Dx() && y0+1 < b.Dy() {
		i := g.PixOffset(b.Min.X+x0, b.Min.Y+y0)
		p00, p01, p10, p11 = uint32(g.Pix[i]), uint32(g.Pix[i+1]), uint32(g.Pix[i+g.Stride]), uint32(g.Pix[i+g.Stride+1])
	} else {
		at := func(x, y int) uint32 {
			if x < 0 || y < 0 || x >= b.Dx() || y >= b.Dy() {
				return uint32(bg)
			}
			return uint32(g.Pix[g.PixOffset(b.Min.X+x, b.Min.Y+y)])
		}
		p00, p01, p10, p11 = at(x0, y0), at(x0+1, y0), at(x0, y0+1), at(x0+1, y0+1)
	}
	top := p00*(256-ax) + p01*ax
	bot := p10*(256-ax) + p11*ax
	return uint8((top*(256-ay) + bot*ay + 1<<15) >> 16)
}

// unskew maps a point of the straightened page back to the skewed one
// (centre cx, cy).
func unskew(x, y, skew, cx, cy float64) (float64, float64) {
	sin, cos := math.Sincos(skew * math.Pi / 180)
	dx, dy := x-cx, y-cy
	return cx + dx*cos + dy*sin, cy - dx*sin + dy*cos
}

// Unskew maps a box read on Straightened(g, skew) (g w×h pixels; the box
// in the read's units, scale pixels each) back onto g: the same size about
// its middle mapped back. The box around its turned corners would be
// wider, and overlap the next word's, and the layout would run the two
// words together.
func Unskew(bx Box, skew float64, w, h int, scale float64) Box {
	x, y := unskew(bx.X+bx.W/2, bx.Y+bx.H/2, skew, float64(w)/2/scale, float64(h)/2/scale)
	return Box{X: x - bx.W/2, Y: y - bx.H/2, W: bx.W, H: bx.H}
}
