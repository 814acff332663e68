package pdftest

// Doc is a test PDF and the facts a reader must get out of it. Only the
// fields that apply to the document are set.
type Doc struct {
	Name string
	PDF  []byte
	// Order holds strings that must appear in this order in the document's
	// text (reading order); each is unique in the document.
	Order []string
	// Headings in document order, with their levels (1 = h1).
	Headings []Heading
	Tables   []Table
	Lists    []List
	// Hidden text, drawn so that a reader of the page does not see it.
	Hidden []Hidden
	// Visible holds strings that must stay in the content.
	Visible []string
	Links   []Link
	// Bookmarks are the outline's titles; Attachments the embedded files'
	// names; JavaScript the document-level script, "" when none.
	Bookmarks   []string
	Attachments []string
	JavaScript  string
	// Password opens an encrypted document; "" when it is not encrypted.
	Password string
	// Pages is the page count.
	Pages int
	// Words are drawn words with the top-left boxes (points, on the page
	// as displayed) where they must land.
	Words []Word
}

// Heading is a heading's text and level.
type Heading struct {
	Text  string
	Level int
}

// Table is a table's cells, row by row; a merged cell is listed once, at
// its top-left position.
type Table struct {
	Rows, Cols int
	Cells      []Cell
}

// Cell is one table cell: 0-based row and column of its top-left corner,
// its spans (1 when not merged) and whether it is a header cell.
type Cell struct {
	Row, Col         int
	RowSpan, ColSpan int
	Text             string
	Header           bool
}

// List is a list's items, in order.
type List struct {
	Ordered bool
	Items   []string
}

// Hidden is a hidden string and why it cannot be seen. Reason is one of
// normalize's hidden reason codes (pdftest cannot import normalize: its
// tests import pdftest).
type Hidden struct {
	Text   string
	Reason string
}

// Hidden reason codes (normalize.Hidden*).
const (
	ReasonInvisible   = "pdf_invisible"
	ReasonTransparent = "pdf_transparent"
	ReasonSameColor   = "same_color"
	ReasonOffPage     = "pdf_off_page"
	ReasonTiny        = "pdf_tiny"
)

// Link is a link annotation: a URI or an internal jump to Page (1-based).
type Link struct {
	Text string // the visible text under the link
	URI  string
	Page int
}
