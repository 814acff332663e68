package pdftest

import (
	"fmt"
	"strings"
)

// RotatedLines are the lines Rotated draws, top to bottom in their own
// frame.
var RotatedLines = []string{
	"First line of the turned page",
	"Second line reads after it",
	"Third line closes the page",
}

// Rotated is a one-page document whose page has /Rotate rotate (0, 90,
// 180 or 270); with crop its CropBox cuts a margin off the MediaBox; with
// turn the text itself is drawn turned by turn degrees (a text matrix
// that runs backwards for 180). A reader of the text in its own frame
// reads RotatedLines in order.
func Rotated(rotate, turn int, crop bool) (Doc, error) {
	f := newPDF()
	f.AddPage()
	if rotate != 0 {
		f.SetPageBox("trim", 0, 0, a4W, a4H) // replaced by /Rotate below
	}
	if crop {
		f.SetPageBox("crop", 20, 30, a4W-40, a4H-60)
	}
	if turn != 0 {
		f.TransformBegin()
		f.TransformRotate(float64(-turn), a4W/2, a4H/2) // fpdf turns counterclockwise
	}
	y := 200.0
	for _, l := range RotatedLines {
		f.Text(margin+40, y, l)
		y += 2 * leading
	}
	if turn != 0 {
		f.TransformEnd()
	}
	data, err := output(f)
	if err != nil || rotate == 0 {
		return Doc{Name: "rotated", PDF: data, Pages: 1, Order: RotatedLines}, err
	}
	s := string(data)
	box := fmt.Sprintf("/TrimBox [0.00 %.2f %.2f %.2f]", 0.0, a4W, a4H)
	if strings.Count(s, box) != 1 {
		return Doc{}, fmt.Errorf("pdftest: want one %q in fpdf's output", box)
	}
	rot := fmt.Sprintf("/Rotate %d", rotate)
	s = strings.Replace(s, box, rot+strings.Repeat(" ", len(box)-len(rot)), 1)
	return Doc{Name: "rotated", PDF: []byte(s), Pages: 1, Order: RotatedLines}, nil
}

// Mirrored is a one-page document whose text is drawn mirrored: flipped
// left to right (vertical false: its glyphs advance leftwards, each drawn
// back to front) or top to bottom (vertical true: the lines stack upwards
// with upside-down glyphs), then the whole turned by turn degrees. A
// reader holding the page to a mirror reads RotatedLines in order.
func Mirrored(turn int, vertical bool) (Doc, error) {
	f := newPDF()
	f.AddPage()
	f.TransformBegin()
	if turn != 0 {
		f.TransformRotate(float64(-turn), a4W/2, a4H/2) // fpdf turns counterclockwise
	}
	if vertical {
		f.TransformMirrorVertical(a4H / 2)
	} else {
		f.TransformMirrorHorizontal(a4W / 2)
	}
	y := 200.0
	for _, l := range RotatedLines {
		f.Text(margin+40, y, l)
		y += 2 * leading
	}
	f.TransformEnd()
	data, err := output(f)
	return Doc{Name: "mirrored", PDF: data, Pages: 1, Order: RotatedLines}, err
}

// CopiesLines are the lines of each page of Copies.
var CopiesLines = []string{
	"The first line of a page that every page repeats word for word",
	"runs on into its second line at the body's own line spacing",
	"and its third line, the last one within the page's top band,",
	"before the paragraph goes on below the band where the body",
	"of the page is, and ends on the fifth line of the copy.",
}

// Copies is a document of pages that each hold the same paragraph,
// starting at the top of the page (copies of one text, one per page): its
// first three lines repeat in the top band of every page like a running
// header, but run on into the paragraph below the band.
func Copies(pages int) (Doc, error) {
	f := newPDF()
	for range pages {
		f.AddPage()
		y := 60.0
		for _, l := range CopiesLines {
			f.Text(margin, y, l)
			y += leading
		}
	}
	data, err := output(f)
	return Doc{Name: "copies", PDF: data, Pages: pages}, err
}
