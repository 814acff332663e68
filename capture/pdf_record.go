package capture

import "github.com/sieve-dev/sieve/capture/caprec"

// What capture reads from a PDF body: the types live in package caprec
// (see record.go).
type (
	// PDF is what capture read from a PDF body.
	PDF = caprec.PDF
	// PDFDoc is the document-level facts of a PDF.
	PDFDoc = caprec.PDFDoc
	// PDFPage is one page as displayed.
	PDFPage = caprec.PDFPage
	// PDFPageInfo is a page without its text: what later stages carry.
	PDFPageInfo = caprec.PDFPageInfo
	// PDFPageOCR says that a page without a text layer was read by OCR, or why not.
	PDFPageOCR = caprec.PDFPageOCR
	// PDFLine is a text line: its words in order.
	PDFLine = caprec.PDFLine
	// PDFSpan is one word, or the part of a word that shares one style.
	PDFSpan = caprec.PDFSpan
	// PDFTag is one element of a tagged PDF's structure tree on one page.
	PDFTag = caprec.PDFTag
	// PDFRect is a path object's bounding box with its paint.
	PDFRect = caprec.PDFRect
	// PDFLink is a link annotation.
	PDFLink = caprec.PDFLink
	// PDFAnnotation is an annotation that is not a link.
	PDFAnnotation = caprec.PDFAnnotation
	// PDFBookmark is one outline entry.
	PDFBookmark = caprec.PDFBookmark
	// PDFScript is where a JavaScript action lives.
	PDFScript = caprec.PDFScript
	// PDFAttachment is an embedded file.
	PDFAttachment = caprec.PDFAttachment
	// PDFBox is a top-left box in points.
	PDFBox = caprec.PDFBox
	// PDFInfo is a PDF without its text layer, structure tree and paths.
	PDFInfo = caprec.PDFInfo
)
