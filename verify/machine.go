package verify

import (
	"slices"
	"strings"
)

// machineSources says how each block source that is not the document's
// own text was read (ARTIFACT.md: such text is weighed accordingly).
var machineSources = map[string]string{
	"pdf_ocr":         "OCR of a scanned PDF page",
	"canvas_ocr":      "OCR of a canvas's pixels",
	"canvas_scene":    "a canvas's scene graph",
	"canvas_fallback": "a canvas's fallback content",
}

// machineRead is what a grounded check's reason adds when elements
// first..last hold text that was not read from the document's text, so
// that an agent knows the quote it grounds was, say, OCR'd: "" otherwise.
func (v *Verifier) machineRead(first, last int) string {
	els := v.src.Elements()
	var how []string
	for i := max(first, 0); i <= last && i < len(els); i++ {
		s := els[i].Source
		if s == "" {
			continue
		}
		d := machineSources[s]
		if d == "" {
			d = s
		}
		if d = d + " (source " + s + ")"; !slices.Contains(how, d) {
			how = append(how, d)
		}
	}
	if len(how) == 0 {
		return ""
	}
	return "; the evidence was not read from the document's text: it comes from " + strings.Join(how, " and ") + "; weigh it accordingly (OCR can misread letters and figures)"
}
