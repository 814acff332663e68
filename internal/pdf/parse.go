package pdf

import (
	"errors"
	"fmt"
	"math"

	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Document is what Parse read from a PDF.
type Document struct {
	Pages []Page
}

// Page is one page as displayed: its size after /Rotate and CropBox.
type Page struct {
	Index    int     // 0-based
	Width    float64 // points, as displayed
	Height   float64
	Rotation int    // /Rotate in degrees clockwise: 0, 90, 180 or 270
	Chars    []Char // in PDFium's text order
	Err      string // why the page could not be read; "" when it could
}

// Char is one character of a page's text layer. Generated characters
// (the spaces and line breaks PDFium infers) have a zero Box.
type Char struct {
	Rune      rune
	FontSize  float64 // points
	Box       Box
	Generated bool
}

// Box is a rectangle in top-left page coordinates, points, rounded to
// 1/100 pt.
type Box struct {
	X0, Y0, X1, Y1 float64
}

// Union is the smallest box holding b and o; a zero box is the identity.
func (b Box) Union(o Box) Box {
	if b == (Box{}) {
		return o
	}
	if o == (Box{}) {
		return b
	}
	return Box{math.Min(b.X0, o.X0), math.Min(b.Y0, o.Y0), math.Max(b.X1, o.X1), math.Max(b.Y1, o.Y1)}
}

// Error kinds of a document that could not be opened.
var (
	ErrEncrypted = errors.New("encrypted: a password is needed")
	ErrBroken    = errors.New("not a readable PDF")
)

// Parse reads data as a PDF. An encrypted document gives an error wrapping
// ErrEncrypted, a file PDFium cannot open one wrapping ErrBroken. A page
// that cannot be read is kept with Err set.
func Parse(data []byte) (*Document, error) {
	engMu.Lock()
	defer engMu.Unlock()
	e, err := getEngine()
	if err != nil {
		return nil, err
	}
	return e.parse(data)
}

func (e *engine) parse(data []byte) (*Document, error) {
	opened, err := e.inst.FPDF_LoadMemDocument(&requests.FPDF_LoadMemDocument{Data: &data})
	if err != nil {
		return nil, openError(err)
	}
	doc := opened.Document
	defer e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	count, err := e.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc})
	if err != nil {
		return nil, fmt.Errorf("%w: counting pages: %v", ErrBroken, err)
	}
	out := &Document{Pages: make([]Page, count.PageCount)}
	for i := range out.Pages {
		out.Pages[i] = e.page(doc, i)
	}
	return out, nil
}

func openError(err error) error {
	switch {
	case errors.Is(err, pdferrors.ErrPassword), errors.Is(err, pdferrors.ErrSecurity):
		return fmt.Errorf("%w (%v)", ErrEncrypted, err)
	}
	return fmt.Errorf("%w: %v", ErrBroken, err)
}

// page reads page i; a failure is the page's Err.
func (e *engine) page(doc references.FPDF_DOCUMENT, i int) Page {
	p := Page{Index: i, Chars: []Char{}}
	loaded, err := e.inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		p.Err = "loading page: " + err.Error()
		return p
	}
	defer e.inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: loaded.Page})
	ref := requests.Page{ByReference: &loaded.Page}
	if err := e.pageFacts(ref, &p); err != nil {
		p.Err = err.Error()
		return p
	}
	m, err := e.displayMatrix(ref, p.Width, p.Height)
	if err != nil {
		p.Err = err.Error()
		return p
	}
	if p.Chars, err = e.chars(ref, m); err != nil {
		p.Chars, p.Err = []Char{}, err.Error()
	}
	return p
}

func (e *engine) pageFacts(ref requests.Page, p *Page) error {
	w, err := e.inst.FPDF_GetPageWidth(&requests.FPDF_GetPageWidth{Page: ref})
	if err != nil {
		return fmt.Errorf("page width: %w", err)
	}
	h, err := e.inst.FPDF_GetPageHeight(&requests.FPDF_GetPageHeight{Page: ref})
	if err != nil {
		return fmt.Errorf("page height: %w", err)
	}
	rot, err := e.inst.FPDFPage_GetRotation(&requests.FPDFPage_GetRotation{Page: ref})
	if err != nil {
		return fmt.Errorf("page rotation: %w", err)
	}
	p.Width, p.Height, p.Rotation = round(w.Width), round(h.Height), int(rot.PageRotation)*90
	return nil
}
