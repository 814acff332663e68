package sample

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"

	"golang.org/x/text/encoding/charmap"
)

// BigMinBytes is the least size of /big.html: above a 3 MiB body cap.
const BigMinBytes = 3<<20 + 256<<10

// latin1Page is site/latin1.html (kept as UTF-8 in the source tree)
// transcoded to windows-1252, as the page is served.
func latin1Page() ([]byte, error) {
	src, err := site.ReadFile("site/latin1.html")
	if err != nil {
		return nil, err
	}
	return charmap.Windows1252.NewEncoder().Bytes(src)
}

// gzipPage is site/gzip.html compressed; gzip writes no name and no time,
// so the bytes are the same on every request.
func gzipPage() ([]byte, error) {
	src, err := site.ReadFile("site/gzip.html")
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(src); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// bigPage is a harvest log of more than BigMinBytes, the same bytes on
// every call.
var bigPage = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>The complete harvest log — Kettle Ridge Tea Cooperative</title></head>\n<body>\n<main>\n<h1>The complete harvest log</h1>\n")
	for day := 1; b.Len() < BigMinBytes; day++ {
		fmt.Fprintf(&b, "<section>\n<h2>Day %d</h2>\n", day)
		for n := 0; n < 20; n++ {
			writeBasket(&b, day*20+n)
		}
		b.WriteString("</section>\n")
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes()
})

var (
	pluckers = []string{"R. Amadi", "S. Brandt", "A. Velasquez-Roe", "T. Kettering", "M. Ostrander", "J. Nakashima-Boyd", "L. Okonkwo"}
	grades   = []string{"premium", "standard", "coarse"}
	weather  = []string{"under mist", "in full sun", "after a light shower", "in the afternoon wind"}
)

func writeBasket(b *bytes.Buffer, i int) {
	terrace := fmt.Sprintf("%c%d", "UL"[i%2], i%9+1)
	grams := 3000 + (i*7919)%2600
	fmt.Fprintf(b, "<p>Basket %d from terrace %s: %d grams of %s leaf, plucked %s by %s and weighed in front of the plucker at the packing shed.</p>\n",
		i, terrace, grams, grades[i%len(grades)], weather[i%len(weather)], pluckers[i%len(pluckers)])
}

// pngImage is a small picture of green terraces.
func pngImage() ([]byte, error) {
	img := image.NewRGBA(image.Rect(0, 0, 16, 9))
	for y := 0; y < 9; y++ {
		for x := 0; x < 16; x++ {
			img.Set(x, y, color.RGBA{R: 40, G: uint8(90 + 15*y), B: uint8(40 + 2*x), A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
