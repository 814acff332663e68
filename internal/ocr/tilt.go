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
// different ways. So the lines of text are found in the pixels first
// (lines.go); each one that runs at a slant is taken out of the image and
// laid straight where it was (in a band below the image when other ink
// is in the way), and Tesseract reads the whole once: level text where
// it was, the tilted lines straight. (Before, Tesseract read the canvas,
// the tilted rows were found from its word boxes and read again
// straightened: 1.7–2.0× Tesseract alone's CPU on testdata/tilted.png.)
const (
	// minTilt and maxTilt bound the slant of a line that is straightened:
	// under minTilt Tesseract reads it as it is; over maxTilt the text is
	// set at an angle on purpose (an axis title), not tilted.
	minTilt = 0.75 * math.Pi / 180
	maxTilt = 10 * math.Pi / 180
)

// cropMargin is the blank border, in pixels, kept around the ink when
// the image is cropped for Tesseract: its work grows with the pixels it
// is given, ink or blank (counted by valgrind: 0.51 G instructions for a
// blank 64 × 64 image, 0.82 G for a blank 1800 × 1120 one; the tilted
// test canvas straightened, 2.59 G whole and 2.44 G cropped).
const cropMargin = 32

// ReadImage reads a grey image as Read does (o.Scale, o.PSM …), cropped to
// its ink; in sparse-text mode the lines of text at a slant of minTilt to
// maxTilt are read straightened, in the same Tesseract run. An image with
// no ink is not read. g is not changed; its faint pixels should already
// be levelled (VisibleGray): what is ink, and a tilted line's place, are
// told by them.
func ReadImage(ctx context.Context, g *image.Gray, o Options) (*Result, error) {
	if _, err := Version(); err != nil {
		return nil, err
	}
	lay := layOut(g, cmp.Or(o.PSM, 11) == 11)
	if lay.ink.Empty() {
		return &Result{}, nil
	}
	r := lay.ink.Inset(-cropMargin).Intersect(image.Rectangle{Max: lay.img.Bounds().Size()})
	px := o
	px.Scale = 1
	res, err := Read(ctx, BMP(lay.img.SubImage(r.Add(lay.img.Bounds().Min)).(*image.Gray)), px)
	if err != nil {
		return nil, err
	}
	shift(res, r.Min)
	if len(lay.strips) > 0 {
		lay.place(res)
	}
	rescale(res, o.Scale)
	return res, nil
}

// shift moves a read's boxes by d.
func shift(res *Result, d image.Point) {
	for i := range res.Lines {
		l := &res.Lines[i]
		for j := range l.Words {
			l.Words[j].Box.X += float64(d.X)
			l.Words[j].Box.Y += float64(d.Y)
		}
		l.Box.X += float64(d.X)
		l.Box.Y += float64(d.Y)
	}
}

// strip is a tilted line's straightened copy in the image read: its
// pixel (left+u, top+v) is g's point o + u·dir + v·nrm, nrm being dir
// turned a quarter clockwise (down the image for a level line).
type strip struct {
	ox, oy    float64 // image point of the strip's top left
	dx, dy    float64 // unit vector along the line
	w, h      int
	left, top int // where the strip lies in the image read
}

// at maps strip pixel (u, v) to the image.
func (s strip) at(u, v float64) (float64, float64) {
	return s.ox + u*s.dx - v*s.dy, s.oy + u*s.dy + v*s.dx
}

// holds reports whether image point (x, y) lies on the strip's tilted
// place in the image.
func (s strip) holds(x, y float64) bool {
	px, py := x-s.ox, y-s.oy
	u, v := px*s.dx+py*s.dy, -px*s.dy+py*s.dx
	return u >= 0 && u <= float64(s.w) && v >= 0 && v <= float64(s.h)
}

// layout is the image Tesseract reads, in pixels from its corner: g, or,
// when lines were straightened, g with the tilted lines' ink levelled to
// their background and each of them laid straight where it was when that
// place holds no other ink, else in a band below g.
type layout struct {
	img    *image.Gray
	ink    image.Rectangle // the box around img's ink
	band   int             // the band's first row (g's height)
	strips []strip
	banded []int // the strips laid in the band
}

// layOut finds g's ink and, when straighten is set, its tilted lines, and
// lays them out straight.
func layOut(g *image.Gray, straighten bool) *layout {
	runs := inkRuns(g)
	lay := &layout{img: g, band: g.Bounds().Dy()}
	for _, rn := range runs {
		lay.ink = lay.ink.Union(image.Rect(int(rn.x0), int(rn.y), int(rn.x1), int(rn.y)+1))
	}
	if !straighten || len(runs) == 0 {
		return lay
	}
	of, comps := components(runs)
	if lines := tiltedOf(comps); len(lines) > 0 {
		lay.straighten(g, runs, of, comps, lines)
	}
	return lay
}

// straighten lays g's tilted lines out straight in a new image.
func (lay *layout) straighten(g *image.Gray, runs []run, of []int, comps []comp, lines []textLine) {
	b := g.Bounds()
	lay.strips = make([]strip, len(lines))
	for k, l := range lines {
		lay.strips[k] = lineStrip(comps, l, attach(comps, l, k))
	}
	w, h := b.Dx(), b.Dy()
	var placed []image.Rectangle
	for k := range lay.strips {
		s := &lay.strips[k]
		if r, ok := inPlace(*s, runs, of, comps, placed, b.Size()); ok {
			s.left, s.top = r.Min.X, r.Min.Y
			placed = append(placed, r)
		} else {
			gap := int(math.Ceil(lines[k].h))
			s.left, s.top = gap, h+gap
			w, h = max(w, s.w+2*gap), h+gap+s.h
			lay.banded = append(lay.banded, k)
		}
		lay.ink = lay.ink.Union(image.Rect(s.left, s.top, s.left+s.w, s.top+s.h))
	}
	if len(lay.banded) > 0 {
		h += int(math.Ceil(lines[lay.banded[len(lay.banded)-1]].h))
	}
	lay.img = image.NewGray(image.Rect(0, 0, w, h))
	for y := range b.Dy() {
		copy(lay.img.Pix[y*lay.img.Stride:], g.Pix[g.PixOffset(b.Min.X, b.Min.Y+y):g.PixOffset(b.Max.X, b.Min.Y+y)])
	}
	bg := uint8(background(g))
	fill(lay.img.Pix[b.Dy()*lay.img.Stride:], bg)
	if w > b.Dx() {
		for y := range b.Dy() {
			fill(lay.img.Pix[y*lay.img.Stride+b.Dx():(y+1)*lay.img.Stride], bg)
		}
	}
	for k := range lines {
		lay.erase(runs, of, comps, k)
	}
	for k := range lines {
		lay.draw(g, runs, of, comps, k)
	}
}

// inPlace is where strip s lies straight about the middle of its tilted
// place, if that rectangle is on the image (size) and holds no ink but
// its line's (nor another line laid straight in place).
func inPlace(s strip, runs []run, of []int, comps []comp, placed []image.Rectangle, size image.Point) (image.Rectangle, bool) {
	cx, cy := s.at(float64(s.w)/2, float64(s.h)/2)
	r := image.Rect(0, 0, s.w, s.h).Add(image.Pt(int(math.Round(cx-float64(s.w)/2)), int(math.Round(cy-float64(s.h)/2))))
	if !r.In(image.Rectangle{Max: size}) {
		return r, false
	}
	for _, p := range placed {
		if p.Overlaps(r) {
			return r, false
		}
	}
	first := sort.Search(len(runs), func(i int) bool { return int(runs[i].y) >= r.Min.Y })
	for i := first; i < len(runs) && int(runs[i].y) < r.Max.Y; i++ {
		if rn := runs[i]; comps[of[i]].line < 0 && int(rn.x0) < r.Max.X && int(rn.x1) > r.Min.X {
			return r, false
		}
	}
	return r, true
}

// attach makes line k's the components (dots, commas, hyphens, accents)
// that lie wholly on its place, within half a text height above it and an
// eighth below, and a text height beyond its ends, and returns all of the
// line's components.
func attach(comps []comp, l textLine, k int) []int {
	dx, dy := math.Cos(math.Atan(l.slope)), math.Sin(math.Atan(l.slope))
	u0, v0, u1, v1 := extent(comps, l.glyphs, dx, dy)
	u0, u1, v0, v1 = u0-l.h, u1+l.h, v0-l.h/2, v1+l.h/8
	members := append([]int(nil), l.glyphs...)
	for i, c := range comps {
		if c.line >= 0 || c.h() > int(v1-v0) {
			continue
		}
		cu0, cv0, cu1, cv1 := extent(comps, []int{i}, dx, dy)
		if cu0 >= u0 && cu1 <= u1 && cv0 >= v0 && cv1 <= v1 {
			comps[i].line = k
			members = append(members, i)
		}
	}
	return members
}

// extent is the least and greatest u (along dir) and v (across it) of
// the corners of some components' boxes.
func extent(comps []comp, ks []int, dx, dy float64) (u0, v0, u1, v1 float64) {
	u0, v0, u1, v1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, k := range ks {
		c := comps[k]
		for _, p := range [4][2]int{{c.x0, c.y0}, {c.x1, c.y0}, {c.x0, c.y1}, {c.x1, c.y1}} {
			x, y := float64(p[0]), float64(p[1])
			u, v := x*dx+y*dy, -x*dy+y*dx
			u0, u1, v0, v1 = math.Min(u0, u), math.Max(u1, u), math.Min(v0, v), math.Max(v1, v)
		}
	}
	return u0, v0, u1, v1
}

// lineStrip is the strip around a line's components, a quarter of a
// text height (and 2 px) wider each way.
func lineStrip(comps []comp, l textLine, members []int) strip {
	dx, dy := math.Cos(math.Atan(l.slope)), math.Sin(math.Atan(l.slope))
	u0, v0, u1, v1 := extent(comps, members, dx, dy)
	m := l.h/4 + 2
	u0, v0, u1, v1 = u0-m, v0-m, u1+m, v1+m
	// (u0, v0) back to the image: u·dir + v·nrm
	return strip{ox: u0*dx - v0*dy, oy: u0*dy + v0*dx, dx: dx, dy: dy, w: int(math.Ceil(u1 - u0)), h: int(math.Ceil(v1 - v0))}
}

// erase takes line k's ink out of the image read: each of its runs set
// to its square's level.
func (lay *layout) erase(runs []run, of []int, comps []comp, k int) {
	for i, r := range runs {
		if comps[of[i]].line == k {
			fill(lay.img.Pix[int(r.y)*lay.img.Stride:][r.x0:r.x1], r.bg)
		}
	}
}

// draw lays line k straight in its strip, drawn from a copy of the line's
// ink alone (nothing near it comes along), on the line's background; in
// the band, the rows of the gap above and below it too.
func (lay *layout) draw(g *image.Gray, runs []run, of []int, comps []comp, k int) {
	s := lay.strips[k]
	ink := lineInk(g, runs, of, comps, k)
	stride := lay.img.Stride
	if s.top >= lay.band {
		gap := s.left
		for v := s.top - gap; v < min(s.top+s.h+gap, lay.img.Bounds().Dy()); v++ {
			fill(lay.img.Pix[v*stride:(v+1)*stride], ink.bg)
		}
	}
	const one = 1 << 16
	for v := range s.h {
		o := lay.img.Pix[(s.top+v)*stride+s.left:][:s.w]
		x, y := s.at(0, float64(v))
		x, y = x-float64(ink.r.Min.X), y-float64(ink.r.Min.Y)
		sampleRun(ink.img, o, int64(math.Round(x*one)), int64(math.Round(y*one)), int64(math.Round(s.dx*one)), int64(math.Round(s.dy*one)), ink.bg)
	}
}

// inkCopy is a line's ink alone on its background, in the box r of g.
type inkCopy struct {
	img *image.Gray
	r   image.Rectangle
	bg  uint8
}

// lineInk copies line k's runs out of g onto their most common square
// level.
func lineInk(g *image.Gray, runs []run, of []int, comps []comp, k int) inkCopy {
	r := image.Rectangle{}
	var counts [256]int
	for i, c := range comps {
		if c.line == k {
			r = r.Union(image.Rect(c.x0, c.y0, c.x1, c.y1))
			counts[comps[i].bg]++
		}
	}
	bg := 0
	for v := range counts {
		if counts[v] > counts[bg] {
			bg = v
		}
	}
	r = r.Inset(-2)
	img := image.NewGray(image.Rect(0, 0, r.Dx(), r.Dy()))
	fill(img.Pix, uint8(bg))
	b := g.Bounds()
	for i, rn := range runs {
		if comps[of[i]].line != k {
			continue
		}
		src := g.Pix[g.PixOffset(b.Min.X+int(rn.x0), b.Min.Y+int(rn.y)):][:rn.x1-rn.x0]
		copy(img.Pix[(int(rn.y)-r.Min.Y)*img.Stride+int(rn.x0)-r.Min.X:], src)
	}
	return inkCopy{img: img, r: r, bg: uint8(bg)}
}

// place maps the words read in the strips back onto g (each strip's words
// one line, in place of what its tilted line was), and drops what was
// read in the band's gaps or where a tilted line was taken out (a speck
// it left).
func (lay *layout) place(res *Result) {
	got := make([][]Word, len(lay.strips))
	var out []Line
	for _, l := range res.Lines {
		var keep []Word
		for _, w := range l.Words {
			cx, cy := w.Box.X+w.Box.W/2, w.Box.Y+w.Box.H/2
			if k := lay.stripAt(cx, cy); k >= 0 {
				got[k] = append(got[k], unturn(lay.strips[k], w))
			} else if cy < float64(lay.band) && !lay.taken(cx, cy) {
				keep = append(keep, w)
			}
		}
		if len(keep) > 0 {
			l.Words = keep
			finish(&l)
			out = append(out, l)
		}
	}
	for _, ws := range got {
		if len(ws) > 0 {
			l := Line{Words: ws}
			finish(&l)
			out = append(out, l)
		}
	}
	res.Lines = sortLines(out)
}

// stripAt is the strip that holds point (x, y) of the image read; -1 for
// none.
func (lay *layout) stripAt(x, y float64) int {
	for k, s := range lay.strips {
		if x >= float64(s.left) && x < float64(s.left+s.w) && y >= float64(s.top) && y < float64(s.top+s.h) {
			return k
		}
	}
	return -1
}

// taken reports whether image point (x, y) lies where a tilted line was.
func (lay *layout) taken(x, y float64) bool {
	for _, s := range lay.strips {
		if s.holds(x, y) {
			return true
		}
	}
	return false
}

// unturn maps a word read in the band back onto g: the box around its
// four corners turned back.
func unturn(s strip, w Word) Word {
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, c := range [][2]float64{{w.Box.X, w.Box.Y}, {w.Box.X + w.Box.W, w.Box.Y}, {w.Box.X, w.Box.Y + w.Box.H}, {w.Box.X + w.Box.W, w.Box.Y + w.Box.H}} {
		x, y := s.at(c[0]-float64(s.left), c[1]-float64(s.top))
		x0, y0, x1, y1 = math.Min(x0, x), math.Min(y0, y), math.Max(x1, x), math.Max(y1, y)
	}
	w.Box = Box{X: math.Round(x0), Y: math.Round(y0), W: math.Round(x1 - x0), H: math.Round(y1 - y0)}
	return w
}

// background is g's most common level, counted on every 4th row (of a
// page of 3 500 rows, as sure, and a quarter of the cost).
func background(g *image.Gray) int { return mostCommon(g, g.Bounds(), 4) }

// mostCommon is the most common level in r of g, counted on every step-th row.
func mostCommon(g *image.Gray, r image.Rectangle, step int) int {
	var hist [256]int
	for y := r.Min.Y; y < r.Max.Y; y += step {
		for _, v := range g.Pix[g.PixOffset(r.Min.X, y):g.PixOffset(r.Max.X, y)] {
			hist[v]++
		}
	}
	lv := 0
	for v := range hist {
		if hist[v] > hist[lv] {
			lv = v
		}
	}
	return lv
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
