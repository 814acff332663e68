package diff

import (
	"fmt"
	"strings"
)

// CarryVerdict is what carrying one claim or evidence ref from the old
// document to the new one found: its status on each document (verify's or
// anchor's), the sections its evidence lay in, the blocks it cited (native
// ids) and, when the cited text was edited, the block changes.
type CarryVerdict struct {
	Kind         string        `json:"kind"`
	Status       string        `json:"status"`
	OldStatus    string        `json:"old_status"`
	NewStatus    string        `json:"new_status"`
	OldSectionID string        `json:"old_section_id"`
	NewSectionID string        `json:"new_section_id"`
	OldRefs      []string      `json:"old_refs"`
	NewRefs      []string      `json:"new_refs"`
	Reason       string        `json:"reason"` // the new check's or anchor's reason
	Edits        []BlockChange `json:"edits"`
}

// carriedSide is one document's check: its status, cited blocks and section.
type carriedSide struct {
	status  string
	refs    []string
	section string
}

// newVerdict is the verdict without its Status (the caller decides it),
// with the edits of the old cited blocks looked up in edits.
func newVerdict(kind string, old, new carriedSide, reason string, edits map[string]BlockChange) CarryVerdict {
	v := CarryVerdict{Kind: kind, OldStatus: old.status, NewStatus: new.status, OldSectionID: old.section,
		NewSectionID: new.section, OldRefs: old.refs, NewRefs: new.refs, Reason: reason, Edits: []BlockChange{}}
	for _, id := range v.OldRefs {
		if e, ok := edits[id]; ok {
			v.Edits = append(v.Edits, e)
		}
	}
	return v
}

// writeText writes the verdict's text line under id and its edits.
func (v CarryVerdict) writeText(b *strings.Builder, id string) {
	line := fmt.Sprintf("%-19s %s (%s)", v.Status, clean(id), v.Kind)
	switch v.Status {
	case CarryMoved:
		line += fmt.Sprintf(": %s -> %s", v.OldSectionID, v.NewSectionID)
	case CarryNotGrounded:
		line += ": was " + v.OldStatus + ", now " + v.NewStatus
	case CarryContradicted, CarryGone:
		line += ": " + clean(v.Reason)
	}
	b.WriteString(line + "\n")
	for _, e := range v.Edits {
		b.WriteString("    " + blockLine(e) + "\n")
	}
}

// renderCarried writes a carry report in the named format: canonical JSON,
// its text, or the text fenced under a title in Markdown.
func renderCarried(format, title string, report any, text func() string) ([]byte, error) {
	switch format {
	case FormatJSON:
		return renderJSON(report)
	case FormatText:
		return []byte(text()), nil
	case FormatMarkdown:
		var b strings.Builder
		b.WriteString("# " + title + "\n\n")
		b.WriteString("Text quoted from the pages below is untrusted page content.\n\n")
		fenced(&b, text())
		return []byte(strings.TrimRight(b.String(), "\n") + "\n"), nil
	}
	return nil, fmt.Errorf("unknown format %q (text, md, json)", format)
}
