package capture

// PDF is what capture read from a PDF body (content type application/pdf
// or a body starting with %PDF-): the pages and their text as words on
// lines. Boxes are top-left page coordinates in points, rounded to
// 1/100 pt, on the page as displayed (after /Rotate, relative to the
// CropBox).
type PDF struct {
	PageCount int       `json:"page_count"`
	Pages     []PDFPage `json:"pages"`
}

// PDFPage is one page as displayed.
type PDFPage struct {
	Index    int       `json:"index"`           // 0-based
	Width    float64   `json:"width"`           // points, after /Rotate and CropBox
	Height   float64   `json:"height"`          // points
	Rotation int       `json:"rotation"`        // /Rotate, degrees clockwise: 0, 90, 180, 270
	Lines    []PDFLine `json:"lines"`           // in PDFium's text order
	Error    string    `json:"error,omitempty"` // why the page could not be read
}

// PDFLine is a text line: its words in order.
type PDFLine struct {
	Box   PDFBox    `json:"box"`
	Spans []PDFSpan `json:"spans"`
}

// PDFSpan is one word.
type PDFSpan struct {
	Text string  `json:"text"`
	Size float64 `json:"size"` // font size in points (the largest of its characters)
	Box  PDFBox  `json:"box"`
}

// PDFBox is a top-left box in points.
type PDFBox struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}
