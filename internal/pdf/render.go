package pdf

import (
	"fmt"
	"image"
	"image/color"
	"time"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Region is a part of a page to render: a box in the coordinates Parse
// gives (points on the page as displayed, top-left origin, after /Rotate
// and the CropBox), so a box read from the text layer renders where the
// text is.
type Region struct {
	Page int // 0-based
	Box  Box
}

// Render draws each region of the PDF data at dpi and returns opaque RGBA
// images (a transparent page is composited over white), one per region,
// in order. A region that cannot be drawn gives a nil image and its error
// in errs; err is for a document that cannot be opened at all. Pixels are
// a function of the bytes, the box and the dpi: the same call gives the
// same pixels.
func Render(data []byte, regions []Region, dpi int) (imgs []*image.RGBA, errs []error, err error) {
	if dpi <= 0 || dpi > 1200 {
		return nil, nil, fmt.Errorf("render: dpi %d out of range (1–1200)", dpi)
	}
	engMu.Lock()
	defer engMu.Unlock()
	e, err := getEngine()
	if err != nil {
		return nil, nil, err
	}
	inst := e.inst
	watchdog := time.AfterFunc(docTimeout, func() { inst.Kill() })
	imgs, errs, err = e.render(data, regions, dpi)
	fired := !watchdog.Stop()
	if fired {
		imgs, errs, err = nil, nil, fmt.Errorf("%w (%s)", ErrTooSlow, docTimeout)
	}
	if fired || e.renew() != nil {
		e.pool.Close()
		eng = nil
	}
	return imgs, errs, err
}

// maxCropPixels caps one crop's size (a whole A0 page at 300 dpi is some
// 140 million): a bigger request is an error, not an out-of-memory.
const maxCropPixels = 40_000_000

func (e *engine) render(data []byte, regions []Region, dpi int) ([]*image.RGBA, []error, error) {
	opened, err := e.inst.FPDF_LoadMemDocument(&requests.FPDF_LoadMemDocument{Data: &data})
	if err != nil {
		return nil, nil, openError(err, false)
	}
	doc := opened.Document
	defer e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	imgs := make([]*image.RGBA, len(regions))
	errs := make([]error, len(regions))
	for i, r := range regions {
		imgs[i], errs[i] = e.renderRegion(doc, r, dpi)
	}
	return imgs, errs, nil
}

func (e *engine) renderRegion(doc references.FPDF_DOCUMENT, r Region, dpi int) (*image.RGBA, error) {
	return renderWith(e, doc, r, dpi, func(img image.Image, transparent bool) (*image.RGBA, error) {
		return flatten(img, transparent), nil
	})
}

// renderWith renders region r of doc at dpi and hands PDFium's pixels to
// use, which must copy what it keeps: they are freed when it returns.
func renderWith[T any](e *engine, doc references.FPDF_DOCUMENT, r Region, dpi int, use func(img image.Image, transparent bool) (T, error)) (T, error) {
	var zero T
	b := r.Box
	w, h := b.X1-b.X0, b.Y1-b.Y0
	if w <= 0 || h <= 0 || b.X0 < 0 || b.Y0 < 0 {
		return zero, fmt.Errorf("render: empty or negative box %+v", b)
	}
	if px := w * h * float64(dpi*dpi) / (72 * 72); px > maxCropPixels {
		return zero, fmt.Errorf("render: the crop would be %.0f pixels (cap %d)", px, maxCropPixels)
	}
	res, err := e.inst.RenderPageInDPI(&requests.RenderPageInDPI{
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: r.Page}},
		DPI:  dpi,
		Crop: &requests.RenderPageCrop{X: b.X0, Y: b.Y0, Width: w, Height: h},
	})
	if err != nil {
		return zero, fmt.Errorf("render: page %d: %w", r.Page+1, err)
	}
	defer res.Cleanup()
	return use(res.Result.RenderedImage, res.Result.HasTransparency)
}

// flatten copies the rendered pixels into an opaque image: PDFium fills a
// page with transparency with transparent black and draws non-premultiplied
// BGRA (byte-swapped to RGBA), so such pixels are composited over white.
func flatten(src image.Image, transparent bool) *image.RGBA {
	bounds := src.Bounds()
	w, h := bounds.Dx(), bounds.Dy()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	rgba, isRGBA := src.(*image.RGBA)
	if !isRGBA {
		for y := range h {
			for x := range w {
				r, g, b, a := src.At(bounds.Min.X+x, bounds.Min.Y+y).RGBA()
				c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
				if transparent {
					c = overWhite(c)
				}
				out.SetRGBA(x, y, color.RGBA{c.R, c.G, c.B, 255})
			}
		}
		return out
	}
	// an RGBA render (always, from PDFium): row by row, no per-pixel
	// bounds or colour-model work
	for y := range h {
		i := rgba.PixOffset(bounds.Min.X, bounds.Min.Y+y)
		row, o := rgba.Pix[i:i+4*w], out.Pix[y*out.Stride:y*out.Stride+4*w]
		copy(o, row)
		for x := 3; x < len(o); x += 4 {
			if transparent {
				a := uint32(o[x])
				o[x-3], o[x-2], o[x-1] = overWhiteInt(o[x-3], a), overWhiteInt(o[x-2], a), overWhiteInt(o[x-1], a)
			}
			o[x] = 255
		}
	}
	return out
}

// overWhite composites a non-premultiplied pixel over white.
func overWhite(c color.RGBA) color.RGBA {
	a := uint32(c.A)
	return color.RGBA{overWhiteInt(c.R, a), overWhiteInt(c.G, a), overWhiteInt(c.B, a), 255}
}

// overWhiteInt is v at alpha a (of 255) over white, rounded to nearest:
// (v·a + 255·(255−a)) / 255. The exact quotient's fraction is k/255, never
// one half, so adding 127 before the division rounds it (equal to
// math.Round of the float form for every v and a: TestOverWhiteInt).
func overWhiteInt(v uint8, a uint32) uint8 {
	return uint8((uint32(v)*a + 255*(255-a) + 127) / 255)
}
