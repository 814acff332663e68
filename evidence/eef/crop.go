package eef

import "github.com/sieve-dev/sieve/graph"

// cropLimits says whether crops of the document can have pixels (crop/):
// a PDF with boxes can (PDFium renders the source bytes the fingerprint
// binds), a rendered page with boxes and a screenshot can (cut from the
// picture the boxes were measured on); otherwise crops are descriptors
// only, and the limit says why.
func cropLimits(rec *graph.Record, boxes bool, limits *[]Limit) bool {
	var why string
	switch {
	case isPDF(rec) && boxes && rec.SourceFingerprint != "":
		return true
	case isPDF(rec):
		why = "crops of this PDF are descriptors only: it has no positioned text or no source fingerprint to render from"
	case rec.Provenance.Screenshot != nil && boxes:
		return true
	case rec.Provenance.Tier == "render":
		why = "crops of this page are descriptors only: the render kept no screenshot (capture --blobs DIR keeps one) or laid out no boxes"
	default:
		why = "a web page has no fixed page raster: crops are not supported"
	}
	*limits = append(*limits, Limit{"no_crop", why})
	return false
}
