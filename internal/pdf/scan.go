package pdf

import (
	"fmt"
	"image"
	"math"
	"time"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
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
	if img := e.scanImage(doc, r, dpi); img != nil {
		return img, dpi, nil
	}
	img, err := e.renderGray(doc, r, dpi)
	return img, dpi, err
}

// scanImage is page r.Page's one image, decoded (grey), when drawing the
// page at dpi would draw nothing but that image, pixel for pixel: the
// region is the whole page, the page is not turned, and its one object is
// an opaque, unclipped, upright 8-bit grey or 24-bit colour image that
// fills the page's box and has as many pixels as the render would. Else
// nil, and the page is rendered. The decoded scan is what the render
// would resample at some 1.0001×, and it costs a third of the render (the
// page's RGBA bitmap is some 35 MB at 300 dpi, drawn in WebAssembly).
func (e *engine) scanImage(doc references.FPDF_DOCUMENT, r Region, dpi int) *image.Gray {
	loaded, err := e.inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: r.Page})
	if err != nil {
		return nil
	}
	defer e.inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: loaded.Page})
	page := requests.Page{ByReference: &loaded.Page}
	obj, ok := e.pageImage(page, r, dpi)
	if !ok {
		return nil
	}
	bm, err := e.inst.FPDFImageObj_GetBitmap(&requests.FPDFImageObj_GetBitmap{ImageObject: obj})
	if err != nil {
		return nil
	}
	defer e.inst.FPDFBitmap_Destroy(&requests.FPDFBitmap_Destroy{Bitmap: bm.Bitmap})
	return e.greyBitmap(bm.Bitmap)
}

// pageImage is the page's one object when it is an image drawn as
// scanImage says, else false.
func (e *engine) pageImage(page requests.Page, r Region, dpi int) (references.FPDF_PAGEOBJECT, bool) {
	var none references.FPDF_PAGEOBJECT
	rot, err := e.inst.FPDFPage_GetRotation(&requests.FPDFPage_GetRotation{Page: page})
	if err != nil || rot.PageRotation != enums.FPDF_PAGE_ROTATION_NONE {
		return none, false
	}
	n, err := e.inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: page})
	if err != nil || n.Count != 1 {
		return none, false
	}
	o, err := e.inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: page, Index: 0})
	if err != nil {
		return none, false
	}
	obj := o.PageObject
	if t, err := e.inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: obj}); err != nil || t.Type != enums.FPDF_PAGEOBJ_IMAGE {
		return none, false
	}
	if tr, err := e.inst.FPDFPageObj_HasTransparency(&requests.FPDFPageObj_HasTransparency{PageObject: obj}); err != nil || tr.HasTransparency {
		return none, false
	}
	if clip, err := e.inst.FPDFPageObj_GetClipPath(&requests.FPDFPageObj_GetClipPath{PageObject: obj}); err == nil {
		if c, err := e.inst.FPDFClipPath_CountPaths(&requests.FPDFClipPath_CountPaths{ClipPath: clip.ClipPath}); err == nil && c.Count > 0 {
			return none, false
		}
	}
	m, err := e.inst.FPDFImageObj_GetImageMetadata(&requests.FPDFImageObj_GetImageMetadata{ImageObject: obj, Page: page})
	if err != nil || !plainImage(m.ImageMetadata.BitsPerPixel, m.ImageMetadata.Colorspace) {
		return none, false
	}
	mx, err := e.inst.FPDFPageObj_GetMatrix(&requests.FPDFPageObj_GetMatrix{PageObject: obj})
	if err != nil {
		return none, false
	}
	bb, err := e.inst.FPDF_GetPageBoundingBox(&requests.FPDF_GetPageBoundingBox{Page: page})
	if err != nil {
		return none, false
	}
	box := bb.Rect
	if !fillsPage(mx.Matrix, box, r, dpi, m.ImageMetadata.Width, m.ImageMetadata.Height) {
		return none, false
	}
	return obj, true
}

// plainImage reports an image whose decoded pixels are its colours as
// drawn: 8-bit grey or 24-bit colour in a grey or RGB space (not a mask,
// a palette, a separation or CMYK).
func plainImage(bpp uint, cs enums.FPDF_COLORSPACE) bool {
	switch cs {
	case enums.FPDF_COLORSPACE_DEVICEGRAY, enums.FPDF_COLORSPACE_CALGRAY:
		return bpp == 8
	case enums.FPDF_COLORSPACE_DEVICERGB, enums.FPDF_COLORSPACE_CALRGB:
		return bpp == 24
	case enums.FPDF_COLORSPACE_ICCBASED:
		return bpp == 8 || bpp == 24
	}
	return false
}

// fillsPage reports an upright image (matrix m: no turn, no flip) that
// covers the page's box, and region r is that whole box, to within half
// a pixel at dpi, with w×h pixels: the render's own size.
func fillsPage(m structs.FPDF_FS_MATRIX, box structs.FPDF_FS_RECTF, r Region, dpi int, w, h uint) bool {
	px := 72 / float64(dpi) // points a pixel
	near := func(a, b float64) bool { return math.Abs(a-b) <= px/2 }
	bw, bh := float64(box.Right-box.Left), float64(box.Top-box.Bottom)
	if m.B != 0 || m.C != 0 || m.A <= 0 || m.D <= 0 {
		return false
	}
	if !near(r.Box.X0, 0) || !near(r.Box.Y0, 0) || !near(r.Box.X1, bw) || !near(r.Box.Y1, bh) {
		return false
	}
	if !near(float64(m.E), float64(box.Left)) || !near(float64(m.F), float64(box.Bottom)) ||
		!near(float64(m.A), bw) || !near(float64(m.D), bh) {
		return false
	}
	return math.Abs(float64(w)-bw/px) <= 1 && math.Abs(float64(h)-bh/px) <= 1
}

// greyBitmap is a PDFium bitmap's luminance (color.GrayModel's weights,
// as greyOver), nil for a format it does not know.
func (e *engine) greyBitmap(bm references.FPDF_BITMAP) *image.Gray {
	f, errF := e.inst.FPDFBitmap_GetFormat(&requests.FPDFBitmap_GetFormat{Bitmap: bm})
	w, errW := e.inst.FPDFBitmap_GetWidth(&requests.FPDFBitmap_GetWidth{Bitmap: bm})
	h, errH := e.inst.FPDFBitmap_GetHeight(&requests.FPDFBitmap_GetHeight{Bitmap: bm})
	st, errS := e.inst.FPDFBitmap_GetStride(&requests.FPDFBitmap_GetStride{Bitmap: bm})
	if errF != nil || errW != nil || errH != nil || errS != nil || w.Width <= 0 || h.Height <= 0 {
		return nil
	}
	n := map[enums.FPDF_BITMAP_FORMAT]int{enums.FPDF_BITMAP_FORMAT_GRAY: 1, enums.FPDF_BITMAP_FORMAT_BGR: 3, enums.FPDF_BITMAP_FORMAT_BGRX: 4}[f.Format]
	if n == 0 || st.Stride < n*w.Width {
		return nil
	}
	buf, err := e.inst.FPDFBitmap_GetBuffer(&requests.FPDFBitmap_GetBuffer{Bitmap: bm})
	if err != nil || len(buf.Buffer) < st.Stride*(h.Height-1)+n*w.Width {
		return nil
	}
	// buf is a view of the engine's memory, freed with the bitmap: copied
	out := image.NewGray(image.Rect(0, 0, w.Width, h.Height))
	for y := range h.Height {
		row, o := buf.Buffer[y*st.Stride:], out.Pix[y*out.Stride:(y+1)*out.Stride]
		if n == 1 {
			copy(o, row)
			continue
		}
		for x := range o {
			p := row[n*x : n*x+3 : n*x+3]
			o[x] = uint8((19595*uint32(p[2]) + 38470*uint32(p[1]) + 7471*uint32(p[0]) + 1<<15) >> 16)
		}
	}
	return out
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
