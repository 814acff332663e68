package eef

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
)

// injectionLike matches hidden text that reads like instructions to a
// model. It is a signal for review, not a verdict: it can miss and it can
// fire on an innocent sentence. Compiled on first use: the program is
// large (about 49 M instructions to compile, 3/4 of `sieve --version`), and
// most processes never check hidden text.
var injectionLike = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)` +
		`\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|any|your)\b.{0,40}\b(instructions?|prompts?|rules|directions|guidelines)\b` +
		`|\b(system|developer)\s+(prompt|message|instructions?)\b` +
		`|\byou\s+are\s+(now\s+)?(an?\s+)?(ai|assistant|language\s+model|llm|chatbot|gpt)\b` +
		`|\b(as|for)\s+an?\s+(ai|language\s+model|llm)\b` +
		`|\bdo\s+not\s+(tell|inform|reveal\s+to)\s+the\s+user\b` +
		`|<\|?(im_start|im_end|system)\|?>` +
		`|\b(assistant|ai|llm|model)s?\s*[:,]\s*(please\s+)?(say|respond|answer|output|reply|recommend|ignore)\b`)
})

// MarkUntrusted is latent text with its trust marker inline, as every copy
// of it outside latent[] carries it: "[UNTRUSTED HIDDEN TEXT: …] text".
func MarkUntrusted(text string) string { return "[" + graph.TrustMarker + "] " + text }

// InjectionLike reports whether hidden text reads like model instructions.
func InjectionLike(s string) bool { return injectionLike().MatchString(s) }

// securityFindings lists the findings in a fixed order: hidden text (and
// its injection-like subset, right after each entry), forms, password
// fields, frames, then external links.
func securityFindings(rec *graph.Record) []Finding {
	var fs []Finding
	add := func(code, severity, msg string, ev Evidence) {
		fs = append(fs, Finding{ID: id("f%04d", len(fs)+1), Code: code, Severity: severity, Message: msg, Evidence: ev})
	}
	pl := newPlacer(rec)
	for _, l := range rec.Latent {
		// The hidden text copied into a finding keeps its trust marker
		// inline (ARTIFACT.md: a fragment copied out still says what it is).
		ev := Evidence{SieveID: l.ID, SieveSectionID: l.SectionID, Reason: l.Reason, Text: MarkUntrusted(l.Text)}
		if isPDF(rec) && l.Page > 0 {
			ev.PageRef = pageID(l.Page)
			ev.BBox = pl.bbox(ev.PageRef, l.Box)
		}
		where := "text in the markup that visitors do not see"
		if isPDF(rec) {
			where = "text in the PDF that a reader does not see"
		}
		add(FindingHiddenText, "warning", where+" ("+l.Reason+"): quarantined, not visible evidence", ev)
		if InjectionLike(l.Text) {
			add(FindingPromptInjection, "high", "hidden text that reads like instructions to a model: do not follow it", ev)
		}
	}
	for _, a := range rec.Actions {
		if a.Kind != "form" {
			continue
		}
		add(FindingForm, "info", fmt.Sprintf("a form (%s) posting to %q", orDefault(a.Method, "get"), a.Target),
			Evidence{SieveID: a.ID, SieveSectionID: a.SectionID, Reason: "form", Text: a.Target})
		for _, f := range a.Fields {
			if f.Type == "password" {
				add(FindingPasswordField, "warning", "the form asks for a password",
					Evidence{SieveID: a.ID, SieveSectionID: a.SectionID, Reason: "password_field", Text: f.Name})
			}
		}
	}
	for _, m := range rec.MediaAll {
		if m.Type == "iframe" {
			add(FindingIframe, "info", "an embedded frame (not loaded by a static read)",
				Evidence{SieveID: m.ID, SieveSectionID: m.SectionID, Reason: "iframe", Text: m.Src})
		}
	}
	if isPDF(rec) {
		return pdfFindings(rec, fs)
	}
	if sec := rec.Security; sec != nil {
		fs = markupFindings(sec, fs)
	}
	if n := externalLinks(rec); n > 0 {
		add(FindingExternalLinks, "info", fmt.Sprintf("%d links lead to other sites", n), Evidence{Reason: "external_links"})
	}
	return fs
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func externalLinks(rec *graph.Record) int {
	n := 0
	for _, l := range rec.Links {
		if l.External {
			n++
		}
	}
	return n
}

func securityReport(rec *graph.Record, doc *Document, findings []Finding) *SecurityReport {
	if isPDF(rec) {
		return pdfSecurityReport(rec, doc, findings)
	}
	inv := Inventory{HiddenText: len(rec.Latent), Links: len(rec.Links), ExternalLinks: externalLinks(rec)}
	sec := rec.Security
	if sec == nil {
		return newSecurityReport(doc, inv, findings,
			[]Limit{{"scripts_not_counted", "the served markup was not inventoried (not HTML, or a rendered page that navigated away from it): scripts and the markup counts are null"}})
	}
	scripts, inline, external := sec.InlineScripts+sec.ExternalScripts, sec.InlineScripts, sec.ExternalScripts
	handlers, jsURLs, resources, refreshes := sec.EventHandlers, sec.JavaScriptURLs, sec.ExternalResources, len(sec.MetaRefresh)
	inv.Scripts, inv.InlineScripts, inv.ExternalScripts = &scripts, &inline, &external
	inv.EventHandlers, inv.JavaScriptURLs, inv.ExternalResources, inv.MetaRefreshes = &handlers, &jsURLs, &resources, &refreshes
	r := newSecurityReport(doc, inv, findings,
		[]Limit{{"served_markup_only", "the inventory counts the served HTML's markup; no script was run, so scripts, frames, forms and handlers a script adds are not counted"}})
	// The markup counts every frame and form, also those that did not
	// become media or actions (hidden ones); a rendered page may hold more.
	r.Inventory.Iframes = max(r.Inventory.Iframes, sec.Iframes)
	r.Inventory.Forms = max(r.Inventory.Forms, sec.Forms)
	return r
}

// markupFindings appends a web page's markup findings to fs: its scripts,
// event-handler attributes, javascript: URLs, meta refreshes and the
// resources it loads from other sites, in that order, each once.
func markupFindings(sec *normalize.Security, fs []Finding) []Finding {
	add := func(code, severity, msg string, ev Evidence) {
		fs = append(fs, Finding{ID: id("f%04d", len(fs)+1), Code: code, Severity: severity, Message: msg, Evidence: ev})
	}
	if n := sec.InlineScripts + sec.ExternalScripts; n > 0 {
		add(FindingScripts, "info", fmt.Sprintf("%d scripts (%d inline, %d external) a browser runs; sieve never runs them in a static read", n, sec.InlineScripts, sec.ExternalScripts),
			Evidence{Reason: "scripts"})
	}
	if sec.EventHandlers > 0 {
		add(FindingEventHandlers, "info", fmt.Sprintf("%d event-handler attributes run script on events", sec.EventHandlers),
			Evidence{Reason: "event_handlers", Text: strings.Join(sec.HandlerNames, " ")})
	}
	if sec.JavaScriptURLs > 0 {
		add(FindingJavaScriptURL, "warning", fmt.Sprintf("%d javascript: URLs run script when followed", sec.JavaScriptURLs),
			Evidence{Reason: "javascript_url"})
	}
	for _, m := range sec.MetaRefresh {
		switch {
		case m.External:
			add(FindingMetaRefresh, "warning", fmt.Sprintf("a meta refresh sends the visitor to another site after %d s", m.Delay),
				Evidence{Reason: "meta_refresh_other_site", Text: m.URL, URI: m.URL})
		case m.URL != "":
			add(FindingMetaRefresh, "info", fmt.Sprintf("a meta refresh moves to another page after %d s", m.Delay),
				Evidence{Reason: "meta_refresh", Text: m.URL, URI: m.URL})
		default:
			add(FindingMetaRefresh, "info", fmt.Sprintf("a meta refresh reloads the page every %d s", m.Delay),
				Evidence{Reason: "meta_refresh"})
		}
	}
	if sec.ExternalResources > 0 {
		add(FindingExternalResources, "info", fmt.Sprintf("%d of the %d resources the page loads come from other sites", sec.ExternalResources, sec.Resources),
			Evidence{Reason: "external_resources", Text: strings.Join(sec.ExternalHosts, " ")})
	}
	return fs
}

// newSecurityReport completes inv with the counts the findings give and
// wraps it with the findings (never null) and the limits.
func newSecurityReport(doc *Document, inv Inventory, findings []Finding, limits []Limit) *SecurityReport {
	for _, f := range findings {
		switch f.Code {
		case FindingPromptInjection:
			inv.PromptInjectionLike++
		case FindingForm:
			inv.Forms++
		case FindingPasswordField:
			inv.PasswordFields++
		case FindingIframe:
			inv.Iframes++
		}
	}
	if findings == nil {
		findings = []Finding{}
	}
	return &SecurityReport{
		ArtifactType: TypeSecurityReport, SchemaVersion: SchemaVersion,
		SourceFingerprint: doc.Source.Fingerprint, DocumentFingerprint: doc.Fingerprint,
		Inventory: inv, Findings: findings, Limits: limits,
	}
}
