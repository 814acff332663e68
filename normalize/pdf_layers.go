package normalize

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	capture "github.com/sieve-dev/sieve/capture/caprec"
)

// Thresholds of the layered rows (in font sizes of the words compared).
const (
	pdfLayerOverlap = 0.5  // words overlapping across this share of the narrower one lie over each other
	pdfLayerBase    = 0.25 // words of one layer have baselines this close
	pdfLayerAtoms   = 400  // a row of more words than this is kept whole (the layer tests compare pairs)
)

// splitLayers cuts a text row (atoms left to right) whose words lie over
// each other into its layers: a stamp's large words drawn across a line
// of text, a watermark over it. Words overlapping by more than
// pdfLayerOverlap of the narrower are not one line ("Dumm PDF y PDF file
// file"); each layer, a run of words of one size on one baseline with no
// such overlap inside, is a line of its own, top to bottom. A layer that
// overlaps no other (a superscript, a footnote mark) stays with the
// largest one. A row without such overlaps, or one whose overlaps the
// layers do not explain, is kept whole.
func splitLayers(row []pdfAtom) [][]pdfAtom {
	if len(row) > pdfLayerAtoms || !overlapping(row) {
		return [][]pdfAtom{row}
	}
	var layers [][]pdfAtom
	for _, a := range row {
		if a.word == nil {
			return [][]pdfAtom{row}
		}
		k := slices.IndexFunc(layers, func(l []pdfAtom) bool { return sameLayer(l[0], a) })
		if k < 0 {
			layers = append(layers, nil)
			k = len(layers) - 1
		}
		layers[k] = append(layers[k], a)
	}
	if len(layers) < 2 || slices.ContainsFunc(layers, overlapping) {
		return [][]pdfAtom{row}
	}
	layers = foldLoneLayers(layers)
	if len(layers) < 2 {
		return [][]pdfAtom{row}
	}
	slices.SortStableFunc(layers, func(a, b []pdfAtom) int { return cmp.Compare(layerTop(a), layerTop(b)) })
	return layers
}

// overlapping reports whether two atoms of a row (left to right) overlap
// horizontally by more than pdfLayerOverlap of the narrower one; each
// atom is compared with the one before it and with the one reaching
// furthest right so far (one pass: rows can hold thousands of glyphs).
func overlapping(row []pdfAtom) bool {
	far := 0
	for i := 1; i < len(row); i++ {
		if layerOverlap(row[i-1], row[i]) || layerOverlap(row[far], row[i]) {
			return true
		}
		if row[i].right() > row[far].right() {
			far = i
		}
	}
	return false
}

// layerOverlap reports whether a and b overlap horizontally by more than
// pdfLayerOverlap of the narrower one.
func layerOverlap(a, b pdfAtom) bool {
	o := min(a.right(), b.right()) - max(a.left(), b.left())
	return o > 0 && o > pdfLayerOverlap*min(a.box.W, b.box.W)
}

// sameLayer reports whether word a goes with the layer started by first:
// the same size (rounded) and baselines within pdfLayerBase sizes.
func sameLayer(first, a pdfAtom) bool {
	return roundSize(first.size) == roundSize(a.size) &&
		math.Abs(first.bottom()-a.bottom()) <= pdfLayerBase*max(first.size, 1)
}

// foldLoneLayers moves each layer that overlaps no word of another layer
// into the layer with the most characters, keeping left-to-right order.
func foldLoneLayers(layers [][]pdfAtom) [][]pdfAtom {
	main := 0
	for i := range layers {
		if layerChars(layers[i]) > layerChars(layers[main]) {
			main = i
		}
	}
	out := [][]pdfAtom{slices.Clone(layers[main])}
	for i, l := range layers {
		switch {
		case i == main:
		case overlapsOthers(layers, i):
			out = append(out, l)
		default:
			out[0] = append(out[0], l...)
		}
	}
	slices.SortStableFunc(out[0], func(a, b pdfAtom) int { return cmp.Compare(a.left(), b.left()) })
	return out
}

// overlapsOthers reports whether a word of layer i overlaps a word of
// another layer (layerOverlap).
func overlapsOthers(layers [][]pdfAtom, i int) bool {
	for k, other := range layers {
		if k == i {
			continue
		}
		for _, a := range layers[i] {
			if slices.ContainsFunc(other, func(b pdfAtom) bool { return layerOverlap(a, b) }) {
				return true
			}
		}
	}
	return false
}

func layerChars(l []pdfAtom) int {
	n := 0
	for _, a := range l {
		n += utf8.RuneCountInString(a.word.text)
	}
	return n
}

func layerTop(l []pdfAtom) float64 {
	top := l[0].top()
	for _, a := range l[1:] {
		top = min(top, a.top())
	}
	return top
}

// atomBox is the box a word takes in the reading order: its own, except
// that a run of low lines ("_"), whose tight box is a hairline under the
// baseline, reaches up to the x-height so that it shares the row of the
// letters beside it ("FUNCTION_USAGE" drawn as three pieces) instead of
// making a row of its own.
func atomBox(w *pdfWord) capture.PDFBox {
	b := w.box
	if w.size <= 0 || b.H >= 0.25*w.size || strings.Trim(w.text, "_") != "" {
		return b
	}
	rise := 0.5 * w.size
	return capture.PDFBox{X: b.X, Y: b.Y - rise, W: b.W, H: b.H + rise}
}
