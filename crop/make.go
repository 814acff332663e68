package crop

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// Raster is where a document's pixels come from: the source PDF's bytes,
// or the screenshot taken by the same browser read that gave the boxes.
// NoPixels says why there are none when neither is given.
type Raster struct {
	PDF               bool        // the document is a PDF (boxes in pt)
	PDFBytes          []byte      // the source bytes, checked against the source fingerprint
	Screenshot        image.Image // one pixel per CSS px, from the page's top
	ScreenshotClipped bool        // the page was taller than the shot
	NoPixels          string
}

// Options are the picture's settings.
type Options struct {
	Padding int  // document units around the box (DefaultPadding is the commands' default)
	DPI     int  // PDF crops (default DefaultDPI)
	Plain   bool // the picture as the page shows it: the cited box not marked (Mark)
}

func (o Options) withDefaults() Options {
	o.Padding = max(o.Padding, 0)
	if o.DPI == 0 {
		o.DPI = DefaultDPI
	}
	return o
}

// Set is what Make gives: descriptors in target order (one per target)
// and the PNG bytes of the rendered ones, by crop ref.
type Set struct {
	Descriptors []Descriptor
	PNGs        map[string][]byte
}

// Rendered counts the rendered descriptors.
func (s Set) Rendered() int {
	n := 0
	for _, d := range s.Descriptors {
		if d.RenderingStatus == StatusRendered {
			n++
		}
	}
	return n
}

// Make builds the descriptors of targets on src and renders what ras can
// show. It fails only when src has no document fingerprint (a crop must
// name the document it shows) or the PDF cannot be opened at all; a crop
// that cannot be drawn is a descriptor_only with the reason.
func Make(src ground.Source, targets []Target, ras Raster, opts Options) (Set, error) {
	opts = opts.withDefaults()
	docFP := src.DocumentFingerprint()
	if docFP == "" {
		return Set{}, errors.New("the document has no fingerprint: a crop cannot be bound to it")
	}
	pages := map[string]ground.Page{}
	for _, p := range src.Pages() {
		pages[p.ID] = p
	}
	var srcFP *string
	if fp := src.SourceFingerprint(); fp != "" {
		srcFP = &fp
	}
	unit, dpi := "css_px", ScreenshotDPI
	if ras.PDF {
		unit, dpi = "pt", opts.DPI
	}
	set := Set{PNGs: map[string][]byte{}}
	type job struct {
		i    int
		area [4]int // padded box x0, y0, x1, y1, document units
		t    Target
	}
	var jobs []job
	for _, t := range targets {
		d := Descriptor{ArtifactType: ArtifactType, SchemaVersion: SchemaVersion, DocumentFingerprint: docFP,
			SourceFingerprint: srcFP, Unit: unit, CoordinateProfile: CoordinateProfile, Padding: opts.Padding,
			DPI: dpi, CheckIDs: sortedIDs(t.CheckIDs), EvidenceIDs: sortedIDs(t.EvidenceIDs), TextSHA256: textHash(t.Text), RenderingStatus: StatusDescriptorOnly}
		p, ok := pages[t.PageRef]
		d.Page = PageRef{PageRef: t.PageRef, PageIndex: p.Index}
		if t.BBox != nil {
			d.BBox = []int{t.BBox.X, t.BBox.Y, t.BBox.W, t.BBox.H}
		}
		d.CropRef = Ref(docFP, t.PageRef, d.BBox, opts.Padding, dpi, d.TextSHA256)
		var area [4]int
		switch {
		case !ok:
			d.Reason = "the evidence page " + t.PageRef + " is not in the document"
		case t.BBox == nil:
			d.Reason = t.Reason
		case t.BBox.W < 1 || t.BBox.H < 1 || t.BBox.X < 0 || t.BBox.Y < 0:
			d.Reason = "the box is empty or off the page"
		case ras.NoPixels != "":
			d.Reason = ras.NoPixels
		default:
			area, d.Reason = padded(*t.BBox, opts.Padding, p, ras)
		}
		set.Descriptors = append(set.Descriptors, d)
		if d.Reason == "" {
			jobs = append(jobs, job{len(set.Descriptors) - 1, area, t})
		}
	}
	imgs := make([]image.Image, len(jobs))
	if ras.PDF {
		regions := make([]pdf.Region, len(jobs))
		for k, j := range jobs {
			a := j.area
			regions[k] = pdf.Region{Page: set.Descriptors[j.i].Page.PageIndex,
				Box: pdf.Box{X0: float64(a[0]), Y0: float64(a[1]), X1: float64(a[2]), Y1: float64(a[3])}}
		}
		if len(regions) > 0 {
			out, errs, err := pdf.Render(ras.PDFBytes, regions, dpi)
			if err != nil {
				return Set{}, fmt.Errorf("rendering the PDF: %w", err)
			}
			for k := range jobs {
				if errs[k] != nil {
					set.Descriptors[jobs[k].i].Reason = "PDFium could not draw the region: " + errs[k].Error()
					continue
				}
				imgs[k] = out[k]
			}
		}
	} else {
		for k, j := range jobs {
			imgs[k] = cut(ras.Screenshot, j.area)
		}
	}
	var marked []Marking
	if !opts.Plain {
		ts := make([]Target, len(jobs))
		for k, j := range jobs {
			ts[k] = j.t
		}
		marked = marks(ts, ras, func(t Target) int { return pages[t.PageRef].Index })
	}
	for k, j := range jobs {
		d := &set.Descriptors[j.i]
		if imgs[k] == nil {
			continue
		}
		if blank(imgs[k]) {
			// Cited text is never a plain rectangle: the raster did not
			// paint this part of the page (a blank screenshot tile).
			d.Reason = "the picture is one flat colour where the cited text is: the raster did not paint this part of the page"
			continue
		}
		if !opts.Plain {
			boxes := make([]ground.Box, len(marked[k].Boxes))
			for n, b := range marked[k].Boxes {
				boxes[n] = boxOf(b)
			}
			imgs[k] = Mark(imgs[k], j.area, boxes...)
			d.Mark = &marked[k]
		}
		b, err := Encode(imgs[k])
		if err != nil {
			d.Reason = "encoding the PNG: " + err.Error()
			continue
		}
		a := j.area
		d.RenderingStatus, d.PNG = StatusRendered, Dir+"/"+d.CropRef+".png"
		d.Raster = RasterScreenshot
		if ras.PDF {
			d.Raster = RasterPDFium
		}
		d.Pixels = &Pixels{Width: imgs[k].Bounds().Dx(), Height: imgs[k].Bounds().Dy(), Area: []int{a[0], a[1], a[2] - a[0], a[3] - a[1]}}
		set.PNGs[d.CropRef] = b
	}
	return set, nil
}

// padded is the box grown by pad and clipped to what can be drawn: the
// page for a PDF, the screenshot for a web page. A box the screenshot does
// not reach (a page taller than the shot) gets a reason instead.
func padded(b ground.Box, pad int, p ground.Page, ras Raster) ([4]int, string) {
	a := [4]int{b.X - pad, b.Y - pad, b.X + b.W + pad, b.Y + b.H + pad}
	var w, h int
	if ras.PDF {
		w, h = p.Width, p.Height
		if w <= 0 || h <= 0 {
			return a, "the page's size is unknown, so the box cannot be placed on it"
		}
	} else {
		sb := ras.Screenshot.Bounds()
		w, h = sb.Dx(), sb.Dy()
		if b.Y+b.H > h || b.X >= w {
			why := fmt.Sprintf("the box (bottom at %d px) lies beyond the screenshot (%dx%d px)", b.Y+b.H, w, h)
			if ras.ScreenshotClipped {
				why += ": the page was taller than the screenshot cap and was shot from the top only"
			}
			return a, why
		}
	}
	a[0], a[1] = max(a[0], 0), max(a[1], 0)
	a[2], a[3] = min(a[2], w), min(a[3], h)
	if a[2]-a[0] < 1 || a[3]-a[1] < 1 {
		return a, "the box lies outside the page"
	}
	return a, ""
}

// Mark draws the marked boxes on a crop of area (document units): the
// rest of the picture dimmed towards white, and each run of boxes (the
// quoted part of consecutive lines, or the one cited box) outlined, so the
// quoted text stands out from its surroundings.
func Mark(img image.Image, area [4]int, boxes ...ground.Box) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	sx := float64(b.Dx()) / float64(max(area[2]-area[0], 1))
	sy := float64(b.Dy()) / float64(max(area[3]-area[1], 1))
	px := func(box ground.Box) image.Rectangle {
		return image.Rect(int(float64(box.X-area[0])*sx), int(float64(box.Y-area[1])*sy),
			int(math.Ceil(float64(box.X+box.W-area[0])*sx)), int(math.Ceil(float64(box.Y+box.H-area[1])*sy))).Intersect(out.Bounds())
	}
	keep := make([]image.Rectangle, len(boxes))
	for i, box := range boxes {
		keep[i] = px(box)
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if inAny(image.Point{x, y}, keep) {
				continue
			}
			i := out.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				out.Pix[i+c] = uint8((int(out.Pix[i+c]) + 2*255) / 3) // two thirds of the way to white
			}
		}
	}
	for _, r := range runs(boxes) {
		outline(out, px(r).Inset(-2).Intersect(out.Bounds()), 2)
	}
	return out
}

func inAny(p image.Point, rs []image.Rectangle) bool {
	for _, r := range rs {
		if p.In(r) {
			return true
		}
	}
	return false
}

// runs joins boxes into the runs one outline goes round: consecutive
// boxes whose gap is at most half the shorter one's height (the quoted
// parts of lines that follow each other) are one run.
func runs(boxes []ground.Box) []ground.Box {
	var out []ground.Box
	for i, b := range boxes {
		if i > 0 {
			last := &out[len(out)-1]
			prev := boxes[i-1]
			gap := max(b.Y-(prev.Y+prev.H), prev.Y-(b.Y+b.H))
			if 2*gap <= min(b.H, prev.H) {
				*last = *union(last, b)
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// markColour is the outline of a marked box: an amber that reads on white
// and on dark pages alike.
var markColour = color.RGBA{0xE0, 0x8A, 0x00, 0xFF}

// outline draws a w-pixel frame just inside r.
func outline(img *image.RGBA, r image.Rectangle, w int) {
	for _, e := range []image.Rectangle{
		{r.Min, image.Pt(r.Max.X, r.Min.Y+w)}, {image.Pt(r.Min.X, r.Max.Y-w), r.Max},
		{r.Min, image.Pt(r.Min.X+w, r.Max.Y)}, {image.Pt(r.Max.X-w, r.Min.Y), r.Max},
	} {
		draw.Draw(img, e.Intersect(r), &image.Uniform{markColour}, image.Point{}, draw.Src)
	}
}

// cut copies area (CSS px) out of the screenshot into an opaque RGBA image.
func cut(shot image.Image, area [4]int) image.Image {
	r := image.Rect(area[0], area[1], area[2], area[3]).Add(shot.Bounds().Min)
	out := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(out, out.Bounds(), shot, r.Min, draw.Src)
	for i := 3; i < len(out.Pix); i += 4 {
		out.Pix[i] = 255
	}
	return out
}

// blank reports whether every pixel of img has the same colour.
func blank(img image.Image) bool {
	if rgba, ok := img.(*image.RGBA); ok {
		p := rgba.Pix
		for i := 4; i+3 < len(p); i += 4 {
			if p[i] != p[0] || p[i+1] != p[1] || p[i+2] != p[2] {
				return false
			}
		}
		return true
	}
	b := img.Bounds()
	first := img.At(b.Min.X, b.Min.Y)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if img.At(x, y) != first {
				return false
			}
		}
	}
	return true
}
