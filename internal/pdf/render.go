package pdf

import (
	"fmt"
	"image"
	"image/color"
	"math"
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
	b := r.Box
	w, h := b.X1-b.X0, b.Y1-b.Y0
	if w <= 0 || h <= 0 || b.X0 < 0 || b.Y0 < 0 {
		return nil, fmt.Errorf("render: empty or negative box %+v", b)
	}
	if px := w * h * float64(dpi*dpi) / (72 * 72); px > maxCropPixels {
		return nil, fmt.Errorf("render: the crop would be %.0f pixels (cap %d)", px, maxCropPixels)
	}
	res, err := e.inst.RenderPageInDPI(&requests.RenderPageInDPI{
		Page: requests.Page{ByIndex: &requests.PageByIndex{Document: doc, Index: r.Page}},
		DPI:  dpi,
		Crop: &requests.RenderPageCrop{X: b.X0, Y: b.Y0, Width: w, Height: h},
	})
	if err != nil {
		return nil, fmt.Errorf("render: page %d: %w", r.Page+1, err)
	}
	defer res.Cleanup()
	return flatten(res.Result.RenderedImage, res.Result.HasTransparency), nil
}

// flatten copies the rendered pixels into an opaque image: PDFium fills a
// page with transparency with transparent black and draws non-premultiplied
// BGRA (byte-swapped to RGBA), so such pixels are composited over white.
func flatten(src image.Image, transparent bool) *image.RGBA {
	bounds := src.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, bounds.Dx(), bounds.Dy()))
	rgba, isRGBA := src.(*image.RGBA)
	for y := 0; y < bounds.Dy(); y++ {
		for x := 0; x < bounds.Dx(); x++ {
			var c color.RGBA
			if isRGBA {
				i := rgba.PixOffset(bounds.Min.X+x, bounds.Min.Y+y)
				c = color.RGBA{rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2], rgba.Pix[i+3]}
			} else {
				r, g, b, a := src.At(bounds.Min.X+x, bounds.Min.Y+y).RGBA()
				c = color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
			}
			if transparent {
				c = overWhite(c)
			}
			c.A = 255
			o := out.PixOffset(x, y)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = c.R, c.G, c.B, c.A
		}
	}
	return out
}

// overWhite composites a non-premultiplied pixel over white.
func overWhite(c color.RGBA) color.RGBA {
	a := float64(c.A) / 255
	mix := func(v uint8) uint8 { return uint8(math.Round(float64(v)*a + 255*(1-a))) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 255}
}
