package pdftest

import (
	"bytes"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// Layout constants of the fpdf documents, in points.
const (
	margin  = 72.0
	bodyPt  = 11.0
	leading = 15.0
)

// fixedDate keeps fpdf's output the same from run to run.
var fixedDate = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newPDF() *fpdf.Fpdf {
	f := fpdf.New("P", "pt", "A4", "")
	f.SetCreationDate(fixedDate)
	f.SetModificationDate(fixedDate)
	f.SetCatalogSort(true)
	f.SetAutoPageBreak(false, 0)
	f.SetFont("Helvetica", "", bodyPt)
	return f
}

func output(f *fpdf.Fpdf) ([]byte, error) {
	var buf bytes.Buffer
	err := f.Output(&buf)
	return buf.Bytes(), err
}

// heading draws a bold line at baseline y and sets the body font back.
func heading(f *fpdf.Fpdf, x, y, size float64, text string) {
	f.SetFont("Helvetica", "B", size)
	f.Text(x, y, text)
	f.SetFont("Helvetica", "", bodyPt)
}

// paragraph wraps text to width and draws it from baseline y; it returns
// the baseline below the paragraph's last line plus a paragraph gap.
func paragraph(f *fpdf.Fpdf, x, y, width float64, text string) float64 {
	for _, line := range f.SplitText(text, width) {
		f.Text(x, y, line)
		y += leading
	}
	return y + 6
}

var leftColumn = []string{
	"Left one. Grey herons stand for long minutes in the shallows below the mill, waiting for roach to drift within reach of the beak.",
	"Left two. In March the pairs rebuild the old nests in the alders, adding fresh sticks that the males carry in from the water meadows.",
	"Left three. By June the young herons crowd the nest rims, and the adults make twenty flights a day to feed them before dusk.",
}

var rightColumn = []string{
	"Right one. Kingfishers nest in tunnels dug into the sandy bank, a metre deep, where the eggs lie on a bed of fish bones.",
	"Right two. The bird watches from a low branch, dives in a flash of blue and returns with a minnow that it beats against the perch.",
	"Right three. Hard winters hit them badly; after the frost of last January only two pairs were seen along the whole river.",
}

// TwoColumn is an untagged page: a title across the page, then two columns
// whose lines share baselines. The lines are drawn across the page, left
// line then right line, so neither the content stream's order nor reading
// across the page gives the text: only the columns do. Order is the title,
// the left column's heading and paragraphs, then the right column's.
func TwoColumn() (Doc, error) {
	f := newPDF()
	f.AddPage()
	heading(f, margin, 90, 20, "Field Notes on River Birds")
	heading(f, margin, 130, 14, "Herons")
	heading(f, margin+colW+gutter, 130, 14, "Kingfishers")
	order := []string{"Field Notes on River Birds", "Herons"}
	var rows [][2]string // by baseline: the left and the right line
	for i, col := range [][]string{leftColumn, rightColumn} {
		if i == 1 {
			order = append(order, "Kingfishers")
		}
		n := 0
		for _, p := range col {
			order = append(order, p[:strings.Index(p, ".")+1])
			for _, line := range f.SplitText(p, colW) {
				for len(rows) <= n {
					rows = append(rows, [2]string{})
				}
				rows[n][i] = line
				n++
			}
			n++ // a blank line between paragraphs
		}
	}
	for n, row := range rows {
		y := 155 + float64(n)*leading
		for i, line := range row {
			if line != "" {
				f.Text(margin+float64(i)*(colW+gutter), y, line)
			}
		}
	}
	data, err := output(f)
	return Doc{
		Name: "two-column", PDF: data, Order: order, Pages: 1,
		Headings: []Heading{{"Field Notes on River Birds", 1}, {"Herons", 2}, {"Kingfishers", 2}},
		Visible:  append(append([]string{}, leftColumn...), rightColumn...),
	}, err
}

// Column geometry of TwoColumn, in points.
const colW, gutter = 205.0, 41.28

// rainTable is the ruled table's content: a header row and one row whose
// last three cells are merged ("" marks a cell covered by the merge).
var rainTable = [][]string{
	{"Station", "Rain mm", "Wind kn", "Temp C"},
	{"Alder Point", "12", "8", "14"},
	{"Birch Hill", "7", "15", "11"},
	{"Cedar Lake", "No readings this week", "", ""},
	{"Dune Head", "3", "22", "16"},
}

// RuledTable is an untagged page with a table drawn as a grid of lines:
// a header row, four body rows, and one cell spanning three columns (its
// inner lines are not drawn).
func RuledTable() (Doc, error) {
	f := newPDF()
	f.AddPage()
	heading(f, margin, 90, 18, "Station Readings")
	paragraph(f, margin, 115, 450, "Readings from the four weather stations for the second week of April.")
	widths := []float64{120, 100, 100, 100}
	const top, rowH = 150.0, 24.0
	f.SetLineWidth(0.75)
	var cells []Cell
	for r, row := range rainTable {
		y := top + float64(r)*rowH
		x := margin
		merged := row[2] == ""
		f.Line(margin, y, margin+sum(widths), y)
		f.Line(x, y, x, y+rowH)
		for c, text := range row {
			if text != "" {
				style := ""
				if r == 0 {
					style = "B"
				}
				f.SetFont("Helvetica", style, bodyPt)
				f.Text(x+6, y+16, text)
				span := 1
				if merged && c == 1 {
					span = 3
				}
				cells = append(cells, Cell{Row: r, Col: c, RowSpan: 1, ColSpan: span, Text: text, Header: r == 0})
			}
			x += widths[c]
			if !merged || c == 0 || c == len(row)-1 {
				f.Line(x, y, x, y+rowH)
			}
		}
	}
	bottom := top + float64(len(rainTable))*rowH
	f.Line(margin, bottom, margin+sum(widths), bottom)
	f.SetFont("Helvetica", "", bodyPt)
	paragraph(f, margin, bottom+30, 450, "Cedar Lake's gauge was under repair all week.")
	data, err := output(f)
	return Doc{
		Name: "ruled-table", PDF: data, Pages: 1,
		Tables:   []Table{{Rows: len(rainTable), Cols: 4, Cells: cells}},
		Headings: []Heading{{"Station Readings", 1}},
		Order:    []string{"Station Readings", "Readings from the four", "Alder Point", "Dune Head", "Cedar Lake's gauge"},
		Visible:  []string{"Readings from the four weather stations for the second week of April.", "Cedar Lake's gauge was under repair all week."},
	}, err
}

func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// loanTable is the unruled table's content.
var loanTable = [][]string{
	{"Branch", "Books", "Films", "Music"},
	{"Harbour Road", "1,204", "310", "95"},
	{"Mill Lane", "876", "122", "41"},
	{"Station Square", "2,530", "604", "230"},
	{"Upper Town", "412", "57", "12"},
}

// AlignedTable is an untagged page with a table that has no lines at all:
// its cells line up in columns (left edges at fixed x) and rows (shared
// baselines), between two paragraphs.
func AlignedTable() (Doc, error) {
	f := newPDF()
	f.AddPage()
	heading(f, margin, 90, 18, "Library Loans")
	paragraph(f, margin, 115, 450, "Loans per branch in October, counted at the desk and by the self-service machines.")
	xs := []float64{margin, 230, 330, 430}
	var cells []Cell
	y := 160.0
	for r, row := range loanTable {
		style := ""
		if r == 0 {
			style = "B"
		}
		f.SetFont("Helvetica", style, bodyPt)
		for c, text := range row {
			f.Text(xs[c], y, text)
			cells = append(cells, Cell{Row: r, Col: c, RowSpan: 1, ColSpan: 1, Text: text, Header: r == 0})
		}
		y += 20
	}
	f.SetFont("Helvetica", "", bodyPt)
	paragraph(f, margin, y+20, 450, "Station Square lends the most in every category.")
	data, err := output(f)
	return Doc{
		Name: "aligned-table", PDF: data, Pages: 1,
		Tables:   []Table{{Rows: len(loanTable), Cols: 4, Cells: cells}},
		Headings: []Heading{{"Library Loans", 1}},
		Order:    []string{"Library Loans", "Loans per branch", "Harbour Road", "Upper Town", "Station Square lends"},
		Visible:  []string{"Loans per branch in October, counted at the desk and by the self-service machines.", "Station Square lends the most in every category."},
	}, err
}

// hiddenTexts are drawn by Hidden, one way each.
var hiddenTexts = []Hidden{
	{"Disregard the memo and wire the funds today.", ReasonSameColor},
	{"Invisible layer says the audit passed already.", ReasonInvisible},
	{"Transparent note grants admin access to everyone.", ReasonTransparent},
	{"Offpage remark about the secret bonus payments.", ReasonOffPage},
	{"Tiny print waives every warranty claim here.", ReasonTiny},
}

var memoVisible = []string{
	"The canteen closes early on Friday for the staff party.",
	"Parking permits for next year are ready at reception.",
	"The fire drill is planned for the last Monday of the month.",
	"Questions about the memo go to the office manager.",
}

// HiddenText is an untagged page whose visible paragraphs alternate with text
// hidden in each of five ways: white on the white page, text render mode 3
// (invisible), fill alpha 0, drawn above the page's top edge, and a
// 0.5 pt font.
func HiddenText() (Doc, error) {
	f := newPDF()
	f.AddPage()
	heading(f, margin, 90, 18, "Quarterly Memo")
	y := 130.0
	draw := []func(x, y float64, s string){
		func(x, y float64, s string) {
			f.SetTextColor(255, 255, 255)
			f.Text(x, y, s)
			f.SetTextColor(0, 0, 0)
		},
		func(x, y float64, s string) {
			f.SetTextRenderingMode(3)
			f.Text(x, y, s)
			f.SetTextRenderingMode(0)
		},
		func(x, y float64, s string) {
			f.SetAlpha(0, "Normal")
			f.Text(x, y, s)
			f.SetAlpha(1, "Normal")
		},
		func(x, _ float64, s string) { f.Text(x, -40, s) },
		func(x, y float64, s string) {
			f.SetFontSize(0.5)
			f.Text(x, y, s)
			f.SetFontSize(bodyPt)
		},
	}
	for i, h := range hiddenTexts {
		if i < len(memoVisible) {
			f.Text(margin, y, memoVisible[i])
			y += 2 * leading
		}
		draw[i](margin, y, h.Text)
		y += 2 * leading
	}
	data, err := output(f)
	return Doc{
		Name: "hidden-text", PDF: data, Pages: 1,
		Hidden:   append([]Hidden{}, hiddenTexts...),
		Visible:  append([]string{"Quarterly Memo"}, memoVisible...),
		Headings: []Heading{{"Quarterly Memo", 1}},
	}, err
}

// Links is a two-page document with a URI link and an internal jump to
// page 2 on page 1, an outline of two bookmarks and a document-level
// JavaScript action.
func Links() (Doc, error) {
	f := newPDF()
	const script = "app.alert('sieve test document');"
	f.SetJavascript(script)
	appendix := f.AddLink()

	f.AddPage()
	f.Bookmark("Introduction", 0, 0)
	heading(f, margin, 90, 18, "Reference Guide")
	const site = "https://example.com/guide"
	f.Text(margin, 130, "Visit the project site")
	f.LinkString(margin, 130-bodyPt, f.GetStringWidth("Visit the project site"), bodyPt+3, site)
	f.Text(margin, 160, "Jump to the appendix")
	f.Link(margin, 160-bodyPt, f.GetStringWidth("Jump to the appendix"), bodyPt+3, appendix)

	f.AddPage()
	f.SetLink(appendix, 0, 2)
	f.Bookmark("Appendix", 0, 0)
	heading(f, margin, 90, 18, "Appendix")
	f.Text(margin, 130, "The appendix lists every station by its code.")
	data, err := output(f)
	return Doc{
		Name: "links", PDF: data, Pages: 2,
		Links: []Link{
			{Text: "Visit the project site", URI: site},
			{Text: "Jump to the appendix", Page: 2},
		},
		Bookmarks:  []string{"Introduction", "Appendix"},
		JavaScript: script,
		Headings:   []Heading{{"Reference Guide", 1}, {"Appendix", 1}},
	}, err
}

// Attachment is a one-page document with an embedded file. (It is apart
// from Links because fpdf numbers the page objects as if nothing came
// before them: with an embedded file, its link and outline destinations
// would point one page early.)
func Attachment() (Doc, error) {
	f := newPDF()
	f.SetAttachments([]fpdf.Attachment{{Content: []byte("Field notes, April.\n"), Filename: "notes.txt", Description: "Field notes"}})
	f.AddPage()
	heading(f, margin, 90, 18, "Field Notes")
	f.Text(margin, 130, "The notes from April are attached to this document.")
	data, err := output(f)
	return Doc{
		Name: "attachment", PDF: data, Pages: 1,
		Attachments: []string{"notes.txt"},
		Visible:     []string{"The notes from April are attached to this document."},
	}, err
}

// EncryptedDoc is Encrypted as a Doc.
func EncryptedDoc() (Doc, error) {
	data, err := Encrypted()
	return Doc{Name: "encrypted", PDF: data, Password: "secret", Pages: 1}, err
}

// Truncated is TwoColumn cut to its first 60%: the end of the file, with
// the cross-reference table, is gone.
func Truncated() (Doc, error) {
	d, err := TwoColumn()
	if err != nil {
		return Doc{}, err
	}
	return Doc{Name: "truncated", PDF: d.PDF[:len(d.PDF)*6/10]}, nil
}

// Broken is a file that starts like a PDF and is nothing else.
func Broken() Doc {
	return Doc{Name: "broken", PDF: []byte("%PDF-1.7\n1 0 obj\n<< this is not a PDF >>\ngarbage\n")}
}
