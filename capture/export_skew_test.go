package capture

import (
	"math"

	"github.com/sieve-dev/sieve/internal/ocr"
)

// ScanPixelsStraightened is ScanPixels with the page straightened whatever
// its skew (straighten) or never, and the skew measured.
func ScanPixelsStraightened(body []byte, i int, w, h float64, straighten bool) (bmp []byte, dpi int, err error) {
	at := math.Inf(1)
	if straighten {
		at = 0
	}
	im, err := scanPixelsAt(body, i, w, h, true, at)
	if err != nil {
		return nil, 0, err
	}
	return ocr.BMP(im.gray), im.dpi, nil
}
