package pdftest

import (
	"bytes"

	"github.com/go-pdf/fpdf"
)

// Marker is a filled rectangle of one colour with a word drawn on it: a
// crop of the word must show the colour, and no other marker's.
type Marker struct {
	Page  int // 0-based
	Word  string
	Color [3]uint8
}

// Markers is a three-page PDF of coloured marker boxes, each with a word on
// it, laid out like Sample: page 1 plain A4 with three markers, page 2 with
// /Rotate 90, page 3 with the offset CropBox Crop (and a decoy marker
// outside it, which the displayed page does not show).
func Markers() ([]byte, []Marker, error) {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	f.SetCatalogSort(true)
	f.SetAutoPageBreak(false, 0)
	f.SetFont("Helvetica", "", 14)
	var ms []Marker
	mark := func(page int, x, y float64, word string, c [3]uint8) {
		f.SetFillColor(int(c[0]), int(c[1]), int(c[2]))
		f.Rect(x, y, 200, 50, "F")
		f.SetTextColor(0, 0, 0)
		f.Text(x+24, y+31, word)
		ms = append(ms, Marker{Page: page, Word: word, Color: c})
	}
	f.AddPage()
	mark(0, 60, 80, "Alpha", [3]uint8{230, 0, 0})
	mark(0, 60, 300, "Bravo", [3]uint8{0, 170, 0})
	mark(0, 320, 600, "Charlie", [3]uint8{0, 0, 230})

	f.AddPage()
	f.SetPageBox("trim", 0, 0, a4W, a4H) // replaced by /Rotate 90
	mark(1, 72, 80, "Delta", [3]uint8{230, 0, 230})

	f.AddPage()
	f.SetPageBox("trim", 0, 0, a4W, a4H) // blanked
	f.SetPageBox("crop", Crop[0], Crop[1], Crop[2]-Crop[0], Crop[3]-Crop[1])
	mark(2, 100, 450, "Echo", [3]uint8{0, 200, 200})
	// Outside the CropBox (fpdf's y from the media box's top): not shown.
	f.SetFillColor(250, 200, 0)
	f.Rect(400, 100, 150, 50, "F")

	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		return nil, nil, err
	}
	out, err := rotatePage2(buf.Bytes())
	return out, ms, err
}
