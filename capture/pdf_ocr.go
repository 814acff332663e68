package capture

import (
	"context"
	"fmt"
	"image"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/internal/pdf"
)

// Scanned-page OCR budgets. A page with no text layer but something drawn
// on it (a scan, text set as outlines) is rendered by the PDF engine and
// read by Tesseract, like a canvas (canvas.go).
const (
	// PDFOCRDPI is the resolution a page is rendered at when it is not
	// one scanned image, and the most a scan is read at: what Tesseract
	// is trained on (text of 10 pt is some 30 px tall).
	PDFOCRDPI = 300
	// minScanDPI is the least resolution a scan is read at: a coarser
	// scan (a fax) is rendered up to it, as Tesseract misreads glyphs
	// under some 20 px.
	minScanDPI = 150
	// MaxPDFOCRPixels bounds one page's render: a larger page (A3 and
	// up) is rendered at a lower dpi, whole; its dpi says so.
	MaxPDFOCRPixels = 9_000_000
	// minPDFOCRDPI is the least dpi a page is read at; a page that would
	// need less (a poster) is a gap.
	minPDFOCRDPI = 100
	// MaxPDFOCRPages is how many pages of one document are read by OCR;
	// the rest are gaps.
	MaxPDFOCRPages = 100
	// ocrPSM is Tesseract's page segmentation for a scanned page: fully
	// automatic (columns, paragraphs).
	ocrPSM = 3
)

// pdfOCRPageTime bounds one page's Tesseract run (some 5 s at 300 dpi on
// an idle core), pdfOCRDocTime all of a document's. Variables for the
// tests on a loaded machine.
var (
	pdfOCRPageTime = 60 * time.Second
	pdfOCRDocTime  = 10 * time.Minute
)

// readScans reads by OCR each page of rec's PDF that has no text (or only
// text PDFium cannot map, over a scan) but something drawn on it, within
// the budgets: fillBody left the PDF's bytes in c.scans.
func (c *Capturer) readScans(ctx context.Context, rec *Record) {
	b, ok := c.scans.LoadAndDelete(rec)
	if !ok || rec.PDF == nil {
		return
	}
	body := b.([]byte)
	var scans []*PDFPage
	for i := range rec.PDF.Pages {
		if p := &rec.PDF.Pages[i]; scanned(p) {
			scans = append(scans, p)
		}
	}
	if len(scans) == 0 {
		return
	}
	engine, err := ocr.Version()
	langs := scanLanguages(body)
	ctx, cancel := context.WithTimeout(ctx, pdfOCRDocTime)
	defer cancel()
	for k, p := range scans {
		switch {
		case err != nil:
			p.OCR = &PDFPageOCR{Gap: "not read by OCR: " + err.Error()}
		case k >= MaxPDFOCRPages:
			p.OCR = &PDFPageOCR{Gap: fmt.Sprintf("not read by OCR: the document has more than %d pages without a text layer", MaxPDFOCRPages)}
		case ctx.Err() != nil:
			p.OCR = &PDFPageOCR{Gap: fmt.Sprintf("not read by OCR: the document's OCR time (%s) ran out before this page", pdfOCRDocTime)}
		default:
			p.OCR = readScan(ctx, p, body, engine, langs(p))
		}
	}
}

// scanned reports a page that was read and has an image or a path on
// it, and either text PDFium could not map to Unicode over a scan
// (onScan) or no text at all: a page with any other text (an OCR layer
// another tool laid over the scan included) is read from that text, and
// unmapped text elsewhere stays a gap (graph's unmapped_text).
func scanned(p *PDFPage) bool {
	if p.Error != "" || len(p.Images) == 0 && len(p.Rects) == 0 {
		return false
	}
	if p.Unmapped > 0 {
		return onScan(p)
	}
	for _, l := range p.Lines {
		for _, s := range l.Spans {
			if strings.TrimSpace(s.Text) != "" {
				return false
			}
		}
	}
	return true
}

// scanShare is the share of a page an image covers for text on that page
// to lie on a scan: normalize's pdfScanShare, by which invisible text
// over such an image is an OCR layer.
const scanShare = 0.25

// onScan reports a page one image of which covers scanShare of it or
// more: the text PDFium could not map (pages[].unmapped) lies on a scan,
// as a scanner's or OCR tool's text layer does, so the pixels under it
// hold what it says. Unmapped text over blank paper stays a gap.
func onScan(p *PDFPage) bool {
	for _, im := range p.Images {
		w := min(im.X+im.W, p.Width) - max(im.X, 0)
		h := min(im.Y+im.H, p.Height) - max(im.Y, 0)
		if w > 0 && h > 0 && w*h >= scanShare*p.Width*p.Height {
			return true
		}
	}
	return false
}

// scanLanguages is how a page of the PDF in body is to be read: in the
// languages its document names (ocr.Languages: /Lang for every page; the
// CMaps of fonts without Unicode for a page that shows such text) that
// Tesseract has data for, and English.
func scanLanguages(body []byte) func(*PDFPage) ocr.Choice {
	named := pdf.FindLanguages(body)
	have, _ := ocr.InstalledLanguages() // when Tesseract is missing, Read says so
	return func(p *PDFPage) ocr.Choice {
		var cmaps []string
		if p.Unmapped > 0 {
			cmaps = named.CMaps
		}
		return ocr.Choose(ocr.Languages(named.Lang, cmaps), have)
	}
}

// ocrDPI is the dpi a page of w×h points is rendered at: a scan's own
// resolution (scanDPI, 0 when the page is not one image) within
// minScanDPI–PDFOCRDPI, so that Tesseract reads the scanner's pixels
// unresampled, else PDFOCRDPI; lower when that would be over
// MaxPDFOCRPixels; 0 when even minPDFOCRDPI is.
func ocrDPI(w, h, scanDPI float64) int {
	dpi := PDFOCRDPI
	if scanDPI > 0 {
		dpi = min(max(int(math.Round(scanDPI)), minScanDPI), PDFOCRDPI)
	}
	if px := w * h * float64(dpi*dpi) / (72 * 72); px > MaxPDFOCRPixels {
		dpi = int(float64(dpi) * math.Sqrt(MaxPDFOCRPixels/px))
	}
	if dpi < minPDFOCRDPI {
		return 0
	}
	return dpi
}

// readScan renders page p and reads it in lang; its lines become
// Tesseract's.
func readScan(ctx context.Context, p *PDFPage, body []byte, engine string, lang ocr.Choice) *PDFPageOCR {
	if ocrDPI(p.Width, p.Height, minPDFOCRDPI) == 0 {
		return &PDFPageOCR{Gap: fmt.Sprintf("not read by OCR: a %.0f × %.0f pt page is over %d pixels even at %d dpi", p.Width, p.Height, MaxPDFOCRPixels, minPDFOCRDPI)}
	}
	im, err := scanPixels(body, p.Index, p.Width, p.Height, len(p.Rects) == 0)
	if err != nil {
		return &PDFPageOCR{Gap: "not read by OCR: the page could not be rendered: " + err.Error()}
	}
	pctx, cancel := context.WithTimeout(ctx, pdfOCRPageTime)
	defer cancel()
	dpi, scale := im.dpi, float64(im.dpi)/72
	// ReadImage hands Tesseract the box around the ink: a scan's blank
	// margins cost it work and hold no words
	res, err := ocr.ReadImage(pctx, im.gray, ocr.Options{Scale: scale, PSM: ocrPSM, DPI: dpi, Lang: lang.Lang})
	switch {
	case pctx.Err() != nil:
		return &PDFPageOCR{Gap: fmt.Sprintf("not read by OCR: Tesseract took longer than %s", pdfOCRPageTime)}
	case err != nil:
		return &PDFPageOCR{Gap: "not read by OCR: " + err.Error()}
	}
	out := &PDFPageOCR{Engine: engine, DPI: dpi, Dropped: res.Dropped, Lang: lang.Lang, LangGap: lang.Gap()}
	unskewLines(res.Lines, im, scale)
	read := scanLines(res.Lines)
	if hasText(p) {
		at, err := pdf.UnmappedAt(body, p.Index)
		if err != nil {
			at = nil // where is unknown: OCR still gives no word over mapped text
		}
		read = onlyUnmapped(read, p.Lines, at)
		out.Kept = len(p.Lines)
	}
	for _, l := range read {
		out.Words += len(l.Spans)
	}
	p.Lines = append(p.Lines[:out.Kept:out.Kept], read...)
	return out
}

// hasText reports a page whose text layer gave some text.
func hasText(p *PDFPage) bool {
	for _, l := range p.Lines {
		for _, s := range l.Spans {
			if strings.TrimSpace(s.Text) != "" {
				return true
			}
		}
	}
	return false
}

// onlyUnmapped keeps of OCR's lines the words that read text the page's
// text layer does not give: over a place where unmapped text is drawn
// (at: its objects' origins; any place when nil) and not over a word of
// the text layer (lines), visible or hidden, which stays as read.
func onlyUnmapped(read, lines []PDFLine, at []pdf.Box) []PDFLine {
	out := read[:0]
	for _, l := range read {
		spans := l.Spans[:0]
		for _, s := range l.Spans {
			if (at == nil || drawnAt(s.Box, at)) && !overText(s.Box, lines) {
				spans = append(spans, s)
			}
		}
		if len(spans) == 0 {
			continue
		}
		l.Spans, l.Box = spans, spanBounds(spans)
		out = append(out, l)
	}
	return out
}

// drawnAt reports a word box holding an origin of unmapped text: glyphs
// are drawn from their origin on the baseline, so the box is grown by
// half its height to take in origins on its edges.
func drawnAt(b PDFBox, at []pdf.Box) bool {
	pad := b.H / 2
	for _, o := range at {
		if o.X0 >= b.X-pad && o.X0 <= b.X+b.W+pad && o.Y0 >= b.Y-pad && o.Y0 <= b.Y+b.H+pad {
			return true
		}
	}
	return false
}

// overText reports a word box half or more of which a text layer word
// covers.
func overText(b PDFBox, lines []PDFLine) bool {
	for _, l := range lines {
		if !boxesMeet(b, l.Box) {
			continue
		}
		for _, s := range l.Spans {
			x := min(b.X+b.W, s.Box.X+s.Box.W) - max(b.X, s.Box.X)
			y := min(b.Y+b.H, s.Box.Y+s.Box.H) - max(b.Y, s.Box.Y)
			if x > 0 && y > 0 && x*y >= b.W*b.H/2 {
				return true
			}
		}
	}
	return false
}

func boxesMeet(a, b PDFBox) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// spanBounds is the box of spans.
func spanBounds(spans []PDFSpan) PDFBox {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range spans {
		x0, y0 = math.Min(x0, s.Box.X), math.Min(y0, s.Box.Y)
		x1, y1 = math.Max(x1, s.Box.X+s.Box.W), math.Max(y1, s.Box.Y+s.Box.H)
	}
	return roundBox(PDFBox{X: x0, Y: y0, W: x1 - x0, H: y1 - y0})
}

// scanImage is a page as Tesseract reads it.
type scanImage struct {
	gray *image.Gray // faint text erased, despeckled, straightened
	dpi  int         // rendered at
	skew float64     // degrees the page was turned back by (0: not turned)
	w, h int         // pixels
}

// scanPixels is page i (w×h points) as Tesseract reads it: rendered at
// ocrDPI (at the scan's own dpi only when onlyImages: a page with paths
// may be text set as outlines over a coarse background picture, read
// best at PDFOCRDPI), grey, faint text erased, despeckled, and turned
// straight when its lines are skewed by ocr.MinDeskew or more.
func scanPixels(body []byte, i int, w, h float64, onlyImages bool) (scanImage, error) {
	return scanPixelsAt(body, i, w, h, onlyImages, ocr.MinDeskew)
}

// scanPixelsAt is scanPixels straightening a page skewed by minDeskew
// degrees or more (the benchmarks set it to compare reads).
func scanPixelsAt(body []byte, i int, w, h float64, onlyImages bool, minDeskew float64) (scanImage, error) {
	region := pdf.Region{Page: i, Box: pdf.Box{X1: w, Y1: h}}
	img, dpi, err := pdf.RenderScan(body, region, func(scanDPI float64) int {
		if !onlyImages {
			scanDPI = 0
		}
		return ocrDPI(w, h, scanDPI)
	})
	if err != nil {
		return scanImage{}, err
	}
	// faint text erased first: its levelled background is what lets the
	// median skip most of the page
	g := ocr.Despeckle(ocr.HideFaint(img))
	skew := ocr.Skew(g)
	if math.Abs(skew) < minDeskew {
		skew = 0
	} else {
		g = ocr.Straightened(g, skew)
	}
	return scanImage{gray: g, dpi: dpi, skew: skew, w: g.Rect.Dx(), h: g.Rect.Dy()}, nil
}

// unskewLines maps a straightened page's lines back onto the page as it
// is (scale pixels a unit): each word keeps its size about its middle
// mapped back (ocr.Unskew), and a line's box is its words'.
func unskewLines(lines []ocr.Line, im scanImage, scale float64) {
	if im.skew == 0 {
		return
	}
	for i := range lines {
		l := &lines[i]
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for j := range l.Words {
			b := ocr.Unskew(l.Words[j].Box, im.skew, im.w, im.h, scale)
			l.Words[j].Box = b
			x0, y0, x1, y1 = math.Min(x0, b.X), math.Min(y0, b.Y), math.Max(x1, b.X+b.W), math.Max(y1, b.Y+b.H)
		}
		l.Box = ocr.Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
	}
}

// capHeight is the share of the font size a line's typical word box is
// tall (ascenders to baseline, Helvetica-like faces): the font size of an
// OCR'd word is estimated from its line's median word height.
const capHeight = 0.72

// scanLines turns Tesseract's lines into text lines in points. The words
// of a line share its median top and height: a skewed scan's line drifts
// across the page, and the layout would otherwise cut it into rows.
func scanLines(lines []ocr.Line) []PDFLine {
	out := make([]PDFLine, 0, len(lines))
	for _, l := range lines {
		if len(l.Words) == 0 {
			continue
		}
		mid, h := medianBand(l.Words)
		size := math.Round(h/capHeight*2) / 2
		spans := make([]PDFSpan, len(l.Words))
		for i, w := range l.Words {
			spans[i] = PDFSpan{Text: w.Text, Size: size, Box: roundBox(PDFBox{X: w.Box.X, Y: mid - h/2, W: w.Box.W, H: h})}
		}
		out = append(out, PDFLine{Box: roundBox(PDFBox{X: l.Box.X, Y: l.Box.Y, W: l.Box.W, H: l.Box.H}), Spans: spans})
	}
	return out
}

// medianBand is the median middle and height of words' boxes.
func medianBand(ws []ocr.Word) (mid, h float64) {
	mids := make([]float64, len(ws))
	hs := make([]float64, len(ws))
	for i, w := range ws {
		mids[i], hs[i] = w.Box.Y+w.Box.H/2, w.Box.H
	}
	return median(mids), median(hs)
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

// roundBox rounds a box to 1/100 pt, as the text layer's boxes are.
func roundBox(b PDFBox) PDFBox {
	r := func(v float64) float64 { return math.Round(v*100) / 100 }
	return PDFBox{X: r(b.X), Y: r(b.Y), W: r(b.W), H: r(b.H)}
}
