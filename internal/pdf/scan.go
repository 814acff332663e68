package pdf

import (
	"fmt"
	"image"
	"math"
	"time"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// scanCover is the least share of a page one image must cover for the
// page to be taken as a scan of that image.
const scanCover = 0.5

// RenderScan renders region r like Render, in grey (the luminance of
// Render's pixels, color.GrayModel's weights), at the dpi choose picks given
// the page's scan resolution: the pixels per inch, as drawn on the page,
// of the largest image on it when that image covers at least half the
// page (a scanned page), else 0. Rendering a scan at its own resolution
// hands OCR the scanner's pixels without resampling them. It returns the
// image and the dpi it was rendered at.
func RenderScan(data []byte, r Region, choose func(scanDPI float64) int) (*image.Gray, int, error) {
	engMu.Lock()
	defer engMu.Unlock()
	e, err := getEngine()
	if err != nil {
		return nil, 0, err
	}
	inst := e.inst
	watchdog := time.AfterFunc(docTimeout, func() { inst.Kill() })
	img, dpi, err := e.renderScan(data, r, choose)
	fired := !watchdog.Stop()
	if fired {
		img, err = nil, fmt.Errorf("%w (%s)", ErrTooSlow, docTimeout)
	}
	if fired {
		e.pool.Close()
		eng = nil
		return img, dpi, err
	}
	// The instance is renewed (engine.renew) after every scanRenewEvery
	// scans, not after each: a fresh instance's memory grows, copied
	// each time, to hold the page's bitmap again (some 35 MB at 300 dpi;
	// a sixth of the page's own CPU time). A scan hands out a few
	// references, not a document's worth.
	scansSinceRenew++
	if scansSinceRenew >= scanRenewEvery || err != nil {
		scansSinceRenew = 0
		if e.renew() != nil {
			e.pool.Close()
			eng = nil
		}
	}
	return img, dpi, err
}

// scanRenewEvery is how many RenderScan calls share an engine instance;
// scansSinceRenew counts them (engMu guards it).
const scanRenewEvery = 16

var scansSinceRenew int

func (e *engine) renderScan(data []byte, r Region, choose func(float64) int) (*image.Gray, int, error) {
	opened, err := e.inst.FPDF_LoadMemDocument(&requests.FPDF_LoadMemDocument{Data: &data})
	if err != nil {
		return nil, 0, openError(err, false)
	}
	doc := opened.Document
	defer e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	dpi := choose(e.scanDPI(doc, r.Page))
	if dpi <= 0 || dpi > 1200 {
		return nil, 0, fmt.Errorf("render: dpi %d out of range (1–1200)", dpi)
	}
	img, err := e.renderGray(doc, r, dpi)
	return img, dpi, err
}

// renderGray is renderRegion in grey: the RGBA render composited over
// white and turned grey in one pass, without renderRegion's opaque copy.
// (PDFium's own grayscale render is slower: it draws a grey JPEG some 1.7×
// as long.)
func (e *engine) renderGray(doc references.FPDF_DOCUMENT, r Region, dpi int) (*image.Gray, error) {
	return renderWith(e, doc, r, dpi, func(img image.Image, transparent bool) (*image.Gray, error) {
		rgba, ok := img.(*image.RGBA)
		if !ok {
			return nil, fmt.Errorf("render: page %d: PDFium gave a %T, not RGBA", r.Page+1, img)
		}
		return greyOver(rgba, transparent), nil
	})
}

// greyOver is the luminance of src as flatten would make it opaque
// (composited over white when transparent).
func greyOver(src *image.RGBA, transparent bool) *image.Gray {
	bounds := src.Bounds()
	w, h := bounds.Dx(), bounds.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		i := src.PixOffset(bounds.Min.X, bounds.Min.Y+y)
		row, o := src.Pix[i:i+4*w], out.Pix[y*out.Stride:y*out.Stride+w]
		for x := range o {
			p := row[4*x : 4*x+4 : 4*x+4]
			r, g, b := p[0], p[1], p[2]
			if transparent {
				a := uint32(p[3])
				r, g, b = overWhiteInt(r, a), overWhiteInt(g, a), overWhiteInt(b, a)
			}
			o[x] = uint8((19595*uint32(r) + 38470*uint32(g) + 7471*uint32(b) + 1<<15) >> 16)
		}
	}
	return out
}

// scanDPI is the resolution of page i's largest top-level image when it
// covers at least scanCover of the page, else 0.
func (e *engine) scanDPI(doc references.FPDF_DOCUMENT, i int) float64 {
	loaded, err := e.inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		return 0
	}
	page := requests.Page{ByReference: &loaded.Page}
	defer e.inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: loaded.Page})
	w, errW := e.inst.FPDF_GetPageWidthF(&requests.FPDF_GetPageWidthF{Page: page})
	h, errH := e.inst.FPDF_GetPageHeightF(&requests.FPDF_GetPageHeightF{Page: page})
	n, errN := e.inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: page})
	if errW != nil || errH != nil || errN != nil {
		return 0
	}
	best, dpi := scanCover*float64(w.PageWidth)*float64(h.PageHeight), 0.0
	for k := 0; k < min(n.Count, maxPageObjects); k++ {
		o, err := e.inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: page, Index: k})
		if err != nil {
			continue
		}
		if t, err := e.inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: o.PageObject}); err != nil || t.Type != enums.FPDF_PAGEOBJ_IMAGE {
			continue
		}
		b, err := e.inst.FPDFPageObj_GetBounds(&requests.FPDFPageObj_GetBounds{PageObject: o.PageObject})
		if err != nil {
			continue
		}
		area := float64(b.Right-b.Left) * float64(b.Top-b.Bottom)
		if area < best {
			continue
		}
		m, err := e.inst.FPDFImageObj_GetImageMetadata(&requests.FPDFImageObj_GetImageMetadata{ImageObject: o.PageObject, Page: page})
		if err != nil {
			continue
		}
		best, dpi = area, math.Max(float64(m.ImageMetadata.HorizontalDPI), float64(m.ImageMetadata.VerticalDPI))
	}
	return dpi
}
