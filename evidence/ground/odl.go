package ground

import (
	"fmt"
	"math"
	"strings"

	"github.com/tidwall/gjson"
)

// FromOpenDataLoader adapts opendataloader-pdf JSON output (see
// docs/spec/opendataloader-json.md). What it cannot prove stays a
// declared limit: boxes are bottom-left in PDF points with no page size (no
// top-left conversion, no out-of-page check, no crop), its ids are local to
// one run (ours are derived from document order; theirs are never reused),
// it has no spans, no fingerprint, and no latent tier (the parser deletes
// hidden text by default, so absence of hidden text proves nothing).
func FromOpenDataLoader(b []byte) (Source, error) {
	if !gjson.ValidBytes(b) {
		return nil, fmt.Errorf("%w: opendataloader-json is not valid JSON", ErrFormat)
	}
	root := gjson.ParseBytes(b)
	kids := root.Get("kids")
	if !kids.IsArray() {
		return nil, fmt.Errorf("%w: opendataloader-json has no \"kids\" list", ErrFormat)
	}
	n := root.Get("number of pages")
	if n.Type != gjson.Number || n.Int() < 1 || float64(n.Int()) != n.Num {
		return nil, fmt.Errorf("opendataloader-json: \"number of pages\" is missing or not a positive integer")
	}
	s := &source{
		identity: Identity{Parser: "opendataloader-pdf", Version: "unknown", Format: FormatOpenDataLoader},
		caps:     odlCaps(),
		findings: []Finding{},
	}
	for i := 1; i <= int(n.Int()); i++ {
		s.pages = append(s.pages, Page{ID: fmt.Sprintf("p%04d", i), Index: i - 1})
	}
	w := &odlWalker{src: s}
	kids.ForEach(func(k, v gjson.Result) bool {
		w.element(v, fmt.Sprintf("kids[%d]", k.Int()))
		return w.err == nil
	})
	if w.err != nil {
		return nil, w.err
	}
	return s, validate(s.pages, s.elements, s.tables)
}

func odlCaps() Capabilities {
	return Capabilities{Tables: true, Boxes: true, CoordinateOrigin: "bottom_left", Limits: []Limit{
		{"bottom_left_origin", "boxes are [left, bottom, right, top] in PDF points, origin bottom-left; without page sizes they cannot be converted to ethos_quantized_top_left_v1"},
		{"no_page_sizes", "the output has no page sizes: out-of-page boxes cannot be detected and crops cannot be made"},
		{"no_crop", "crop support needs the source PDF"},
		{"no_spans", "text is per element; there are no spans or character offsets"},
		{"no_fingerprint", "the output carries no source fingerprint: freshness cannot be checked"},
		{"no_latent_tier", "the parser drops hidden, off-page and tiny text by default: a quote's absence from hidden text proves nothing"},
		{"run_local_ids", "element ids are local to one parser run; ids here are derived from document order and the parser's ids are never reused"},
	}}
}

type odlWalker struct {
	src *source
	err error
}

func (w *odlWalker) fail(path, format string, a ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("opendataloader-json %s: %s", path, fmt.Sprintf(format, a...))
	}
}

func (w *odlWalker) element(v gjson.Result, path string) {
	if !v.IsObject() {
		w.fail(path, "an element is not an object")
		return
	}
	switch typ := v.Get("type").Str; typ {
	case "table":
		w.table(v, path)
	case "list":
		v.Get("list items").ForEach(func(k, it gjson.Result) bool {
			w.text(it, path+fmt.Sprintf(".list items[%d]", k.Int()), "list_item")
			return w.err == nil
		})
	case "text block", "header", "footer":
		w.children(v.Get("kids"), path)
	default:
		if v.Get("content").Exists() {
			w.text(v, path, typ)
		}
	}
}

func (w *odlWalker) children(kids gjson.Result, path string) {
	kids.ForEach(func(k, v gjson.Result) bool {
		w.element(v, path+fmt.Sprintf(".kids[%d]", k.Int()))
		return w.err == nil
	})
}

func (w *odlWalker) text(v gjson.Result, path, typ string) {
	page, box, ok := w.locate(v, path)
	if !ok {
		return
	}
	text := strings.Join(strings.Fields(v.Get("content").Str), " ")
	if v.Get("hidden text").Bool() {
		w.src.latent = append(w.src.latent, text)
		return
	}
	w.src.elements = append(w.src.elements, Element{ID: fmt.Sprintf("e%06d", len(w.src.elements)+1),
		NativeID: "odl:" + path, PageRef: page, Type: typ, Text: text, BBox: box})
}

// locate reads "page number" and "bounding box", failing closed.
func (w *odlWalker) locate(v gjson.Result, path string) (string, *Box, bool) {
	pn := v.Get("page number")
	if pn.Type != gjson.Number || float64(pn.Int()) != pn.Num || pn.Int() < 1 || int(pn.Int()) > len(w.src.pages) {
		w.fail(path, "page number %s is not a page of this document (1–%d)", pn.Raw, len(w.src.pages))
		return "", nil, false
	}
	page := fmt.Sprintf("p%04d", pn.Int())
	bb := v.Get("bounding box")
	if !bb.Exists() {
		return page, nil, true
	}
	a := bb.Array()
	if len(a) != 4 {
		w.fail(path, "bounding box %s is not [left, bottom, right, top]", bb.Raw)
		return "", nil, false
	}
	l, b, r, t := quantize(a[0].Num), quantize(a[1].Num), quantize(a[2].Num), quantize(a[3].Num)
	if l < 0 || b < 0 || r < l || t < b {
		w.fail(path, "bounding box %s is negative or inverted", bb.Raw)
		return "", nil, false
	}
	return page, &Box{X: l, Y: b, W: max(r-l, 1), H: max(t-b, 1)}, true
}

// quantize rounds PDF points half away from zero.
func quantize(f float64) int { return int(math.Round(f)) }

func (w *odlWalker) table(v gjson.Result, path string) {
	page, box, ok := w.locate(v, path)
	if !ok {
		return
	}
	el := Element{ID: fmt.Sprintf("e%06d", len(w.src.elements)+1), NativeID: "odl:" + path, PageRef: page, Type: "table", BBox: box}
	tb := Table{ID: fmt.Sprintf("t%04d", len(w.src.tables)+1), NativeID: el.NativeID, ElementRef: el.ID, PageRef: page}
	var rows []string
	v.Get("rows").ForEach(func(_, row gjson.Result) bool {
		var cells []string
		row.Get("cells").ForEach(func(_, c gjson.Result) bool {
			r, col := c.Get("row number").Int()-1, c.Get("column number").Int()-1
			text := cellText(c.Get("kids"))
			tb.Cells = append(tb.Cells, Cell{Row: int(r), Column: int(col), Text: text})
			cells = append(cells, text)
			return true
		})
		rows = append(rows, strings.Join(cells, " | "))
		return true
	})
	el.Text = strings.Join(rows, "\n")
	w.src.elements = append(w.src.elements, el)
	w.src.tables = append(w.src.tables, tb)
}

func cellText(kids gjson.Result) string {
	var parts []string
	kids.ForEach(func(_, k gjson.Result) bool {
		if c := k.Get("content"); c.Exists() {
			parts = append(parts, strings.Join(strings.Fields(c.Str), " "))
		}
		if sub := cellText(k.Get("kids")); sub != "" {
			parts = append(parts, sub)
		}
		return true
	})
	return strings.Join(parts, " ")
}
