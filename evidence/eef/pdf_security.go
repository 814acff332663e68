package eef

import (
	"fmt"
	"strings"

	capture "github.com/sieve-dev/sieve/capture/caprec"
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
	for _, sc := range d.Scripts {
		ev := Evidence{Reason: sc.Where, Text: sc.Event}
		if sc.Page != nil {
			ev.PageRef = pageID(*sc.Page + 1)
		}
		add(FindingJavaScript, "warning", scriptMessage(sc)+"; sieve never runs it", ev)
	}
	if more := d.JavaScript - len(d.Scripts); more > 0 {
		// past the cap on listed scripts, or a record from before they
		// were located
		msg := fmt.Sprintf("%d more JavaScript action(s) a PDF viewer may run; sieve never runs them", more)
		if len(d.Scripts) == 0 {
			msg = fmt.Sprintf("the document carries %d JavaScript action(s) a PDF viewer may run on opening; sieve never runs them", more)
		}
		add(FindingJavaScript, "warning", msg, Evidence{Reason: "document_javascript"})
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
			case "uri":
				if javascriptURI(l.URI) {
					ev.Reason = "javascript_uri"
					add(FindingJavaScriptLink, "warning", "a link whose URI is a javascript: URL: a viewer that follows it runs the script", ev)
				}
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
			if l.Action == "uri" && !javascriptURI(l.URI) {
				add(FindingExternalLink, "info", "a link out of the document",
					Evidence{Reason: "uri", PageRef: ref, BBox: pl.bbox(ref, pdfBox(l.Box.X, l.Box.Y, l.Box.W, l.Box.H)), URI: l.URI, Text: l.URI})
			}
		}
	}
	return fs
}

// javascriptURI reports whether a link's URI is a javascript: URL, read as
// a browser reads a URL: leading blanks and control characters dropped,
// tabs and newlines anywhere ignored, the scheme in any case.
func javascriptURI(uri string) bool {
	u := strings.TrimLeftFunc(uri, func(r rune) bool { return r <= ' ' })
	u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	return len(u) >= len("javascript:") && strings.EqualFold(u[:len("javascript:")], "javascript:")
}

// scriptMessage says where a PDF's JavaScript action lives and when a
// viewer runs it.
func scriptMessage(sc capture.PDFScript) string {
	page := ""
	if sc.Page != nil {
		page = fmt.Sprintf(" on page %d", *sc.Page+1)
	}
	annot := "an annotation"
	if sc.Subtype != "" {
		annot = "a " + sc.Subtype + " annotation"
	}
	switch sc.Where {
	case "open_action":
		return "JavaScript a PDF viewer runs when the document opens (the catalog's /OpenAction)"
	case "document_aa":
		return fmt.Sprintf("JavaScript a PDF viewer runs on a document event (the catalog's /AA %s)", sc.Event)
	case "page_aa":
		return fmt.Sprintf("JavaScript a PDF viewer runs when the page%s opens or closes (the page's /AA %s)", page, sc.Event)
	case "annotation_action":
		return fmt.Sprintf("%s%s that runs JavaScript when activated (its /A)", annot, page)
	case "annotation_aa":
		return fmt.Sprintf("%s%s that runs JavaScript on an event (/AA %s)", annot, page, sc.Event)
	case "names":
		return "document-level JavaScript a PDF viewer runs on opening (the /JavaScript name tree)"
	}
	return "a JavaScript action (" + sc.Where + ")"
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
			switch {
			case l.Action == "uri" && javascriptURI(l.URI):
				actions++
			case l.Action == "uri":
				inv.ExternalLinks++
			case l.Action == "launch", l.Action == "javascript", l.Action == "remote_goto":
				actions++
			}
		}
	}
	for _, sc := range d.Scripts {
		if sc.Where == "annotation_action" && sc.Subtype == "link" {
			actions++ // a link that runs JavaScript (PDFium calls its action unsupported)
		}
	}
	limits := []Limit{{"pdf_javascript_scan", "scripts counts the JavaScript actions found by reading the file's objects (object streams included, within limits): the open action, document, page and annotation additional actions, annotation actions and the /JavaScript name tree; scripts only inside an encrypted object stream, and XFA form scripts, are not found"}}
	if len(d.Pages) > 0 {
		scripts := d.JavaScript
		inv.Scripts, inv.Annotations, inv.Attachments, inv.Actions = &scripts, &annots, &attachments, &actions
	} else {
		limits = []Limit{{"pdf_not_read", "the PDF could not be read (see the outcome): nothing in it was inspected, so its scripts are unknown (null)"}}
	}
	return newSecurityReport(doc, inv, findings, limits)
}
