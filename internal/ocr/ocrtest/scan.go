// Package ocrtest makes scanned PDFs for the OCR tests and benchmarks: a
// text PDF is printed by fpdf, rendered by the PDF engine at a scanner's
// dpi, skewed and speckled like a sheet through a feeder, and wrapped as an
// image-only PDF (no text layer), so the words it shows are known. It also
// scores a reading against them.
package ocrtest

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"

	"github.com/go-pdf/fpdf"

	"github.com/sieve-dev/sieve/internal/pdf"
)

// Page is one page of a report: a heading and its paragraphs.
type Page struct {
	Heading string
	Paras   []string
}

// Report is the two-page report the scans show.
var Report = []Page{
	{Heading: "Quarterly Report on Regional Deliveries", Paras: []string{
		"In the third quarter the northern depot shipped 15,420 parcels, an increase of 12 percent over the same period last year. Most of the growth came from two new retail customers in the harbour district.",
		"Average delivery time fell from 3.4 days to 2.9 days after the second sorting line opened in August. Complaints about late parcels dropped to 41, the lowest figure since the depot opened.",
		"The southern depot lost one of its four vans to an accident in September. No one was hurt, and a leased replacement has been in service since the end of the month.",
	}},
	{Heading: "Costs and Outlook", Paras: []string{
		"Fuel costs rose by 7 percent, while wages stayed within the budget agreed in January. Maintenance of the older vans cost 18,900 euros, which is more than planned.",
		"For the fourth quarter we expect the usual seasonal peak in December. Three temporary drivers will be hired from November, and the warehouse will open on Saturdays until Christmas.",
		"The board is asked to approve the purchase of two electric vans before the end of the year, so that the depot can meet the city's new emission rules in the spring.",
	}},
}

// Words is the report's words in reading order.
func Words(pages []Page) []string {
	var out []string
	for _, p := range pages {
		out = append(out, strings.Fields(p.Heading)...)
		for _, para := range p.Paras {
			out = append(out, strings.Fields(para)...)
		}
	}
	return out
}

// fixedDate keeps fpdf's output the same from run to run.
var fixedDate = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TextPDF prints pages as an A4 PDF with a text layer: a bold heading of
// size+5 pt and paragraphs of size pt in family (Helvetica, Times or
// Courier), one-inch margins.
func TextPDF(pages []Page, family string, size float64) ([]byte, error) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	f.SetCatalogSort(true)
	f.SetAutoPageBreak(false, 0)
	f.SetMargins(72, 72, 72)
	for _, p := range pages {
		f.AddPage()
		f.SetFont(family, "B", size+5)
		f.SetXY(72, 72)
		f.MultiCell(0, (size+5)*1.4, p.Heading, "", "L", false)
		f.SetFont(family, "", size)
		for _, para := range p.Paras {
			f.Ln(size * 0.8)
			f.MultiCell(0, size*1.4, para, "", "L", false)
		}
	}
	var buf bytes.Buffer
	err := f.Output(&buf)
	return buf.Bytes(), err
}

// ScanOptions shape a scan.
type ScanOptions struct {
	DPI   int     // resolution of the page images
	Skew  float64 // degrees, counter-clockwise; alternates sign from page to page
	Noise float64 // standard deviation of the grey noise (0–255 levels); sigma/10000 of the pixels are black or white specks
	Seed  uint64
}

// Scan renders every page of src at o.DPI, skews and speckles it, and
// returns an image-only PDF of the same page sizes: each page one grey
// JPEG, no text.
func Scan(src []byte, o ScanOptions) ([]byte, error) {
	doc, err := pdf.Parse(src)
	if err != nil {
		return nil, err
	}
	regions := make([]pdf.Region, len(doc.Pages))
	for i, p := range doc.Pages {
		regions[i] = pdf.Region{Page: i, Box: pdf.Box{X1: p.Width, Y1: p.Height}}
	}
	imgs, errs, err := pdf.Render(src, regions, o.DPI)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(o.Seed, 1))
	f := fpdf.NewCustom(&fpdf.InitType{UnitStr: "pt", Size: fpdf.SizeType{Wd: doc.Pages[0].Width, Ht: doc.Pages[0].Height}})
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	f.SetCatalogSort(true)
	f.SetAutoPageBreak(false, 0)
	for i, p := range doc.Pages {
		if errs[i] != nil {
			return nil, errs[i]
		}
		skew := o.Skew
		if i%2 == 1 {
			skew = -skew
		}
		g := Speckle(Rotate(toGray(imgs[i]), skew), o.Noise, rng)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, g, &jpeg.Options{Quality: 85}); err != nil {
			return nil, err
		}
		name := fmt.Sprintf("scan%d", i)
		opt := fpdf.ImageOptions{ImageType: "JPG"}
		f.RegisterImageOptionsReader(name, opt, &buf)
		f.AddPageFormat("P", fpdf.SizeType{Wd: p.Width, Ht: p.Height})
		f.ImageOptions(name, 0, 0, p.Width, p.Height, false, opt, 0, "")
	}
	var out bytes.Buffer
	err = f.Output(&out)
	return out.Bytes(), err
}

func toGray(img *image.RGBA) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := img.PixOffset(x, y)
			r, g, bl := uint32(img.Pix[i]), uint32(img.Pix[i+1]), uint32(img.Pix[i+2])
			out.Pix[out.PixOffset(x, y)] = uint8((19595*r + 38470*g + 7471*bl + 1<<15) >> 16)
		}
	}
	return out
}

// Rotate turns g by deg degrees counter-clockwise about its centre
// (bilinear), on white paper.
func Rotate(g *image.Gray, deg float64) *image.Gray {
	if deg == 0 {
		return g
	}
	b := g.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewGray(b)
	sin, cos := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 255
		}
		return float64(g.Pix[y*g.Stride+x])
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cos*dx-sin*dy+cx, sin*dx+cos*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := (at(x0, y0)*(1-fx)+at(x0+1, y0)*fx)*(1-fy) + (at(x0, y0+1)*(1-fx)+at(x0+1, y0+1)*fx)*fy
			out.Pix[y*out.Stride+x] = uint8(math.Round(v))
		}
	}
	return out
}

// Speckle adds grey noise of standard deviation sigma, and black and white
// specks on sigma/10000 of the pixels, in place.
func Speckle(g *image.Gray, sigma float64, rng *rand.Rand) *image.Gray {
	if sigma <= 0 {
		return g
	}
	specks := sigma / 10000
	for i, v := range g.Pix {
		switch r := rng.Float64(); {
		case r < specks/2:
			g.Pix[i] = 0
		case r < specks:
			g.Pix[i] = 255
		default:
			g.Pix[i] = uint8(max(0, min(255, math.Round(float64(v)+rng.NormFloat64()*sigma))))
		}
	}
	return g
}

// WordAccuracy is the share of want's words that got, in order, reads
// exactly (the longest common subsequence of the two word lists, over
// len(want)): a word missed, split, merged or misspelt counts against it;
// case and punctuation count.
func WordAccuracy(want []string, got string) float64 {
	if len(want) == 0 {
		return 1
	}
	return float64(lcs(want, strings.FieldsFunc(got, unicode.IsSpace))) / float64(len(want))
}

func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			default:
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
