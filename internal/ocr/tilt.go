package ocr

import (
	"cmp"
	"context"
	"image"
	"math"
	"sort"
)

// Tilted lines. Sparse-text mode (--psm 11, a canvas's scattered labels)
// finds lines as runs of glyphs at one height and does not deskew: a line
// turned by a few degrees is cut where it steps a row ("Northern depo" /
// "t shipped …") and its letters are misread ("average", "dayS").
// Tesseract's own deskew is page-wide (--psm 3) and fails on lines turned
// different ways. So each row of lines that runs at a slant is cut out
// along its slant, straightened, and read again; the straight reads of all
// such rows are one Tesseract run (the strips stacked in one image).
const (
	// minTilt and maxTilt bound the slant of a row that is straightened:
	// under minTilt Tesseract reads it as it is; over maxTilt the text is
	// set at an angle on purpose (an axis title), not tilted.
	minTilt = 0.75 * math.Pi / 180
	maxTilt = 10 * math.Pi / 180
	// rowGap is how far (in text heights) the next line of a row may
	// start after the end of the one before, at the same height.
	rowGap = 1.0
)

// row is the lines sparse-text mode found along one slanted line of text.
type row struct {
	lines []int   // indexes into the read's lines, left to right
	words []Word  // their words, left to right
	slope float64 // dy/dx of the words' middles
	h     float64 // the text's height across the slant
}

// ReadImage reads a grey image as Read does (o.Scale, o.PSM …), and in
// sparse-text mode reads again, straightened, each row of text that runs
// at a slant of minTilt to maxTilt.
func ReadImage(ctx context.Context, g *image.Gray, o Options) (*Result, error) {
	px := o
	px.Scale = 1
	res, err := Read(ctx, BMP(g), px)
	if err != nil {
		return nil, err
	}
	if cmp.Or(o.PSM, 11) == 11 {
		if rows := tiltedRows(res.Lines); len(rows) > 0 {
			if err := straighten(ctx, g, res, rows, px); err != nil {
				return nil, err
			}
		}
	}
	rescale(res, o.Scale)
	return res, nil
}

// tiltedRows chains lines into rows (the next line starts within rowGap
// text heights of the end of the one before, overlapping it vertically)
// and returns the rows of two words or more at a slant within bounds.
func tiltedRows(lines []Line) []row {
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return lines[order[a]].Box.X < lines[order[b]].Box.X })
	used := make([]bool, len(lines))
	var out []row
	for _, i := range order {
		if used[i] {
			continue
		}
		used[i] = true
		r := row{lines: []int{i}, words: append([]Word(nil), lines[i].Words...)}
		for {
			j := nextInRow(lines, order, used, r.words[len(r.words)-1])
			if j < 0 {
				break
			}
			used[j] = true
			r.lines = append(r.lines, j)
			r.words = append(r.words, lines[j].Words...)
		}
		if len(r.words) < 2 {
			continue
		}
		r.slope = slope(r.words)
		if a := math.Abs(math.Atan(r.slope)); a < minTilt || a > maxTilt {
			continue
		}
		r.h = textHeight(r.words, r.slope)
		out = append(out, r)
	}
	return out
}

// nextInRow is the unused line whose first word starts nearest after
// last, within rowGap of its height and overlapping it vertically; -1
// when none.
func nextInRow(lines []Line, order []int, used []bool, last Word) int {
	best, bestX := -1, math.Inf(1)
	end := last.Box.X + last.Box.W
	for _, j := range order {
		if used[j] {
			continue
		}
		f := lines[j].Words[0].Box
		gap := f.X - end
		overlap := math.Min(f.Y+f.H, last.Box.Y+last.Box.H) - math.Max(f.Y, last.Box.Y)
		if gap < -0.25*last.Box.H || gap > rowGap*last.Box.H || overlap < 0.3*math.Min(f.H, last.Box.H) {
			continue
		}
		if f.X < bestX {
			best, bestX = j, f.X
		}
	}
	return best
}

// slope is the least-squares dy/dx of the words' middles.
func slope(ws []Word) float64 {
	var sx, sy, sxx, sxy float64
	n := float64(len(ws))
	for _, w := range ws {
		x, y := w.Box.X+w.Box.W/2, w.Box.Y+w.Box.H/2
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

// textHeight is the median height of the words across the slant: a word
// box w wide turned by θ is h·cos θ + w·sin θ tall.
func textHeight(ws []Word, slope float64) float64 {
	th := math.Atan(slope)
	sin, cos := math.Abs(math.Sin(th)), math.Cos(th)
	hs := make([]float64, len(ws))
	for i, w := range ws {
		hs[i] = math.Max((w.Box.H-w.Box.W*sin)/cos, 0.3*w.Box.H)
	}
	sort.Float64s(hs)
	return hs[len(hs)/2]
}

// strip is a row cut out along its slant: strip pixel (u, v) is image
// point o + u·dir + v·nrm.
type strip struct {
	ox, oy float64 // image point of the strip's top left
	dx, dy float64 // unit vector along the row
	w, h   int
	top    int // the strip's first row in the stacked image
}

// at maps strip pixel (u, v) to the image.
func (s strip) at(u, v float64) (float64, float64) {
	return s.ox + u*s.dx - v*s.dy, s.oy + u*s.dy + v*s.dx
}

// cut lays out row r as a strip along the line through its words'
// middles, 1.6 text heights across: from the first word to the last, then
// on each end as far as ink goes on along the slant (a word the first read
// missed), plus half a text height.
func cut(g *image.Gray, bg uint8, r row) strip {
	th := math.Atan(r.slope)
	dx, dy := math.Cos(th), math.Sin(th)
	x0, x1 := math.Inf(1), math.Inf(-1)
	var sx, sy float64
	for _, w := range r.words {
		x0, x1 = math.Min(x0, w.Box.X), math.Max(x1, w.Box.X+w.Box.W)
		sx, sy = sx+w.Box.X+w.Box.W/2, sy+w.Box.Y+w.Box.H/2
	}
	n := float64(len(r.words))
	mx, my := sx/n, sy/n // a point on the middle line
	across := 1.6 * r.h
	// the strip from the middle line at x0, before any extension
	cx, cy := x0, my+(x0-mx)*r.slope
	s := strip{ox: cx + across/2*dy, oy: cy - across/2*dx, dx: dx, dy: dy, h: int(math.Ceil(across))}
	u0, u1 := -s.inkBefore(g, bg, 0, -1, r.h), (x1-x0)/dx
	u1 += s.inkBefore(g, bg, u1, 1, r.h)
	u0 -= 0.5 * r.h
	s.ox, s.oy = s.at(u0, 0)
	s.w = int(math.Ceil(u1 + 0.5*r.h - u0))
	return s
}

// inkBefore is how far from u, going step (±1) along the strip, ink goes
// on with gaps shorter than gap: columns of the strip's middle text height
// with a pixel MinContrast off bg.
func (s strip) inkBefore(g *image.Gray, bg uint8, u, step, gap float64) float64 {
	last, b := 0.0, g.Bounds()
	for d := 1.0; d-last <= gap; d++ {
		x, y := s.at(u+step*d, float64(s.h)/2)
		if x < float64(b.Min.X) || y < float64(b.Min.Y) || x >= float64(b.Max.X) || y >= float64(b.Max.Y) {
			break
		}
		if s.inkAt(g, bg, u+step*d, gap) {
			last = d
		}
	}
	return last
}

// inkAt reports a pixel MinContrast off bg in the strip's column u, within
// h/2 of its middle.
func (s strip) inkAt(g *image.Gray, bg uint8, u, h float64) bool {
	for v := float64(s.h)/2 - h/2; v <= float64(s.h)/2+h/2; v++ {
		x, y := s.at(u, v)
		if d := int(sample(g, x, y, bg)) - int(bg); d >= MinContrast || d <= -MinContrast {
			return true
		}
	}
	return false
}

// holds reports whether image point (x, y) lies in the strip's middle
// text height.
func (s strip) holds(x, y, h float64) bool {
	px, py := x-s.ox, y-s.oy
	u, v := px*s.dx+py*s.dy, -px*s.dy+py*s.dx
	return u >= 0 && u <= float64(s.w) && math.Abs(v-float64(s.h)/2) <= h/2
}

// straighten reads the tilted rows again, straightened, in one run, and
// puts each row's straight read in place of its lines (a row read as
// nothing keeps them).
func straighten(ctx context.Context, g *image.Gray, res *Result, rows []row, o Options) error {
	strips, stacked := stack(g, rows)
	o.DPI = 0
	again, err := Read(ctx, BMP(stacked), o)
	if err != nil {
		return err
	}
	got := make([][]Word, len(rows))
	for _, l := range again.Lines {
		for _, w := range l.Words {
			if k := stripOf(strips, w.Box.Y+w.Box.H/2); k >= 0 {
				got[k] = append(got[k], unturn(strips[k], w))
			}
		}
	}
	drop := map[int]bool{}
	var add []Line
	for k, r := range rows {
		if len(got[k]) == 0 {
			continue
		}
		for _, i := range r.lines {
			drop[i] = true
		}
		for i, l := range res.Lines {
			if within(strips[k], l, r.h) {
				drop[i] = true // a piece of the row the row did not chain
			}
		}
		l := Line{Words: got[k]}
		finish(&l)
		add = append(add, l)
	}
	var keep []Line
	for i, l := range res.Lines {
		if !drop[i] {
			keep = append(keep, l)
		}
	}
	res.Lines = sortLines(append(keep, add...))
	return nil
}

// stack cuts each row's strip out of g (bilinear, the page's most common
// level outside it) and stacks the strips, a text height apart.
func stack(g *image.Gray, rows []row) ([]strip, *image.Gray) {
	bg := uint8(background(g))
	strips := make([]strip, len(rows))
	w, h := 0, 0
	for k, r := range rows {
		s := cut(g, bg, r)
		gap := int(math.Ceil(r.h))
		s.top = h + gap
		strips[k] = s
		w, h = max(w, s.w+2*gap), s.top+s.h
	}
	h += int(math.Ceil(rows[len(rows)-1].h))
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i := range out.Pix {
		out.Pix[i] = bg
	}
	for k, s := range strips {
		gap := int(math.Ceil(rows[k].h))
		for v := 0; v < s.h; v++ {
			o := out.Pix[(s.top+v)*out.Stride+gap:]
			for u := 0; u < s.w; u++ {
				x, y := s.at(float64(u), float64(v))
				o[u] = sample(g, x, y, bg)
			}
		}
		strips[k].ox, strips[k].oy = s.ox-float64(gap)*s.dx, s.oy-float64(gap)*s.dy
	}
	return strips, out
}

// within reports whether all of a line's words' middles lie in the
// strip's middle text height.
func within(s strip, l Line, h float64) bool {
	for _, w := range l.Words {
		if !s.holds(w.Box.X+w.Box.W/2, w.Box.Y+w.Box.H/2, h) {
			return false
		}
	}
	return true
}

// stripOf is the strip whose rows hold stacked-image row y; -1 for none.
func stripOf(strips []strip, y float64) int {
	for k, s := range strips {
		if y >= float64(s.top) && y < float64(s.top+s.h) {
			return k
		}
	}
	return -1
}

// unturn maps a word read in the stacked image back onto g: the box
// around its four corners turned back.
func unturn(s strip, w Word) Word {
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, c := range [][2]float64{{w.Box.X, w.Box.Y}, {w.Box.X + w.Box.W, w.Box.Y}, {w.Box.X, w.Box.Y + w.Box.H}, {w.Box.X + w.Box.W, w.Box.Y + w.Box.H}} {
		x, y := s.at(c[0], c[1]-float64(s.top))
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	w.Box = Box{X: math.Round(x0), Y: math.Round(y0), W: math.Round(x1 - x0), H: math.Round(y1 - y0)}
	return w
}

// sample is g at (x, y), bilinear; bg outside g.
func sample(g *image.Gray, x, y float64, bg uint8) uint8 {
	b := g.Bounds()
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	if x0 >= b.Min.X && y0 >= b.Min.Y && x0+1 < b.Max.X && y0+1 < b.Max.Y {
		i := g.PixOffset(x0, y0)
		p, s := g.Pix, g.Stride
		v := (float64(p[i])*(1-fx)+float64(p[i+1])*fx)*(1-fy) + (float64(p[i+s])*(1-fx)+float64(p[i+s+1])*fx)*fy
		return uint8(v + 0.5)
	}
	at := func(x, y int) float64 {
		if x < b.Min.X || y < b.Min.Y || x >= b.Max.X || y >= b.Max.Y {
			return float64(bg)
		}
		return float64(g.Pix[g.PixOffset(x, y)])
	}
	v := (at(x0, y0)*(1-fx)+at(x0+1, y0)*fx)*(1-fy) + (at(x0, y0+1)*(1-fx)+at(x0+1, y0+1)*fx)*fy
	return uint8(v + 0.5)
}

// background is g's most common level, counted on every 4th row (of a
// page of 3 500 rows, as sure, and a quarter of the cost).
func background(g *image.Gray) int {
	var hist [256]int
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for _, v := range g.Pix[g.PixOffset(b.Min.X, y):g.PixOffset(b.Max.X, y)] {
			hist[v]++
		}
	}
	bg := 0
	for v := range hist {
		if hist[v] > hist[bg] {
			bg = v
		}
	}
	return bg
}

// rescale divides a read's boxes (image pixels) by scale.
func rescale(res *Result, scale float64) {
	if scale <= 0 || scale == 1 {
		return
	}
	for i := range res.Lines {
		for j := range res.Lines[i].Words {
			b := &res.Lines[i].Words[j].Box
			*b = Box{X: b.X / scale, Y: b.Y / scale, W: b.W / scale, H: b.H / scale}
		}
		finish(&res.Lines[i])
	}
}
