package pdf

import (
	"bytes"
	"compress/zlib"
	"io"
	"slices"
	"strconv"
)

// Script is a JavaScript action and where in the document it lives.
type Script struct {
	// Where: open_action (the catalog's /OpenAction), document_aa (the
	// catalog's /AA: close, save, print), page_aa (a page's /AA: open,
	// close), annotation_action (an annotation's /A: a link or a button),
	// annotation_aa (an annotation's /AA, a widget's field included) or
	// names (the /JavaScript name tree, run when the document opens).
	Where   string
	Page    int    // 0-based page of page and annotation actions; -1 otherwise or when unknown
	Event   string // the /AA key (O, C, K, V, …) or the name-tree name
	Subtype string // annotation_*: the annotation's subtype, lower case (link, widget, …)
}

// Script locations.
const (
	ScriptOpenAction = "open_action"
	ScriptDocumentAA = "document_aa"
	ScriptPageAA     = "page_aa"
	ScriptAnnotation = "annotation_action"
	ScriptAnnotAA    = "annotation_aa"
	ScriptNames      = "names"
)

// Limits of the script scan: PDFium has no call that says whether an
// action is JavaScript (FPDFAction_GetType reports it as unsupported) nor
// any that reaches the catalog's /OpenAction or /AA, so the scan reads the
// file's objects itself, within these bounds.
const (
	maxScanObjects   = 200_000  // indirect objects kept
	maxScanDepth     = 32       // nesting of arrays and dictionaries
	maxObjStmBytes   = 64 << 20 // inflated object-stream bytes, in all
	maxScanScripts   = 1000     // scripts listed
	maxScanTreeNodes = 20_000   // page-tree, name-tree and field nodes visited
	maxActionChain   = 64       // actions followed through /Next
)

// FindScripts lists the JavaScript actions of the PDF in data, in a fixed
// order: the open action, the document's additional actions, the name
// tree, then page by page the page's additional actions and each
// annotation's action and additional actions (a widget's field's too).
//
// It reads the file's indirect objects, those inside object streams
// included (FlateDecode, within maxObjStmBytes), later definitions
// replacing earlier ones as in an incremental update, and walks the
// catalog from the last trailer's /Root. It never runs anything and never
// fails: what it cannot read it does not report. An encrypted file's
// object streams cannot be inflated, so what lives only in them is not
// found (the name tree is still counted by PDFium).
func FindScripts(data []byte) []Script {
	s := &scan{objs: map[int]value{}, budget: maxObjStmBytes}
	s.objects(data)
	return s.scripts()
}

// value is a parsed PDF object.
type value struct {
	kind byte // 'd' dict, 'a' array, 'n' name, 'r' reference, 'i' integer, 's' string, 'o' other
	name string
	num  int
	dict map[string]value
	arr  []value
}

type scan struct {
	objs     map[int]value
	root     value // the last trailer's /Root
	budget   int
	visited  map[int]bool
	nodes    int
	out      []Script
	seenActs map[int]bool
}

// lexer reads PDF tokens.
type lexer struct {
	b []byte
	i int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// skip moves past white space and comments.
func (l *lexer) skip() {
	for l.i < len(l.b) {
		c := l.b[l.i]
		if isSpace(c) {
			l.i++
			continue
		}
		if c == '%' {
			for l.i < len(l.b) && l.b[l.i] != '\n' && l.b[l.i] != '\r' {
				l.i++
			}
			continue
		}
		return
	}
}

// word reads a run of regular characters.
func (l *lexer) word() string {
	start := l.i
	for l.i < len(l.b) && !isSpace(l.b[l.i]) && !isDelim(l.b[l.i]) {
		l.i++
	}
	return string(l.b[start:l.i])
}

// parse reads one value; ok is false at the end or on a stray token.
// Integers followed by "G R" become references.
func (l *lexer) parse(depth int) (value, bool) {
	l.skip()
	if l.i >= len(l.b) {
		return value{}, false
	}
	if depth > maxScanDepth {
		l.i++ // too deep: the containers above end here, unfinished
		return value{}, false
	}
	switch c := l.b[l.i]; {
	case c == '/':
		l.i++
		return value{kind: 'n', name: nameDecode(l.word())}, true
	case c == '(':
		return value{kind: 's', name: l.str()}, true
	case c == '<' && l.i+1 < len(l.b) && l.b[l.i+1] == '<':
		l.i += 2
		d := map[string]value{}
		for {
			l.skip()
			if l.i+1 < len(l.b) && l.b[l.i] == '>' && l.b[l.i+1] == '>' {
				l.i += 2
				return value{kind: 'd', dict: d}, true
			}
			k, ok := l.parse(depth + 1)
			if !ok || k.kind != 'n' {
				return value{kind: 'd', dict: d}, false
			}
			v, ok := l.parse(depth + 1)
			if !ok {
				return value{kind: 'd', dict: d}, false
			}
			d[k.name] = v
		}
	case c == '<':
		return value{kind: 's', name: l.hex()}, true
	case c == '[':
		l.i++
		var a []value
		for {
			l.skip()
			if l.i < len(l.b) && l.b[l.i] == ']' {
				l.i++
				return value{kind: 'a', arr: a}, true
			}
			v, ok := l.parse(depth + 1)
			if !ok {
				return value{kind: 'a', arr: a}, false
			}
			a = append(a, v)
		}
	case c == '>' || c == ']' || c == ')' || c == '{' || c == '}':
		l.i++
		return value{}, false
	}
	w := l.word()
	if w == "" {
		l.i++
		return value{}, false
	}
	n, err := strconv.Atoi(w)
	if err != nil {
		return value{kind: 'o', name: w}, true
	}
	// "N G R"?
	save := l.i
	l.skip()
	g := l.word()
	if _, err := strconv.Atoi(g); err == nil {
		l.skip()
		if l.word() == "R" {
			return value{kind: 'r', num: n}, true
		}
	}
	l.i = save
	return value{kind: 'i', num: n}, true
}

// str reads a literal string (balanced parentheses, escapes); it keeps
// the first maxStrBytes bytes when they are printable ASCII, else "".
func (l *lexer) str() string {
	var b []byte
	depth := 0
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch c {
		case '\\':
			l.i++
			if l.i < len(l.b) {
				c = l.b[l.i]
				switch c {
				case 'n', 'r', 't', 'b', 'f':
					c = ' '
				}
			}
		case '(':
			depth++
			if depth == 1 {
				l.i++
				continue
			}
		case ')':
			depth--
			if depth == 0 {
				l.i++
				return printable(b)
			}
		}
		if len(b) <= maxStrBytes {
			b = append(b, c)
		}
		l.i++
	}
	return printable(b)
}

// hex reads a hexadecimal string, like str.
func (l *lexer) hex() string {
	l.i++ // <
	var b []byte
	hi, half := byte(0), false
	for l.i < len(l.b) && l.b[l.i] != '>' {
		c := l.b[l.i]
		l.i++
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			continue
		}
		if half && len(b) <= maxStrBytes {
			b = append(b, hi<<4|d)
		}
		hi, half = d, !half
	}
	l.i++ // >
	return printable(b)
}

// maxStrBytes is what a string keeps (a name-tree key).
const maxStrBytes = 128

func printable(b []byte) string {
	if len(b) > maxStrBytes {
		return ""
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return ""
		}
	}
	return string(b)
}

// nameDecode resolves #xx escapes in a name.
func nameDecode(s string) string {
	if !bytesContainsHash(s) {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

func bytesContainsHash(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' {
			return true
		}
	}
	return false
}

var (
	kwObj     = []byte("obj")
	kwStream  = []byte("stream")
	kwEnd     = []byte("endstream")
	kwTrailer = []byte("trailer")
)

// objects reads every "N G obj … endobj" in data, the trailers, and the
// objects inside object streams.
func (s *scan) objects(data []byte) {
	trailer := -1 // the next "trailer" at or after i, len(data) when none
	for i := 0; i < len(data); {
		if trailer < i {
			if t := bytes.Index(data[i:], kwTrailer); t >= 0 {
				trailer = i + t
			} else {
				trailer = len(data)
			}
		}
		j := bytes.Index(data[i:], kwObj)
		if j < 0 && trailer == len(data) {
			return
		}
		if j < 0 || trailer < i+j {
			l := &lexer{b: data, i: trailer + len(kwTrailer)}
			if v, ok := l.parse(0); ok && v.kind == 'd' {
				if r, ok := v.dict["Root"]; ok {
					s.root = r
				}
			}
			i = max(l.i, trailer+len(kwTrailer))
			continue
		}
		j += i
		end := j + len(kwObj)
		if end < len(data) && !isSpace(data[end]) && !isDelim(data[end]) || j > 0 && !isSpace(data[j-1]) {
			i = end // "endobj", or a word holding "obj"
			continue
		}
		num, ok := objNumber(data, j)
		if !ok {
			i = end
			continue
		}
		l := &lexer{b: data, i: end}
		v, ok := l.parse(0)
		i = max(l.i, end)
		if !ok {
			continue
		}
		if len(s.objs) < maxScanObjects || s.objs[num].kind != 0 {
			s.objs[num] = v
		}
		if v.kind != 'd' {
			continue
		}
		if r, ok := v.dict["Root"]; ok && nameIs(v.dict["Type"], "XRef") {
			s.root = r
		}
		l.skip()
		if !bytes.HasPrefix(data[l.i:], kwStream) {
			continue
		}
		start := l.i + len(kwStream)
		if start < len(data) && data[start] == '\r' {
			start++
		}
		if start < len(data) && data[start] == '\n' {
			start++
		}
		stop := bytes.Index(data[start:], kwEnd)
		if stop < 0 {
			return
		}
		if nameIs(v.dict["Type"], "ObjStm") {
			s.objStm(v, data[start:start+stop])
		}
		i = start + stop + len(kwEnd)
	}
}

// objNumber reads "N G" before the obj keyword at j.
func objNumber(data []byte, j int) (int, bool) {
	k := j - 1
	for k >= 0 && isSpace(data[k]) {
		k--
	}
	for k >= 0 && data[k] >= '0' && data[k] <= '9' {
		k--
	}
	if k == j-1 || k < 0 || !isSpace(data[k]) {
		return 0, false
	}
	for k >= 0 && isSpace(data[k]) {
		k--
	}
	e := k + 1
	for k >= 0 && data[k] >= '0' && data[k] <= '9' {
		k--
	}
	if k == e-1 {
		return 0, false
	}
	n, err := strconv.Atoi(string(data[k+1 : e]))
	return n, err == nil
}

// objStm reads the objects of an object stream: FlateDecode only (or no
// filter), within the inflation budget.
func (s *scan) objStm(v value, raw []byte) {
	f := v.dict["Filter"]
	if f.kind == 'a' && len(f.arr) == 1 {
		f = f.arr[0]
	}
	data := raw
	switch {
	case f.kind == 0:
	case nameIs(f, "FlateDecode"):
		if s.budget <= 0 {
			return
		}
		zr, err := zlib.NewReader(bytes.NewReader(raw))
		if err != nil {
			return
		}
		data, _ = io.ReadAll(io.LimitReader(zr, int64(s.budget)))
		s.budget -= len(data)
	default:
		return
	}
	n, first := v.dict["N"], v.dict["First"]
	if n.kind != 'i' || first.kind != 'i' || first.num < 0 || first.num > len(data) {
		return
	}
	l := &lexer{b: data[:first.num]}
	for k := 0; k < n.num && len(s.objs) < maxScanObjects; k++ {
		num, ok1 := l.parse(0)
		off, ok2 := l.parse(0)
		if !ok1 || !ok2 || num.kind != 'i' || off.kind != 'i' {
			return
		}
		at := first.num + off.num
		if off.num < 0 || at >= len(data) {
			continue
		}
		ol := &lexer{b: data, i: at}
		if ov, ok := ol.parse(0); ok {
			s.objs[num.num] = ov
		}
	}
}

func nameIs(v value, name string) bool { return v.kind == 'n' && v.name == name }

// get resolves references (a few levels: a reference to a reference).
func (s *scan) get(v value) value {
	for k := 0; k < 8 && v.kind == 'r'; k++ {
		v = s.objs[v.num]
	}
	return v
}

// scripts walks the catalog.
func (s *scan) scripts() []Script {
	cat := s.get(s.root)
	if cat.kind != 'd' || !nameIs(cat.dict["Type"], "Catalog") {
		cat = value{}
		for num := range s.objs { // no trailer: the catalog with the highest number
			if v := s.objs[num]; v.kind == 'd' && nameIs(v.dict["Type"], "Catalog") && (cat.kind == 0 || num > cat.num) {
				cat = v
				cat.num = num
			}
		}
		if cat.kind == 0 {
			return nil
		}
	}
	s.seenActs = map[int]bool{}
	s.action(cat.dict["OpenAction"], Script{Where: ScriptOpenAction, Page: -1})
	s.additional(cat.dict["AA"], Script{Where: ScriptDocumentAA, Page: -1})
	if names := s.get(cat.dict["Names"]); names.kind == 'd' {
		s.visited = map[int]bool{}
		s.nameTree(names.dict["JavaScript"], 0)
	}
	s.visited = map[int]bool{}
	var pages []value
	s.pageTree(cat.dict["Pages"], 0, &pages)
	fields := map[int]bool{}
	for i, p := range pages {
		s.additional(p.dict["AA"], Script{Where: ScriptPageAA, Page: i})
		annots := s.get(p.dict["Annots"])
		for _, a := range annots.arr {
			ad := s.get(a)
			if ad.kind != 'd' {
				continue
			}
			sub := lowerName(s.get(ad.dict["Subtype"]))
			s.action(ad.dict["A"], Script{Where: ScriptAnnotation, Page: i, Subtype: sub})
			s.additional(ad.dict["AA"], Script{Where: ScriptAnnotAA, Page: i, Subtype: sub})
			// A widget's field (its /Parent chain) holds the field's
			// actions when the widget is not merged with it.
			for f, depth := ad.dict["Parent"], 0; f.kind == 'r' && depth < maxScanDepth && !fields[f.num]; depth++ {
				fields[f.num] = true
				fd := s.get(f)
				if fd.kind != 'd' {
					break
				}
				s.additional(fd.dict["AA"], Script{Where: ScriptAnnotAA, Page: i, Subtype: sub})
				f = fd.dict["Parent"]
			}
		}
	}
	return s.out
}

func lowerName(v value) string {
	if v.kind != 'n' {
		return ""
	}
	b := []byte(v.name)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// additional reads an additional-actions dictionary: every event's action,
// events in name order.
func (s *scan) additional(v value, at Script) {
	d := s.get(v)
	if d.kind != 'd' {
		return
	}
	keys := make([]string, 0, len(d.dict))
	for k := range d.dict {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e := at
		e.Event = k
		s.action(d.dict[k], e)
	}
}

// action adds each JavaScript action of the chain starting at v (its /Next
// entries, depth first). An indirect action is counted once wherever it
// is used.
func (s *scan) action(v value, at Script) {
	steps := 0
	var walk func(v value)
	walk = func(v value) {
		if steps >= maxActionChain || len(s.out) >= maxScanScripts {
			return
		}
		steps++
		if v.kind == 'r' {
			if s.seenActs[v.num] {
				return
			}
			s.seenActs[v.num] = true
		}
		a := s.get(v)
		switch a.kind {
		case 'a':
			for _, x := range a.arr {
				walk(x)
			}
			return
		case 'd':
		default:
			return
		}
		if _, js := a.dict["JS"]; js || nameIs(a.dict["S"], "JavaScript") {
			s.out = append(s.out, at)
		}
		if next, ok := a.dict["Next"]; ok {
			walk(next)
		}
	}
	walk(v)
}

// treeNode resolves a page- or name-tree node to its dictionary, within the
// scan's depth and node limits and visiting each object once (a tree that
// loops back on itself ends there).
func (s *scan) treeNode(v value, depth int) (value, bool) {
	if depth > maxScanDepth || s.nodes >= maxScanTreeNodes {
		return value{}, false
	}
	s.nodes++
	if v.kind == 'r' {
		if s.visited[v.num] {
			return value{}, false
		}
		s.visited[v.num] = true
	}
	n := s.get(v)
	return n, n.kind == 'd'
}

// nameTree reads a name tree's leaves in order: /Names pairs (name,
// action) and /Kids.
func (s *scan) nameTree(v value, depth int) {
	n, ok := s.treeNode(v, depth)
	if !ok {
		return
	}
	if names := s.get(n.dict["Names"]); names.kind == 'a' {
		for k := 0; k+1 < len(names.arr); k += 2 {
			s.action(names.arr[k+1], Script{Where: ScriptNames, Page: -1, Event: s.get(names.arr[k]).name})
		}
	}
	for _, kid := range s.get(n.dict["Kids"]).arr {
		s.nameTree(kid, depth+1)
	}
}

// pageTree lists the page dictionaries in order.
func (s *scan) pageTree(v value, depth int, pages *[]value) {
	n, ok := s.treeNode(v, depth)
	if !ok {
		return
	}
	kids, ok := n.dict["Kids"]
	if !ok || nameIs(n.dict["Type"], "Page") {
		*pages = append(*pages, n)
		return
	}
	for _, kid := range s.get(kids).arr {
		s.pageTree(kid, depth+1, pages)
	}
}
