package pdf

import (
	"errors"
	"fmt"
	"math"
	"time"

	pdferrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/responses"
)

// Document is what Parse read from a PDF.
type Document struct {
	Pages       []Page
	Tagged      bool              // some page has a structure tree
	Metadata    map[string]string // the Info dictionary's non-empty metaKeys
	Bookmarks   []Bookmark        // the outline, depth first
	JavaScript  int               // document-level JavaScript actions
	Attachments []string          // embedded files' names
	Form        string            // acroform | xfa_full | xfa_foreground; "" when none
}

// Page is one page as displayed: its size after /Rotate and CropBox.
type Page struct {
	Index    int     // 0-based
	Width    float64 // points, as displayed
	Height   float64
	Rotation int    // /Rotate in degrees clockwise: 0, 90, 180 or 270
	Chars    []Char // in PDFium's text order
	Tags     []Tag  // the page's structure tree, top level first; nil when untagged
	Rects    []Rect // painted path objects, in drawing order
	Images   []Box  // image objects' boxes, in drawing order (the first maxPageImages)
	Links    []Link
	Annots   []Annotation
	// Unmapped counts the page's text objects that give no character
	// even when read again (revive): codes their font maps to no Unicode
	// (a CID font with neither a ToUnicode map nor a character collection
	// PDFium knows, a code outside its CMap), so their text is not in
	// Chars.
	Unmapped int
	Err      string // why the page could not be read; "" when it could

	unmappedAt []Box // where the text Unmapped counts is drawn: its objects' origins
}

// Char is one character of a page's text layer. Generated characters
// (the spaces and line breaks PDFium infers) have a zero Box.
type Char struct {
	Rune      rune
	FontSize  float64 // points
	Box       Box
	Generated bool
	Style     Style // plain for spaces, breaks and generated characters
	// Dir is the direction the glyph's baseline runs on the displayed
	// page, clockwise from left-to-right: 0, 90 (downwards), 180 (upside
	// down, leftwards) or 270 (upwards); 0 for generated characters.
	Dir int
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
	ErrEncrypted     = errors.New("encrypted: a password is needed")
	ErrWrongPassword = errors.New("encrypted: the password given does not open it")
	ErrBroken        = errors.New("not a readable PDF")
	ErrTooSlow       = errors.New("reading took longer than the limit and was stopped")
)

// Parse reads data as a PDF. An encrypted document gives an error wrapping
// ErrEncrypted, a file PDFium cannot open one wrapping ErrBroken, one
// that takes longer than docTimeout one wrapping ErrTooSlow. A page that
// cannot be read is kept with Err set.
func Parse(data []byte) (*Document, error) { return ParsePassword(data, "") }

// ParsePassword is Parse with the password of an encrypted document (its
// user or owner password); "" is none. A document it does not open gives
// an error wrapping ErrWrongPassword (ErrEncrypted when password is "").
// An unencrypted document ignores it. The password is in no error.
func ParsePassword(data []byte, password string) (*Document, error) {
	return watched(func(e *engine) (*Document, error) { return e.parse(data, password) })
}

// watched runs read on the engine, alone and within docTimeout: past it
// the instance is killed and the result is an error wrapping ErrTooSlow.
// A killed engine, or one due for renewal, is released: the next read
// starts a new one.
func watched[T any](read func(*engine) (T, error)) (T, error) {
	engMu.Lock()
	defer engMu.Unlock()
	var none T
	e, err := getEngine()
	if err != nil {
		return none, err
	}
	watchdog := time.AfterFunc(docTimeout, e.kill)
	v, err := read(e)
	fired := !watchdog.Stop()
	if fired {
		v, err = none, fmt.Errorf("%w (%s)", ErrTooSlow, docTimeout)
	}
	if fired || e.renew() != nil {
		e.pool.Close()
		eng = nil
	}
	return v, err
}

// docTimeout bounds the reading of one document: past it the instance is
// killed, so the next PDFium call fails and the document is reported with
// ErrTooSlow; the engine is restarted for the next one. (A single call
// that never returns is not interrupted: see runtimeConfig.) A var for
// tests.
var docTimeout = 2 * time.Minute

func (e *engine) parse(data []byte, password string) (*Document, error) {
	req := &requests.FPDF_LoadMemDocument{Data: &data}
	if password != "" {
		req.Password = &password
	}
	opened, err := e.inst.FPDF_LoadMemDocument(req)
	if err != nil {
		return nil, openError(err, password != "")
	}
	doc := opened.Document
	defer e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: doc})
	count, err := e.inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: doc})
	if err != nil {
		return nil, fmt.Errorf("%w: counting pages: %v", ErrBroken, err)
	}
	out := &Document{Pages: make([]Page, count.PageCount)}
	e.docFacts(doc, out)
	e.readPages(doc, data, password, out, e.isTagged(doc))
	return out, nil
}

// openError is the kind of a document PDFium did not open; withPassword:
// a password was given. (PDFium's error is a code and its name, never the
// password.)
func openError(err error, withPassword bool) error {
	switch {
	case errors.Is(err, pdferrors.ErrPassword) && withPassword:
		return fmt.Errorf("%w (%v)", ErrWrongPassword, err)
	case errors.Is(err, pdferrors.ErrPassword), errors.Is(err, pdferrors.ErrSecurity):
		return fmt.Errorf("%w (%v)", ErrEncrypted, err)
	}
	return fmt.Errorf("%w: %v", ErrBroken, err)
}

// limits keep a hostile or huge document from taking minutes: a dense
// text page has some 10,000 characters, the corpus's 117-page book
// 150,000 in all. What a limit cuts is said in the page's Err. A var for
// tests.
var limits = struct{ pages, pageChars, docChars int }{
	pages:     5000,
	pageChars: 200_000,
	docChars:  5_000_000,
}

// readPage reads page i with at most limit characters; the document
// budget is spent by settle. A failure is the page's Err. marked: the
// document says it is tagged.
func (e *engine) readPage(doc references.FPDF_DOCUMENT, i int, limit int, marked bool) pageRead {
	r := pageRead{page: Page{Index: i, Chars: []Char{}}}
	p := &r.page
	loaded, err := e.inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		p.Err = "loading page: " + err.Error()
		return r
	}
	page := loaded.Page
	defer func() { e.inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: page}) }()
	ref := requests.Page{ByReference: &page}
	if err := e.pageFacts(ref, p); err != nil {
		p.Err = err.Error()
		return r
	}
	m, err := e.displayMatrix(ref, p.Width, p.Height)
	if err != nil {
		p.Err = err.Error()
		return r
	}
	r.read = true
	p.Links = e.links(doc, ref, m)
	p.Annots = e.annotations(ref, m)
	if len(p.Annots) > 0 {
		page = e.flatten(doc, i, page)
	}
	p.Chars, r.total, err = e.chars(ref, m, limit, marked, nil)
	if err != nil {
		p.Chars, r.charErr = []Char{}, err.Error()
	}
	objs := e.rects(page, m)
	p.Rects, p.Images = objs.rects, objs.images
	if len(p.Chars) == r.total && len(objs.texts) < maxPageTexts {
		e.reviveText(page, ref, m, limit, marked, objs, &r)
		p.unmappedAt = unmappedPoints(objs.texts, p.Chars)
		p.Unmapped = len(p.unmappedAt)
	}
	p.Tags, r.tagErr = e.tags(ref)
	return r
}

// reviveText reads the page's text again when PDFium left out enough
// text objects to report (unmapped's bar): see revive. A failed second
// read keeps the first.
func (e *engine) reviveText(page references.FPDF_PAGE, ref requests.Page, m matrix, limit int, marked bool, objs pathReader, r *pageRead) {
	ids := pointsAlone(objs.texts, r.page.Chars)
	if !overBar(len(ids), r.page.Chars) {
		return
	}
	if chars, total, err := e.revive(page, ref, m, limit, marked, objs.objs, ids); err == nil {
		r.page.Chars, r.total = chars, total
	}
}

// flatten draws the page's annotations into its content, as a viewer
// shows them (those flagged hidden or not for view stay out), and returns
// the page loaded again: the text of a form field's value, a stamp or a
// free-text note is then read with the page's own, in drawing order after
// it, and judged by the same hidden-text rules. The page's annotations
// and links were read before. When flattening fails the page is kept as
// it was.
func (e *engine) flatten(doc references.FPDF_DOCUMENT, i int, page references.FPDF_PAGE) references.FPDF_PAGE {
	f, err := e.inst.FPDFPage_Flatten(&requests.FPDFPage_Flatten{Page: requests.Page{ByReference: &page}, Usage: requests.FPDFPage_FlattenUsageNormalDisplay})
	if err != nil || f.Result != responses.FPDFPage_FlattenResultSuccess {
		return page
	}
	// PDFium applies a flattened page's new content when it is loaded again.
	e.inst.FPDF_ClosePage(&requests.FPDF_ClosePage{Page: page})
	again, err := e.inst.FPDF_LoadPage(&requests.FPDF_LoadPage{Document: doc, Index: i})
	if err != nil {
		// Cannot happen for a page just loaded; the caller closes the
		// handle it gets back, which then is a closed one.
		return page
	}
	return again.Page
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

// joinErr joins two page errors, either of which may be "".
func joinErr(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// isTagged reports the catalog's /MarkInfo /Marked: the document says its
// content is tagged, so marked-content ids matter for every character.
func (e *engine) isTagged(doc references.FPDF_DOCUMENT) bool {
	t, err := e.inst.FPDFCatalog_IsTagged(&requests.FPDFCatalog_IsTagged{Document: doc})
	return err == nil && t.IsTagged
}
