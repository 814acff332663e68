package ocr

import (
	"encoding/binary"
	"image"
	"math"
	"sort"

	"github.com/sieve-dev/sieve/internal/disjoint"
)

// Text lines found in the pixels, before Tesseract: ink is cut into
// connected components, glyph-sized ones are chained left to right into
// lines, and each line's baseline is fitted. A line at a slant is then
// straightened in Go (tilt.go), so Tesseract reads the canvas once.
const (
	// minGlyph and maxGlyph bound a glyph's height in pixels: 10 px text
	// shot at 2× is 11 px to its x-height; under 4 px is a speck or a
	// downscaled canvas's unreadable text; over 256 px is a shape.
	minGlyph = 4
	maxGlyph = 256
	// linkGap is how far (in the taller glyph's heights) the next glyph
	// of a line may start after one ends: a word space is a third of the
	// font size, an x-height glyph half of it.
	linkGap = 1.2
	// minLineGlyphs is the fewest glyphs a line needs for its slant to
	// be fitted: fewer, and Tesseract reads the word as it is.
	minLineGlyphs = 5
)

// run is a horizontal run of ink pixels in one row of one faintTile
// square, relative to the image's corner: at least MinContrast off bg,
// the square's most common level.
type run struct {
	y, x0, x1 int32 // x1 exclusive
	bg        uint8
}

// comp is a connected component of ink (8-connected runs).
type comp struct {
	x0, y0, x1, y1 int // bounding box, ends exclusive
	n              int // pixels
	bg             uint8
	line           int // the tilted line it is part of, or -1
}

func (c comp) w() int { return c.x1 - c.x0 }
func (c comp) h() int { return c.y1 - c.y0 }

// glyph reports whether c can be a letter: not too small or tall, not a
// rule or a bar (filled, wider than tall) nor far wider than tall.
func (c comp) glyph() bool {
	w, h := c.w(), c.h()
	if h < minGlyph || h > maxGlyph || w > 8*h {
		return false
	}
	return w <= h || 10*c.n <= 8*w*h
}

// inkRuns are g's ink runs, row by row, left to right. A square all of
// one level (most of a canvas) is passed over whole, and a square's rows
// eight pixels at a time where they are all its level.
func inkRuns(g *image.Gray) []run {
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	cols := (w + faintTile - 1) / faintTile
	bgs, flat := make([]uint8, cols), make([]bool, cols)
	var runs []run
	for ty := 0; ty < h; ty += faintTile {
		for c := range cols {
			r := image.Rect(c*faintTile, ty, min((c+1)*faintTile, w), min(ty+faintTile, h)).Add(b.Min)
			lv, one := levelOf(g, r)
			bgs[c], flat[c] = uint8(lv), one
		}
		for y := ty; y < min(ty+faintTile, h); y++ {
			row := g.Pix[g.PixOffset(b.Min.X, b.Min.Y+y):][:w]
			for c := range cols {
				if !flat[c] {
					runs = rowRuns(runs, row, int32(y), c*faintTile, min((c+1)*faintTile, w), bgs[c])
				}
			}
		}
	}
	return runs
}

// rowRuns appends the ink runs of row[x0:x1] on background bg.
func rowRuns(runs []run, row []uint8, y int32, x0, x1 int, bg uint8) []run {
	flat := uint64(bg) * ones
	for x := x0; x < x1; {
		if x+8 <= x1 && binary.LittleEndian.Uint64(row[x:]) == flat {
			x += 8
			continue
		}
		if !isInk(row[x], bg) {
			x++
			continue
		}
		start := x
		for x < x1 && isInk(row[x], bg) {
			x++
		}
		runs = append(runs, run{y: y, x0: int32(start), x1: int32(x), bg: bg})
	}
	return runs
}

func isInk(v, bg uint8) bool {
	d := int(v) - int(bg)
	return d >= MinContrast || d <= -MinContrast
}

// levelOf is the most common level in r, and whether r is all of it.
func levelOf(g *image.Gray, r image.Rectangle) (int, bool) {
	v0 := g.Pix[g.PixOffset(r.Min.X, r.Min.Y)]
	if flatRect(g, r, v0) {
		return int(v0), true
	}
	return mostCommon(g, r, 1), false
}

// flatRect reports whether every pixel of r is v, eight at a time.
func flatRect(g *image.Gray, r image.Rectangle, v uint8) bool {
	vv := uint64(v) * ones
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := g.Pix[g.PixOffset(r.Min.X, y):g.PixOffset(r.Max.X, y)]
		x := 0
		for ; x+8 <= len(row); x += 8 {
			if binary.LittleEndian.Uint64(row[x:]) != vv {
				return false
			}
		}
		for ; x < len(row); x++ {
			if row[x] != v {
				return false
			}
		}
	}
	return true
}

// components joins runs that touch (8-connected, and side by side across
// a square's edge) and returns each run's component and the components.
func components(runs []run) ([]int, []comp) {
	sets := disjoint.New(len(runs))
	// the row above's runs are runs[lo:cur]; lo moves past those that
	// end left of this run (a row's runs go left to right)
	lo, cur := 0, 0
	for i, r := range runs {
		if i > 0 && runs[i-1].y != r.y {
			lo, cur = cur, i
			if runs[lo].y != r.y-1 {
				lo = cur // no ink in the row just above
			}
		}
		if i > cur && runs[i-1].x1 == r.x0 {
			sets.Union(i-1, i)
		}
		for lo < cur && runs[lo].x1 < r.x0 {
			lo++
		}
		for j := lo; j < cur && runs[j].x0 <= r.x1; j++ {
			sets.Union(j, i)
		}
	}
	return label(runs, sets)
}

// label numbers the components (in order of their first run) and
// measures them.
func label(runs []run, sets disjoint.Sets) ([]int, []comp) {
	of := make([]int, len(runs))
	var comps []comp
	for i, r := range runs {
		// a root is its component's first run: labelled before the rest
		root := sets.Find(i)
		k := of[root]
		if root == i {
			k = len(comps)
			comps = append(comps, comp{x0: int(r.x0), y0: int(r.y), x1: int(r.x1), y1: int(r.y) + 1, bg: r.bg, line: -1})
		}
		of[i] = k
		c := &comps[k]
		c.x0, c.x1 = min(c.x0, int(r.x0)), max(c.x1, int(r.x1))
		c.y1 = max(c.y1, int(r.y)+1)
		c.n += int(r.x1 - r.x0)
	}
	return of, comps
}

// chains links each glyph to the nearest glyph starting after it on its
// right (within linkGap, overlapping it by half the shorter one's height,
// at most four times as tall) and returns the chains of linked glyphs, each left to right.
func chains(comps []comp) [][]int {
	var gl []int
	for i, c := range comps {
		if c.glyph() {
			gl = append(gl, i)
		}
	}
	sort.SliceStable(gl, func(a, b int) bool { return comps[gl[a]].x0 < comps[gl[b]].x0 })
	sets := disjoint.New(len(gl))
	for a := range gl {
		if b := nextGlyph(comps, gl, a); b >= 0 {
			sets.Union(a, b)
		}
	}
	groups := map[int][]int{}
	var roots []int
	for a := range gl {
		r := sets.Find(a)
		if len(groups[r]) == 0 {
			roots = append(roots, r)
		}
		groups[r] = append(groups[r], gl[a])
	}
	out := make([][]int, 0, len(roots))
	for _, r := range roots {
		out = append(out, groups[r])
	}
	// top to bottom (by the first glyph's top), so tilted lines are laid
	// out in the band in reading order
	sort.SliceStable(out, func(a, b int) bool { return comps[out[a][0]].y0 < comps[out[b][0]].y0 })
	return out
}

// nextGlyph is the index in gl (sorted by left edge) of the glyph that
// follows gl[a] on its line, or -1.
func nextGlyph(comps []comp, gl []int, a int) int {
	c := comps[gl[a]]
	best, bestGap := -1, math.MaxInt
	reach := c.x1 + int(linkGap*4*float64(c.h()))
	for b := a + 1; b < len(gl) && comps[gl[b]].x0 <= reach; b++ {
		d := comps[gl[b]]
		lo, hi := min(c.h(), d.h()), max(c.h(), d.h())
		gap := d.x0 - c.x1
		overlap := min(c.y1, d.y1) - max(c.y0, d.y0)
		if hi > 4*lo || 2*overlap < lo || float64(gap) > linkGap*float64(hi) || 2*gap < -min(c.w(), d.w()) {
			continue
		}
		if gap < bestGap {
			best, bestGap = b, gap
		}
	}
	return best
}

// textLine is a chain of glyphs with its fitted baseline.
type textLine struct {
	glyphs []int   // components
	slope  float64 // the baseline's dy/dx
	h      float64 // the glyphs' median height
}

// fitLine fits the baseline of a chain: least squares through the
// bottoms of its glyphs of at least 0.6 of the median height (not dots
// or commas), twice leaving out those off it by more than an eighth of
// the median height (descenders). ok is false for a chain too short, or
// too few glyphs on one baseline, to tell a slant.
func fitLine(comps []comp, glyphs []int) (textLine, bool) {
	l := textLine{glyphs: glyphs}
	if len(glyphs) < minLineGlyphs {
		return l, false
	}
	hs := make([]float64, len(glyphs))
	for i, k := range glyphs {
		hs[i] = float64(comps[k].h())
	}
	sort.Float64s(hs)
	l.h = hs[len(hs)/2]
	var xs, ys []float64
	for _, k := range glyphs {
		if c := comps[k]; float64(c.h()) >= 0.6*l.h {
			xs, ys = append(xs, float64(c.x0+c.x1)/2), append(ys, float64(c.y1))
		}
	}
	for range 3 {
		if len(xs) < minLineGlyphs-1 || spread(xs) < minSpan(l.h) {
			return l, false
		}
		a, s := leastSquares(xs, ys)
		l.slope = s
		xs, ys = onLine(xs, ys, a, s, math.Max(l.h/8, 1.5))
	}
	return l, len(xs) >= minLineGlyphs-1
}

// minSpan is the least length (pixels, between the first and the last
// glyph's middles) over which a baseline's slant is told: three text
// heights, and no less than two pixels' step at minTilt (153 px), lest a
// short level word whose round letters overshoot the baseline by a pixel
// be taken for a tilted one. A shorter line steps little enough across
// its length for Tesseract to read it as it is.
func minSpan(h float64) float64 {
	return math.Max(3*h, 2/math.Tan(minTilt))
}

// spread is the distance between the least and the greatest of xs.
func spread(xs []float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return hi - lo
}

// leastSquares fits y = a + s·x.
func leastSquares(xs, ys []float64) (a, s float64) {
	var sx, sy, sxx, sxy float64
	n := float64(len(xs))
	for i, x := range xs {
		sx, sy, sxx, sxy = sx+x, sy+ys[i], sxx+x*x, sxy+x*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return sy / n, 0
	}
	s = (n*sxy - sx*sy) / d
	return (sy - s*sx) / n, s
}

// onLine keeps the points within tol of y = a + s·x.
func onLine(xs, ys []float64, a, s, tol float64) ([]float64, []float64) {
	var kx, ky []float64
	for i, x := range xs {
		if math.Abs(ys[i]-a-s*x) <= tol {
			kx, ky = append(kx, x), append(ky, ys[i])
		}
	}
	return kx, ky
}

// findTilted finds g's lines of text whose baselines slant by minTilt to
// maxTilt: g's runs, their components, the components, and the lines.
func findTilted(g *image.Gray) ([]run, []int, []comp, []textLine) {
	runs := inkRuns(g)
	of, comps := components(runs)
	return runs, of, comps, tiltedOf(comps)
}

// tiltedOf chains comps into lines and returns those whose baselines
// slant by minTilt to maxTilt, marking their glyphs' line in comps.
func tiltedOf(comps []comp) []textLine {
	var out []textLine
	for _, ch := range chains(comps) {
		l, ok := fitLine(comps, ch)
		if a := math.Abs(math.Atan(l.slope)); !ok || a < minTilt || a > maxTilt {
			continue
		}
		for _, k := range ch {
			comps[k].line = len(out)
		}
		out = append(out, l)
	}
	return out
}
