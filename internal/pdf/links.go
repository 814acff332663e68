package pdf

import (
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
)

// Link is a link annotation and where it leads.
type Link struct {
	Box    Box
	Action string // uri | goto | remote_goto | launch | javascript | unsupported
	URI    string // a uri action's target; the file of a launch or remote_goto
	Page   int    // 0-based target page of a goto; -1 when none
}

// Annotation is an annotation other than a link (and other than the
// popups that only show another annotation's contents).
type Annotation struct {
	Subtype  string // lower-case: text, highlight, widget, fileattachment, …
	Box      Box
	Contents string
}

// maxPageAnnots caps the links and the other annotations read per page.
const maxPageAnnots = 2000

// links reads the page's link annotations. PDFium reports a JavaScript
// action as an unsupported one, so "javascript" is never among them.
func (e *engine) links(doc references.FPDF_DOCUMENT, ref requests.Page, m matrix) []Link {
	var out []Link
	pos := 0
	for len(out) < maxPageAnnots {
		r, err := e.inst.FPDFLink_Enumerate(&requests.FPDFLink_Enumerate{Page: ref, StartPos: pos})
		if err != nil || r.Link == nil || r.NextStartPos == nil || *r.NextStartPos <= pos {
			break
		}
		pos = *r.NextStartPos
		out = append(out, e.link(doc, *r.Link, m))
	}
	return out
}

func (e *engine) link(doc references.FPDF_DOCUMENT, l references.FPDF_LINK, m matrix) Link {
	out := Link{Action: "unsupported", Page: -1}
	if r, err := e.inst.FPDFLink_GetAnnotRect(&requests.FPDFLink_GetAnnotRect{Link: l}); err == nil && r.Rect != nil {
		out.Box = rectBox(m, *r.Rect)
	}
	if d, err := e.inst.FPDFLink_GetDest(&requests.FPDFLink_GetDest{Document: doc, Link: l}); err == nil && d.Dest != nil {
		out.Action, out.Page = "goto", e.destPage(doc, *d.Dest)
		return out
	}
	a, err := e.inst.FPDFLink_GetAction(&requests.FPDFLink_GetAction{Link: l})
	if err != nil || a.Action == nil {
		return out
	}
	out.Action, out.URI, out.Page = e.action(doc, *a.Action)
	return out
}

// action names an action and its target: a URI or file, a page.
func (e *engine) action(doc references.FPDF_DOCUMENT, a references.FPDF_ACTION) (kind, uri string, page int) {
	t, err := e.inst.FPDFAction_GetType(&requests.FPDFAction_GetType{Action: a})
	if err != nil {
		return "unsupported", "", -1
	}
	switch t.Type {
	case enums.FPDF_ACTION_ACTION_URI:
		if u, err := e.inst.FPDFAction_GetURIPath(&requests.FPDFAction_GetURIPath{Document: doc, Action: a}); err == nil && u.URIPath != nil {
			uri = *u.URIPath
		}
		return "uri", uri, -1
	case enums.FPDF_ACTION_ACTION_GOTO:
		page = -1
		if d, err := e.inst.FPDFAction_GetDest(&requests.FPDFAction_GetDest{Document: doc, Action: a}); err == nil && d.Dest != nil {
			page = e.destPage(doc, *d.Dest)
		}
		return "goto", "", page
	case enums.FPDF_ACTION_ACTION_REMOTEGOTO, enums.FPDF_ACTION_ACTION_LAUNCH:
		if f, err := e.inst.FPDFAction_GetFilePath(&requests.FPDFAction_GetFilePath{Action: a}); err == nil && f.FilePath != nil {
			uri = *f.FilePath
		}
		if t.Type == enums.FPDF_ACTION_ACTION_LAUNCH {
			return "launch", uri, -1
		}
		return "remote_goto", uri, -1
	}
	return "unsupported", "", -1
}

func (e *engine) destPage(doc references.FPDF_DOCUMENT, d references.FPDF_DEST) int {
	p, err := e.inst.FPDFDest_GetDestPageIndex(&requests.FPDFDest_GetDestPageIndex{Document: doc, Dest: d})
	if err != nil || p.Index < 0 {
		return -1
	}
	return p.Index
}

// annotations reads the page's annotations other than links and popups.
func (e *engine) annotations(ref requests.Page, m matrix) []Annotation {
	n, err := e.inst.FPDFPage_GetAnnotCount(&requests.FPDFPage_GetAnnotCount{Page: ref})
	if err != nil {
		return nil
	}
	var out []Annotation
	for i := 0; i < n.Count && len(out) < maxPageAnnots; i++ {
		if a, ok := e.annotation(ref, i, m); ok {
			out = append(out, a)
		}
	}
	return out
}

func (e *engine) annotation(ref requests.Page, i int, m matrix) (Annotation, bool) {
	a, err := e.inst.FPDFPage_GetAnnot(&requests.FPDFPage_GetAnnot{Page: ref, Index: i})
	if err != nil {
		return Annotation{}, false
	}
	defer e.inst.FPDFPage_CloseAnnot(&requests.FPDFPage_CloseAnnot{Annotation: a.Annotation})
	st, err := e.inst.FPDFAnnot_GetSubtype(&requests.FPDFAnnot_GetSubtype{Annotation: a.Annotation})
	if err != nil || st.Subtype == enums.FPDF_ANNOT_SUBTYPE_LINK || st.Subtype == enums.FPDF_ANNOT_SUBTYPE_POPUP {
		return Annotation{}, false
	}
	out := Annotation{Subtype: annotNames[st.Subtype]}
	if out.Subtype == "" {
		out.Subtype = "unknown"
	}
	if r, err := e.inst.FPDFAnnot_GetRect(&requests.FPDFAnnot_GetRect{Annotation: a.Annotation}); err == nil {
		out.Box = rectBox(m, r.Rect)
	}
	if c, err := e.inst.FPDFAnnot_GetStringValue(&requests.FPDFAnnot_GetStringValue{Annotation: a.Annotation, Key: "Contents"}); err == nil {
		out.Contents = c.Value
	}
	return out, true
}

// rectBox maps a page-space rectangle to a display box.
func rectBox(m matrix, r structs.FPDF_FS_RECTF) Box {
	return mapRect(m, float64(r.Left), float64(r.Bottom), float64(r.Right), float64(r.Top))
}

// annotNames are the annotation subtypes' names, lower-case.
var annotNames = map[enums.FPDF_ANNOTATION_SUBTYPE]string{
	enums.FPDF_ANNOT_SUBTYPE_TEXT: "text", enums.FPDF_ANNOT_SUBTYPE_FREETEXT: "freetext",
	enums.FPDF_ANNOT_SUBTYPE_LINE: "line", enums.FPDF_ANNOT_SUBTYPE_SQUARE: "square",
	enums.FPDF_ANNOT_SUBTYPE_CIRCLE: "circle", enums.FPDF_ANNOT_SUBTYPE_POLYGON: "polygon",
	enums.FPDF_ANNOT_SUBTYPE_POLYLINE: "polyline", enums.FPDF_ANNOT_SUBTYPE_HIGHLIGHT: "highlight",
	enums.FPDF_ANNOT_SUBTYPE_UNDERLINE: "underline", enums.FPDF_ANNOT_SUBTYPE_SQUIGGLY: "squiggly",
	enums.FPDF_ANNOT_SUBTYPE_STRIKEOUT: "strikeout", enums.FPDF_ANNOT_SUBTYPE_STAMP: "stamp",
	enums.FPDF_ANNOT_SUBTYPE_CARET: "caret", enums.FPDF_ANNOT_SUBTYPE_INK: "ink",
	enums.FPDF_ANNOT_SUBTYPE_FILEATTACHMENT: "fileattachment", enums.FPDF_ANNOT_SUBTYPE_SOUND: "sound",
	enums.FPDF_ANNOT_SUBTYPE_MOVIE: "movie", enums.FPDF_ANNOT_SUBTYPE_WIDGET: "widget",
	enums.FPDF_ANNOT_SUBTYPE_SCREEN: "screen", enums.FPDF_ANNOT_SUBTYPE_PRINTERMARK: "printermark",
	enums.FPDF_ANNOT_SUBTYPE_TRAPNET: "trapnet", enums.FPDF_ANNOT_SUBTYPE_WATERMARK: "watermark",
	enums.FPDF_ANNOT_SUBTYPE_THREED: "3d", enums.FPDF_ANNOT_SUBTYPE_RICHMEDIA: "richmedia",
	enums.FPDF_ANNOT_SUBTYPE_XFAWIDGET: "xfawidget", enums.FPDF_ANNOT_SUBTYPE_REDACT: "redact",
}
