package pdf

import (
	"fmt"
	"math"
	"strconv"

	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Tag is one element of a tagged PDF's structure tree as far as it lies on
// one page: what PDFium's per-page tree (FPDF_StructTree_GetForPage)
// holds. MCIDs are the marked-content ids of this page directly in the
// element, in order; Kids its child elements on this page.
type Tag struct {
	Type       string // standard structure type after the role map; the raw type when it has none
	MCIDs      []int
	Attrs      map[string]string // tagAttrs found in the element's attribute objects
	Alt        string
	ActualText string
	Lang       string
	Kids       []Tag
}

// Limits on one page's structure tree, against hostile files: deeper
// elements and elements past the count are left out and the page's Err
// says so. Vars for tests.
var (
	maxTagDepth = 64
	maxPageTags = 20000
)

// tagAttrs are the attributes kept: the ones table and list structure
// needs.
var tagAttrs = []string{"RowSpan", "ColSpan", "Scope", "ListNumbering"}

// tagReader walks one page's structure tree.
type tagReader struct {
	e     *engine
	count int    // elements read
	cut   string // what a limit left out; "" when nothing
}

// tags reads the page's structure tree; none when the page has no tree.
func (e *engine) tags(ref requests.Page) ([]Tag, string) {
	tree, err := e.inst.FPDF_StructTree_GetForPage(&requests.FPDF_StructTree_GetForPage{Page: ref})
	if err != nil {
		return nil, ""
	}
	defer e.inst.FPDF_StructTree_Close(&requests.FPDF_StructTree_Close{StructTree: tree.StructTree})
	n, err := e.inst.FPDF_StructTree_CountChildren(&requests.FPDF_StructTree_CountChildren{StructTree: tree.StructTree})
	if err != nil {
		return nil, ""
	}
	r := tagReader{e: e}
	var out []Tag
	for i := 0; i < n.Count && r.cut == ""; i++ {
		c, err := e.inst.FPDF_StructTree_GetChildAtIndex(&requests.FPDF_StructTree_GetChildAtIndex{StructTree: tree.StructTree, Index: i})
		if err != nil {
			continue
		}
		if t, ok := r.element(c.StructElement, 1); ok {
			out = append(out, t)
		}
	}
	return out, r.cut
}

// element reads el and its kids on this page, depth levels down.
func (r *tagReader) element(el references.FPDF_STRUCTELEMENT, depth int) (Tag, bool) {
	switch {
	case depth > maxTagDepth:
		r.cut = fmt.Sprintf("structure tree cut at depth %d", maxTagDepth)
		return Tag{}, false
	case r.count >= maxPageTags:
		r.cut = fmt.Sprintf("structure tree cut after %d elements", maxPageTags)
		return Tag{}, false
	}
	r.count++
	t := r.facts(el)
	n, err := r.e.inst.FPDF_StructElement_CountChildren(&requests.FPDF_StructElement_CountChildren{StructElement: el})
	if err != nil {
		return t, true
	}
	for i := 0; i < n.Count && r.cut == ""; i++ {
		if id, err := r.e.inst.FPDF_StructElement_GetChildMarkedContentID(&requests.FPDF_StructElement_GetChildMarkedContentID{StructElement: el, Index: i}); err == nil {
			if id.ChildMarkedContentID >= 0 {
				t.MCIDs = append(t.MCIDs, id.ChildMarkedContentID)
			}
			continue
		}
		c, err := r.e.inst.FPDF_StructElement_GetChildAtIndex(&requests.FPDF_StructElement_GetChildAtIndex{StructElement: el, Index: i})
		if err != nil {
			continue // content on another page, or an object reference
		}
		if k, ok := r.element(c.StructElement, depth+1); ok {
			t.Kids = append(t.Kids, k)
		}
	}
	return t, true
}

// facts reads an element's own type, texts and attributes.
func (r *tagReader) facts(el references.FPDF_STRUCTELEMENT) Tag {
	in := r.e.inst
	var t Tag
	if v, err := in.FPDF_StructElement_GetType(&requests.FPDF_StructElement_GetType{StructElement: el}); err == nil {
		t.Type = v.Type
	}
	if t.Type == "" {
		if v, err := in.FPDF_StructElement_GetRawType(&requests.FPDF_StructElement_GetRawType{StructElement: el}); err == nil {
			t.Type = v.RawType
		}
	}
	if t.Type == "" {
		t.Type = "NonStruct"
	}
	if v, err := in.FPDF_StructElement_GetAltText(&requests.FPDF_StructElement_GetAltText{StructElement: el}); err == nil {
		t.Alt = v.AltText
	}
	if v, err := in.FPDF_StructElement_GetActualText(&requests.FPDF_StructElement_GetActualText{StructElement: el}); err == nil {
		t.ActualText = v.Actualtext
	}
	if v, err := in.FPDF_StructElement_GetLang(&requests.FPDF_StructElement_GetLang{StructElement: el}); err == nil {
		t.Lang = v.Lang
	}
	t.Attrs = r.attrs(el)
	return t
}

// attrs reads the tagAttrs from the element's attribute objects; nil when
// it has none of them.
func (r *tagReader) attrs(el references.FPDF_STRUCTELEMENT) map[string]string {
	in := r.e.inst
	n, err := in.FPDF_StructElement_GetAttributeCount(&requests.FPDF_StructElement_GetAttributeCount{StructElement: el})
	if err != nil {
		return nil
	}
	var out map[string]string
	for i := 0; i < min(n.Count, 16); i++ {
		a, err := in.FPDF_StructElement_GetAttributeAtIndex(&requests.FPDF_StructElement_GetAttributeAtIndex{StructElement: el, Index: i})
		if err != nil {
			continue
		}
		for _, name := range tagAttrs {
			v, err := in.FPDF_StructElement_Attr_GetValue(&requests.FPDF_StructElement_Attr_GetValue{StructElementAttribute: a.StructElementAttribute, Name: name})
			if err != nil {
				continue
			}
			if s, ok := r.attrValue(v.StructElementAttributeValue); ok {
				if out == nil {
					out = map[string]string{}
				}
				out[name] = s
			}
		}
	}
	return out
}

// attrValue renders a number, name or string attribute value as text.
func (r *tagReader) attrValue(v references.FPDF_STRUCTELEMENT_ATTR_VALUE) (string, bool) {
	in := r.e.inst
	typ, err := in.FPDF_StructElement_Attr_GetType(&requests.FPDF_StructElement_Attr_GetType{StructElementAttributeValue: v})
	if err != nil {
		return "", false
	}
	switch typ.ObjectType {
	case enums.FPDF_OBJECT_TYPE_NUMBER:
		n, err := in.FPDF_StructElement_Attr_GetNumberValue(&requests.FPDF_StructElement_Attr_GetNumberValue{StructElementAttributeValue: v})
		if err != nil || math.IsNaN(float64(n.Value)) || math.IsInf(float64(n.Value), 0) {
			return "", false
		}
		return strconv.FormatFloat(float64(n.Value), 'f', -1, 32), true
	case enums.FPDF_OBJECT_TYPE_NAME, enums.FPDF_OBJECT_TYPE_STRING:
		s, err := in.FPDF_StructElement_Attr_GetStringValue(&requests.FPDF_StructElement_Attr_GetStringValue{StructElementAttributeValue: v})
		if err != nil || s.Value == "" {
			return "", false
		}
		return s.Value, true
	}
	return "", false
}
