package ocr

import (
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
	// Tesseract reads a page as it is.
	MinDeskew = 0.5
	// skewSample is the length, in pixels, of the runs along a row whose
	// darkest pixel stands for them when the skew is measured.
	skewSample = 4
)

// Skew is the angle (degrees, counter-clockwise: the page's lines rise to
// the right) by which a page's lines of text are turned: the angle whose
// projection of the ink onto the vertical has the sharpest peaks (the
// largest sum of squared row counts; the smaller angle on a tie), coarse
// to fine.
func Skew(g *image.Gray) float64 {
	xs, ys := inkPoints(g)
	if len(xs) == 0 {
		return 0
	}
	best := 0.0
	for step := 1.0; step >= skewStep-1e-9; step /= 10 {
		lo, hi := best-10*step, best+10*step
		if step == 1.0 {
			lo, hi = -maxSkew, maxSkew
		}
		score, at := -1.0, best
		for k := 0; lo+float64(k)*step <= hi+1e-9; k++ {
			a := math.Round((lo+float64(k)*step)/skewStep) * skewStep
			if s := sharpness(xs, ys, a); s > score || s == score && math.Abs(a) < math.Abs(at) {
				score, at = s, a
			}
		}
		best = at
	}
	return best
}

// inkPoints are the runs of skewSample pixels along a row of g whose
// darkest pixel is MinContrast darker than the page's most common level,
// as pixel coordinates (rows stay one pixel tall: the peaks of the
// projection are as sharp as the text's rows).
func inkPoints(g *image.Gray) (xs, ys []float64) {
	bg := background(g)
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := g.Pix[g.PixOffset(b.Min.X, y):g.PixOffset(b.Max.X, y)]
		for x := 0; x < len(row); x += skewSample {
			dark := 255
			for _, v := range row[x:min(x+skewSample, len(row))] {
				dark = min(dark, int(v))
			}
			if bg-dark >= MinContrast {
				xs, ys = append(xs, float64(x)), append(ys, float64(y-b.Min.Y))
			}
		}
	}
	return xs, ys
}

// sharpness is the sum of squared counts of ink points per row once the
// points are turned clockwise by deg degrees (undoing a skew of deg).
func sharpness(xs, ys []float64, deg float64) float64 {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range xs {
		r := ys[i]*cos + xs[i]*sin
		lo, hi = math.Min(lo, r), math.Max(hi, r)
	}
	rows := make([]int, int(hi-lo)+2)
	for i := range xs {
		rows[int(ys[i]*cos+xs[i]*sin-lo)]++
	}
	s := 0.0
	for _, n := range rows {
		s += float64(n) * float64(n)
	}
	return s
}

// Straightened is g turned clockwise by skew degrees about its centre
// (undoing a counter-clockwise skew), bilinear, with the page's most
// common level where no pixel of g falls.
func Straightened(g *image.Gray, skew float64) *image.Gray {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	bg := uint8(background(g))
	sin, cos := math.Sincos(skew * math.Pi / 180)
	for y := range h {
		o := out.Pix[y*out.Stride : y*out.Stride+w]
		// the row's first source point, then cos, -sin a pixel
		sx, sy := unskew(0, float64(y), skew, float64(w)/2, float64(h)/2)
		sx, sy = sx+float64(b.Min.X), sy+float64(b.Min.Y)
		for x := range w {
			o[x] = sample(g, sx+float64(x)*cos, sy-float64(x)*sin, bg)
		}
	}
	return out
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
