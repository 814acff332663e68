package graph

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/normalize"
)

// walkMedia records an image, video, audio, frame or canvas. It becomes a
// media block when it stands on its own (a figure, or an image with a
// description outside a run of text); otherwise it is only in media_all.
func (b *builder) walkMedia(i int) {
	t := b.t
	n := &t.nodes[i]
	if n.Tag == "picture" {
		for _, c := range t.children[i] {
			if t.nodes[c].Tag == "img" && !t.hidden(c) {
				b.walkMedia(c)
				return
			}
		}
		return
	}
	inside := b.renderedInside(i)
	m := posMedia{pos: len(b.blocks), block: -1, zone: b.zone()}
	m.Type = mediaType(n.Tag)
	m.Src = firstNonEmpty(n.Attrs["src"], b.sourceSrc(i))
	m.Description = firstNonEmpty(n.Attrs["alt"], n.Attrs["aria-label"], n.Attrs["title"])
	if (n.Tag == "canvas" || n.Tag == "object") && !inside {
		m.Description = firstNonEmpty(m.Description, t.textOf(i))
	}
	fig := b.figureOf(i)
	if fig >= 0 {
		m.Caption = b.figcaption(fig)
		m.Description = firstNonEmpty(m.Description, m.Caption)
	}
	b.media = append(b.media, m)
	idx := len(b.media) - 1
	standalone := fig >= 0 || (b.buf.Len() == 0 && b.inLink == 0 && m.Description != "")
	switch {
	case n.Tag == "iframe" || n.Tag == "embed" || n.Tag == "object":
		if m.Src != "" && n.Source != normalize.SourceDOM { // rendered frames: read, or a frame gap from the walker
			b.gaps = append(b.gaps, Gap{Label: firstNonEmpty(n.Attrs["title"], m.Src), Kind: "frame",
				Reason: "embedded " + n.Tag + ": a static read does not load embedded documents"})
		}
		standalone = m.Description != ""
	case n.Tag == "video" || n.Tag == "audio":
		standalone = true
	}
	b.placeMedia(i, idx, standalone)
	if inside {
		b.walkInside(i)
	}
}

// placeMedia makes media entry idx (of element i) a block of its own when
// it stands alone, or ties it to the text run it sits in.
func (b *builder) placeMedia(i, idx int, standalone bool) {
	if !standalone {
		if b.buf.Len() > 0 {
			b.bufMedia = append(b.bufMedia, pending{n: idx, off: b.buf.Len()})
		}
		return
	}
	b.flush()
	m := &b.media[idx]
	text := m.Description
	if text == "" {
		text = "[" + m.Type + "]"
	}
	k := b.emit(owner{node: i, typ: TypeMedia}, text, 0)
	b.blocks[k].zone = b.zone()
	m.block = k
}

// renderedInside reports whether element i is a frame or canvas whose
// content was read: a same-origin frame's document (render tier) or a
// canvas's fallback content, as child nodes. (A static read never has
// frame documents; it has a canvas's fallback only when the markup closes
// the canvas, and then its children are canvas_fallback nodes.)
func (b *builder) renderedInside(i int) bool {
	n := &b.t.nodes[i]
	kids := b.t.children[i]
	if len(kids) == 0 {
		return false
	}
	switch {
	case n.Tag == "canvas" && n.Source != normalize.SourceDOM:
		return b.t.nodes[kids[0]].Source == normalize.SourceCanvas
	case n.Source != normalize.SourceDOM:
		return false
	}
	return n.Tag == "iframe" || n.Tag == "frame" || n.Tag == "canvas"
}

// walkInside turns the content the browser read inside a frame or canvas
// into blocks in reading order, like any block element's. Everything under
// a canvas is its fallback content, so those blocks say so.
func (b *builder) walkInside(i int) {
	first := len(b.blocks)
	b.walkBlock(i)
	if b.t.nodes[i].Tag != "canvas" {
		return
	}
	for k := first; k < len(b.blocks); k++ {
		b.blocks[k].Source = normalize.SourceCanvas
	}
}

func mediaType(tag string) string {
	switch tag {
	case "video":
		return "video"
	case "audio":
		return "audio"
	case "iframe", "embed", "object":
		return "iframe"
	case "canvas":
		return "canvas"
	}
	return "image"
}

func (b *builder) sourceSrc(i int) string {
	for _, c := range b.t.children[i] {
		if n := &b.t.nodes[c]; n.Tag == "source" && n.Attrs["src"] != "" {
			return n.Attrs["src"]
		}
	}
	return ""
}

// figureOf returns the enclosing <figure> within two levels, or -1.
func (b *builder) figureOf(i int) int {
	p := b.t.nodes[i].Parent
	for k := 0; k < 3 && p >= 0; k++ {
		if b.t.nodes[p].Tag == "figure" {
			return p
		}
		p = b.t.nodes[p].Parent
	}
	return -1
}

func (b *builder) figcaption(fig int) string {
	for _, c := range b.t.children[fig] {
		if b.t.nodes[c].Tag == "figcaption" {
			return b.t.textOf(c)
		}
	}
	return ""
}

// walkControl records a button or form control as an action (outside forms)
// or leaves it to its form. Control text never joins a paragraph.
func (b *builder) walkControl(i int) {
	n := &b.t.nodes[i]
	typ := strings.ToLower(n.Attrs["type"])
	if b.inForm > 0 {
		return
	}
	if n.Tag != "button" && n.Attrs["role"] != "button" && typ != "submit" && typ != "button" && typ != "reset" {
		return
	}
	label := b.controlLabel(i)
	if label == "" {
		return
	}
	a := posAction{pos: len(b.blocks), block: -1, zone: b.zone()}
	a.Kind, a.Label = "button", label
	if n.Tag == "a" {
		a.Kind, a.Href = "link_button", n.Attrs["href"]
	}
	b.actions = append(b.actions, a)
}

func (b *builder) controlLabel(i int) string {
	n := &b.t.nodes[i]
	return firstNonEmpty(b.t.textOf(i), n.Attrs["aria-label"], n.Attrs["value"], n.Attrs["title"], n.Attrs["alt"])
}

// collectLabels maps form controls to their label text: <label for=id>,
// or a label wrapping the control.
func (b *builder) collectLabels() {
	t := b.t
	b.labels = map[int]string{}
	b.labelEls = map[int]bool{}
	byID := map[string]int{}
	for i := range t.nodes {
		n := &t.nodes[i]
		if isField(n.Tag) {
			if id := n.Attrs["id"]; id != "" {
				byID[id] = i
			}
		}
	}
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.Tag != "label" || t.hidden(i) {
			continue
		}
		text := t.textOf(i)
		if f, ok := byID[n.Attrs["for"]]; ok && n.Attrs["for"] != "" {
			b.labels[f] = text
			b.labelEls[i] = true
			continue
		}
		if f := b.firstField(i); f >= 0 {
			b.labels[f] = text
			b.labelEls[i] = true
		}
	}
}

func isField(tag string) bool {
	return tag == "input" || tag == "select" || tag == "textarea"
}

func (b *builder) firstField(i int) int {
	for _, c := range b.t.children[i] {
		if isField(b.t.nodes[c].Tag) {
			return c
		}
		if f := b.firstField(c); f >= 0 {
			return f
		}
	}
	return -1
}

// labelsField reports whether label element i labels a form control, in
// which case its text belongs to the field, not to the page's prose.
func (b *builder) labelsField(i int) bool { return b.labelEls[i] }

// formAction emits the form's block and action once its subtree is walked.
// A form with no visible field and no submit control is not an action.
func (b *builder) formAction(i int) {
	t := b.t
	n := &t.nodes[i]
	var fields []Field
	var submits []string
	var walk func(int)
	walk = func(j int) {
		if t.hidden(j) {
			return
		}
		c := &t.nodes[j]
		typ := strings.ToLower(c.Attrs["type"])
		switch {
		case c.Tag == "button" || typ == "submit" || typ == "image":
			if c.Tag == "button" && (typ == "button" || typ == "reset") {
				break
			}
			if l := b.controlLabel(j); l != "" {
				submits = append(submits, l)
			}
			return
		case isField(c.Tag):
			if typ == "" {
				typ = c.Tag
			}
			if c.Tag == "select" || c.Tag == "textarea" {
				typ = c.Tag
			}
			fields = append(fields, Field{
				Name:     c.Attrs["name"],
				Type:     typ,
				Label:    firstNonEmpty(b.labels[j], c.Attrs["aria-label"], c.Attrs["placeholder"], c.Attrs["title"]),
				Required: c.Attrs["required"] != "",
			})
			return
		}
		for _, k := range t.children[j] {
			walk(k)
		}
	}
	walk(i)
	if len(fields) == 0 && len(submits) == 0 {
		return
	}
	label := firstNonEmpty(n.Attrs["aria-label"], n.Attrs["name"], n.Attrs["id"])
	if label == "" && len(submits) > 0 {
		label = submits[0]
	}
	k := b.emit(owner{node: i, typ: TypeForm}, formText(label, fields, submits), 0)
	b.blocks[k].zone = b.zone()
	a := posAction{pos: k + 1, block: k, zone: b.zone()}
	a.Kind, a.Label, a.Fields = "form", label, fields
	a.Method = strings.ToUpper(firstNonEmpty(n.Attrs["method"], "get"))
	a.Target = n.Attrs["action"]
	b.actions = append(b.actions, a)
}

func formText(label string, fields []Field, submits []string) string {
	var parts []string
	for _, f := range fields {
		name := firstNonEmpty(f.Label, f.Name, f.Type)
		parts = append(parts, fmt.Sprintf("%s (%s)", name, f.Type))
	}
	s := "Form"
	if label != "" {
		s += " " + label
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if len(submits) > 0 {
		s += "; submit: " + strings.Join(submits, ", ")
	}
	return s
}

// codeBlock emits a preformatted element as one code block.
func (b *builder) codeBlock(i int) {
	b.flush()
	var sb strings.Builder
	var walk func(int)
	walk = func(j int) {
		n := &b.t.nodes[j]
		if n.Hidden != "" {
			b.addLatent(j)
			return
		}
		if n.Tag == "#text" {
			sb.WriteString(n.Text)
			return
		}
		if n.Tag == "br" {
			sb.WriteByte('\n')
		}
		for _, c := range b.t.children[j] {
			walk(c)
		}
	}
	walk(i)
	text := strings.Trim(sb.String(), "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	k := b.emit(owner{node: i, typ: TypeCode}, text, 0)
	b.blocks[k].zone = b.zone()
	b.blocks[k].Language = b.codeLanguage(i)
}

func (b *builder) codeLanguage(i int) string {
	cands := []int{i}
	for _, c := range b.t.children[i] {
		if b.t.nodes[c].Tag == "code" {
			cands = append(cands, c)
		}
	}
	for _, c := range cands {
		for _, cls := range strings.Fields(b.t.attr(c, "class")) {
			for _, p := range []string{"language-", "lang-"} {
				if strings.HasPrefix(cls, p) && len(cls) > len(p) {
					return strings.ToLower(cls[len(p):])
				}
			}
		}
	}
	return ""
}
