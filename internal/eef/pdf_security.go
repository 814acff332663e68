package eef

import (
	"fmt"

	"github.com/sieve-dev/sieve/graph"
)

// pdfFindings appends a PDF's own findings to fs (which holds the hidden
// text and markup forms already): document JavaScript, link actions that
// launch a program, run JavaScript or open another document, embedded
// files and file-attachment annotations, the interactive form, then every
// uri link, each with its page and box. The order is fixed: document
// facts first, then pages in order, links in page order.
func pdfFindings(rec *graph.Record, fs []Finding) []Finding {
	add := func(code, severity, msg string, ev Evidence) {
		fs = append(fs, Finding{ID: id("f%04d", len(fs)+1), Code: code, Severity: severity, Message: msg, Evidence: ev})
	}
	d := rec.PDF
	if d.JavaScript > 0 {
		add(FindingJavaScript, "warning", fmt.Sprintf("the document carries %d JavaScript action(s) a PDF viewer may run on opening; sieve never runs them", d.JavaScript),
			Evidence{Reason: "document_javascript"})
	}
	pl := newPlacer(rec)
	for _, p := range d.Pages {
		ref := pageID(p.Index + 1)
		for _, l := range p.Links {
			ev := Evidence{Reason: l.Action, PageRef: ref, BBox: pl.bbox(ref, pdfBox(l.Box.X, l.Box.Y, l.Box.W, l.Box.H)), URI: l.URI, Text: l.URI}
			switch l.Action {
			case "launch":
				add(FindingLaunchAction, "high", "a link that launches a program or opens a file outside the document", ev)
			case "javascript":
				add(FindingJavaScriptLink, "warning", "a link that runs JavaScript in the viewer", ev)
			case "remote_goto":
				add(FindingRemoteGoto, "info", "a link into another document", ev)
			}
		}
	}
	for _, a := range d.Attachments {
		add(FindingAttachment, "warning", "an embedded file: not opened or scanned by sieve", Evidence{Reason: "attachment", Text: a.Name})
	}
	for _, p := range d.Pages {
		ref := pageID(p.Index + 1)
		for _, a := range p.Annotations {
			if a.Subtype == "fileattachment" {
				add(FindingAttachment, "warning", "a file attached to the page: not opened or scanned by sieve",
					Evidence{Reason: "fileattachment_annotation", PageRef: ref, BBox: pl.bbox(ref, pdfBox(a.Box.X, a.Box.Y, a.Box.W, a.Box.H)), Text: a.Contents})
			}
		}
	}
	if d.Form != "" {
		add(FindingForm, "info", "an interactive form ("+d.Form+")", Evidence{Reason: d.Form})
	}
	for _, p := range d.Pages {
		ref := pageID(p.Index + 1)
		for _, l := range p.Links {
			if l.Action == "uri" {
				add(FindingExternalLink, "info", "a link out of the document",
					Evidence{Reason: "uri", PageRef: ref, BBox: pl.bbox(ref, pdfBox(l.Box.X, l.Box.Y, l.Box.W, l.Box.H)), URI: l.URI, Text: l.URI})
			}
		}
	}
	return fs
}

// pdfSecurityReport counts a PDF's links from its link annotations and its
// scripts as the document-level JavaScript actions.
func pdfSecurityReport(rec *graph.Record, doc *Document, findings []Finding) *SecurityReport {
	d := rec.PDF
	inv := Inventory{HiddenText: len(rec.Latent)}
	annots, actions, attachments := 0, 0, len(d.Attachments)
	for _, p := range d.Pages {
		annots += len(p.Annotations)
		for _, a := range p.Annotations {
			if a.Subtype == "fileattachment" {
				attachments++
			}
		}
		for _, l := range p.Links {
			inv.Links++
			switch l.Action {
			case "uri":
				inv.ExternalLinks++
			case "launch", "javascript", "remote_goto":
				actions++
			}
		}
	}
	limits := []Limit{{"pdf_annotation_actions_not_read", "actions of annotations other than links (form fields, page open/close) are not inspected; scripts counts the document-level JavaScript actions"}}
	if len(d.Pages) > 0 {
		scripts := d.JavaScript
		inv.Scripts, inv.Annotations, inv.Attachments, inv.Actions = &scripts, &annots, &attachments, &actions
	} else {
		limits = []Limit{{"pdf_not_read", "the PDF could not be read (see the outcome): nothing in it was inspected, so its scripts are unknown (null)"}}
	}
	return newSecurityReport(doc, inv, findings, limits)
}
