package pdf

import (
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Bookmark is one outline entry.
type Bookmark struct {
	Title string
	Level int // 1 for top-level entries
	Page  int // 0-based destination page; -1 when none
}

// metaKeys are the Info dictionary entries read.
var metaKeys = []string{"Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate"}

// Limits on the outline (which may be cyclic in a hostile file) and the
// attachments.
const (
	maxBookmarks     = 10000
	maxBookmarkDepth = 64
	maxAttachments   = 1000
)

// docFacts reads the document-level facts into out.
func (e *engine) docFacts(doc references.FPDF_DOCUMENT, out *Document) {
	out.Metadata = e.metadata(doc)
	b := bookmarkReader{e: e, doc: doc}
	b.children(nil, 1)
	out.Bookmarks = b.out
	if n, err := e.inst.FPDFDoc_GetJavaScriptActionCount(&requests.FPDFDoc_GetJavaScriptActionCount{Document: doc}); err == nil && n.JavaScriptActionCount > 0 {
		out.JavaScript = n.JavaScriptActionCount
	}
	out.Attachments = e.attachments(doc)
	if f, err := e.inst.FPDF_GetFormType(&requests.FPDF_GetFormType{Document: doc}); err == nil {
		out.Form = formTypes[f.FormType]
	}
}

var formTypes = map[enums.FPDF_FORMTYPE]string{
	enums.FPDF_FORMTYPE_ACRO_FORM:      "acroform",
	enums.FPDF_FORMTYPE_XFA_FULL:       "xfa_full",
	enums.FPDF_FORMTYPE_XFA_FOREGROUND: "xfa_foreground",
}

func (e *engine) metadata(doc references.FPDF_DOCUMENT) map[string]string {
	var out map[string]string
	for _, k := range metaKeys {
		v, err := e.inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: doc, Tag: k})
		if err != nil || v.Value == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = v.Value
	}
	return out
}

func (e *engine) attachments(doc references.FPDF_DOCUMENT) []string {
	n, err := e.inst.FPDFDoc_GetAttachmentCount(&requests.FPDFDoc_GetAttachmentCount{Document: doc})
	if err != nil {
		return nil
	}
	var out []string
	for i := 0; i < min(n.AttachmentCount, maxAttachments); i++ {
		a, err := e.inst.FPDFDoc_GetAttachment(&requests.FPDFDoc_GetAttachment{Document: doc, Index: i})
		if err != nil {
			continue
		}
		name, err := e.inst.FPDFAttachment_GetName(&requests.FPDFAttachment_GetName{Attachment: a.Attachment})
		if err != nil {
			continue
		}
		out = append(out, name.Name)
	}
	return out
}

// bookmarkReader walks the outline depth first, within the limits.
type bookmarkReader struct {
	e   *engine
	doc references.FPDF_DOCUMENT
	out []Bookmark
}

// children reads the entries under parent (nil: the top level) at level.
func (b *bookmarkReader) children(parent *references.FPDF_BOOKMARK, level int) {
	if level > maxBookmarkDepth {
		return
	}
	c, err := b.e.inst.FPDFBookmark_GetFirstChild(&requests.FPDFBookmark_GetFirstChild{Document: b.doc, Bookmark: parent})
	if err != nil {
		return
	}
	for bm := c.Bookmark; bm != nil && len(b.out) < maxBookmarks; {
		b.out = append(b.out, b.entry(*bm, level))
		b.children(bm, level+1)
		next, err := b.e.inst.FPDFBookmark_GetNextSibling(&requests.FPDFBookmark_GetNextSibling{Document: b.doc, Bookmark: *bm})
		if err != nil {
			return
		}
		bm = next.Bookmark
	}
}

func (b *bookmarkReader) entry(bm references.FPDF_BOOKMARK, level int) Bookmark {
	out := Bookmark{Level: level, Page: -1}
	if t, err := b.e.inst.FPDFBookmark_GetTitle(&requests.FPDFBookmark_GetTitle{Bookmark: bm}); err == nil {
		out.Title = t.Title
	}
	if d, err := b.e.inst.FPDFBookmark_GetDest(&requests.FPDFBookmark_GetDest{Document: b.doc, Bookmark: bm}); err == nil && d.Dest != nil {
		out.Page = b.e.destPage(b.doc, *d.Dest)
		return out
	}
	if a, err := b.e.inst.FPDFBookmark_GetAction(&requests.FPDFBookmark_GetAction{Bookmark: bm}); err == nil && a.Action != nil {
		if kind, _, page := b.e.action(b.doc, *a.Action); kind == "goto" {
			out.Page = page
		}
	}
	return out
}
