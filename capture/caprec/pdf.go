package caprec

// PDF is what capture read from a PDF body (content type application/pdf
// or a body starting with %PDF-): the pages and their text as words on
// lines, plus the document's structure and the facts a security review
// needs. Boxes are top-left page coordinates in points, rounded to
// 1/100 pt, on the page as displayed (after /Rotate, relative to the
// CropBox).
type PDF struct {
	PageCount int       `json:"page_count"`
	Pages     []PDFPage `json:"pages"`
	PDFDoc
}

// PDFDoc is the document-level facts of a PDF.
type PDFDoc struct {
	Tagged bool `json:"tagged"` // some page has a structure tree (pages[].tags)
	// Metadata holds the Info dictionary's non-empty entries among Title,
	// Author, Subject, Keywords, Creator, Producer, CreationDate, ModDate.
	Metadata  map[string]string `json:"metadata,omitempty"`
	Bookmarks []PDFBookmark     `json:"bookmarks,omitempty"` // the outline, depth first
	// JavaScript counts the JavaScript actions wherever they live (the
	// open action, the document's, pages' and annotations' additional
	// actions, annotation actions, the /JavaScript name tree); Scripts
	// says where each is, at most maxPDFScripts of them.
	JavaScript  int             `json:"javascript,omitempty"`
	Scripts     []PDFScript     `json:"scripts,omitempty"`
	Attachments []PDFAttachment `json:"attachments,omitempty"` // embedded files
	Form        string          `json:"form,omitempty"`        // acroform | xfa_full | xfa_foreground; "" when none
}

// PDFPage is one page as displayed.
type PDFPage struct {
	PDFPageInfo
	Lines []PDFLine `json:"lines"`          // in PDFium's text order
	Tags  []PDFTag  `json:"tags,omitempty"` // the structure elements on this page (tagged PDFs), top level first
	// Rects are the page's path objects reduced to their boxes: ruling
	// lines, cell borders and filled backgrounds.
	Rects []PDFRect `json:"rects,omitempty"`
	// Images are the boxes of the page's image objects (the first 1,000):
	// invisible text over an image of itself is an OCR layer, not hidden.
	Images []PDFBox `json:"images,omitempty"`
	// TextDir is the direction most glyphs' baselines run on the displayed
	// page, clockwise degrees: 90 down, 180 upside down, 270 up; 0 (left
	// to right) is omitted. Layout reads the page in that text's frame.
	TextDir int `json:"text_direction,omitempty"`
	// TextMirrored: most glyphs are mirrored (they advance against their
	// baselines, mirror writing), so in TextDir's frame the text runs right
	// to left; layout reads the page mirrored back.
	TextMirrored bool `json:"text_mirrored,omitempty"`
}

// PDFPageInfo is a page without its text: what later stages carry.
type PDFPageInfo struct {
	Index       int             `json:"index"`           // 0-based
	Width       float64         `json:"width"`           // points, after /Rotate and CropBox
	Height      float64         `json:"height"`          // points
	Rotation    int             `json:"rotation"`        // /Rotate, degrees clockwise: 0, 90, 180, 270
	Error       string          `json:"error,omitempty"` // why the page could not be read
	Links       []PDFLink       `json:"links,omitempty"`
	Annotations []PDFAnnotation `json:"annotations,omitempty"` // annotations other than links
	OCR         *PDFPageOCR     `json:"ocr,omitempty"`         // a page without a text layer, read by OCR (capture/pdf_ocr.go)
	// Unmapped counts text objects drawn on the page whose glyphs PDFium
	// could not map to Unicode (no characters in lines): text the page
	// shows but the text layer does not give. 0 (omitted) on most pages.
	Unmapped int `json:"unmapped,omitempty"`
}

// PDFLine is a text line: its words in order.
type PDFLine struct {
	Box   PDFBox    `json:"box"`
	Spans []PDFSpan `json:"spans"`
}

// PDFSpan is one word, or the part of a word that shares one style and
// one marked-content id.
type PDFSpan struct {
	Text   string  `json:"text"`
	Size   float64 `json:"size"` // font size in points (the largest of its characters)
	Box    PDFBox  `json:"box"`
	Font   string  `json:"font,omitempty"`   // font name, subset prefix removed
	Weight int     `json:"weight,omitempty"` // font weight when known: PDFium's estimate from the descriptor (compare within a document), at least 700 when the name says bold
	Italic bool    `json:"italic,omitempty"`
	Color  string  `json:"color,omitempty"`  // fill colour #rrggbb when not black
	Alpha  *int    `json:"alpha,omitempty"`  // fill alpha 0–254 when not opaque (255)
	Render int     `json:"render,omitempty"` // text render mode when not 0 (fill); 3 is invisible
	MCID   *int    `json:"mcid,omitempty"`   // marked-content id (tagged PDFs)
	Space  bool    `json:"space,omitempty"`  // a space character of the page's text comes right before it on its line
}

// PDFTag is one element of a tagged PDF's structure tree, as far as it
// lies on one page.
type PDFTag struct {
	Type       string            `json:"type"`            // structure type: H1, P, L, LI, Lbl, LBody, Table, TR, TH, TD, Figure…
	MCIDs      []int             `json:"mcids,omitempty"` // marked content of this page directly in the element
	Attrs      map[string]string `json:"attrs,omitempty"` // RowSpan, ColSpan, Scope, ListNumbering when present
	Alt        string            `json:"alt,omitempty"`
	ActualText string            `json:"actual_text,omitempty"`
	Lang       string            `json:"lang,omitempty"`
	Kids       []PDFTag          `json:"kids,omitempty"`
}

// PDFRect is a path object's bounding box with its paint (a stroked
// path's box is padded by its line width). A page keeps its first 5,000.
type PDFRect struct {
	Box    PDFBox `json:"box"`
	Fill   string `json:"fill,omitempty"`   // fill colour #rrggbb when filled
	Stroke string `json:"stroke,omitempty"` // stroke colour #rrggbb when stroked
}

// PDFLink is a link annotation.
type PDFLink struct {
	Box    PDFBox `json:"box"`
	Action string `json:"action"`         // uri | goto | remote_goto | launch | javascript | unsupported (PDFium reports JavaScript actions as unsupported)
	URI    string `json:"uri,omitempty"`  // the target of a uri action; the file of launch/remote_goto
	Page   *int   `json:"page,omitempty"` // 0-based target page of a goto
}

// PDFAnnotation is an annotation that is not a link.
type PDFAnnotation struct {
	Subtype  string `json:"subtype"` // text, highlight, widget, fileattachment, …
	Box      PDFBox `json:"box"`
	Contents string `json:"contents,omitempty"`
}

// PDFBookmark is one outline entry.
type PDFBookmark struct {
	Title string `json:"title"`
	Level int    `json:"level"`          // 1 for top-level entries
	Page  *int   `json:"page,omitempty"` // 0-based destination page
}

// PDFScript is where a JavaScript action lives.
type PDFScript struct {
	// Where: open_action | document_aa | page_aa | annotation_action |
	// annotation_aa | names (internal/pdf.Script).
	Where   string `json:"where"`
	Page    *int   `json:"page,omitempty"`    // 0-based page of a page's or an annotation's action
	Event   string `json:"event,omitempty"`   // the additional-actions key (O, C, K, …) or the name-tree name
	Subtype string `json:"subtype,omitempty"` // an annotation's subtype (link, widget, text, …)
}

// PDFAttachment is an embedded file.
type PDFAttachment struct {
	Name string `json:"name"`
}

// PDFBox is a top-left box in points.
type PDFBox struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// PDFInfo is a PDF without its text layer, structure tree and paths: the
// facts later stages carry for pages, boxes and the security report.
type PDFInfo struct {
	PageCount int           `json:"page_count"`
	Pages     []PDFPageInfo `json:"pages"`
	PDFDoc
}

// Info is p without its text layer.
func (p *PDF) Info() *PDFInfo {
	out := &PDFInfo{PageCount: p.PageCount, Pages: make([]PDFPageInfo, len(p.Pages)), PDFDoc: p.PDFDoc}
	for i := range p.Pages {
		out.Pages[i] = p.Pages[i].PDFPageInfo
	}
	return out
}

// PDFPageOCR says that a page without a text layer was read by OCR, or why
// it was not (Gap): its lines are then Tesseract's, in points, and every
// block made of them has source pdf_ocr.
type PDFPageOCR struct {
	Engine  string `json:"engine,omitempty"`  // Tesseract's version line
	DPI     int    `json:"dpi,omitempty"`     // the page was rendered at
	Words   int    `json:"words"`             // words read at or above the confidence floor
	Dropped int    `json:"dropped,omitempty"` // words under the floor (ocr.MinConfidence): not content
	Gap     string `json:"gap,omitempty"`     // why the page was not read
	// Lang is the Tesseract languages the page was read in ("chi_sim+eng"):
	// the ones its document names that are installed, and English.
	Lang string `json:"lang,omitempty"`
	// LangGap says which languages the document names that Tesseract has
	// no data for here, and how to install them: the page was read
	// without them.
	LangGap string `json:"lang_gap,omitempty"`
	// Kept is how many of the page's lines, the first ones, are its text
	// layer's, kept as read: a page whose unmapped text was read by OCR
	// keeps the text that was mapped (the hidden-text rules judge it),
	// and only the lines after these are Tesseract's.
	Kept int `json:"kept,omitempty"`
}
