package normalize

import capture "github.com/sieve-dev/sieve/capture/caprec"

// Record is the normalized record: the served document as a flat, ordered
// node list plus document-level facts. It carries the capture it came from
// (without the body) so later stages need nothing else.
type Record struct {
	Record            string      `json:"record"`         // "normalized"
	SchemaVersion     string      `json:"schema_version"` // "1.0"
	URL               string      `json:"url"`
	FinalURL          string      `json:"final_url"`
	NormalizerVersion string      `json:"normalizer_version"`
	Capture           CaptureInfo `json:"capture"`
	Doc               Doc         `json:"doc"`
	Nodes             []Node      `json:"nodes"`
	Stats             Stats       `json:"stats"`
}

// CaptureInfo is the capture record minus its body and envelope.
type CaptureInfo struct {
	Tier        string             `json:"tier"`
	Status      int                `json:"status"`
	Redirects   []capture.Redirect `json:"redirects"`
	Headers     map[string]string  `json:"headers"`
	ContentType string             `json:"content_type"`
	Charset     capture.Charset    `json:"charset"`
	BodyBytes   int64              `json:"body_bytes"`
	// SourceFingerprint is the capture's source_fingerprint.
	SourceFingerprint string          `json:"source_fingerprint,omitempty"`
	Truncated         bool            `json:"truncated"`
	BodyOmitted       string          `json:"body_omitted,omitempty"`
	Robots            *capture.Robots `json:"robots,omitempty"`
	Error             *capture.Error  `json:"error,omitempty"`
	Timing            capture.Timing  `json:"timing"`
	Trace             capture.Trace   `json:"trace"`
	// The tier decision and the browser read (render and auto tiers).
	TierScore    *float64        `json:"tier_score,omitempty"`
	TierReason   string          `json:"tier_reason,omitempty"`
	TierFellBack bool            `json:"tier_fell_back,omitempty"`
	Render       *capture.Render `json:"render,omitempty"`
	// PDF is a PDF's pages and document facts without the text layer.
	PDF *capture.PDFInfo `json:"pdf,omitempty"`
}

// Node is one DOM node in document (pre-)order: an element or a text node.
// The tree is recoverable from Parent. Comments, doctype, and the content of
// script, style, template and noscript elements never become nodes.
type Node struct {
	ID     int    `json:"id"`     // index in Nodes
	Parent int    `json:"parent"` // index of the parent element, -1 for the root
	Tag    string `json:"tag"`    // lower-case element name, or "#text"
	// Path locates an element: tag names from the root with 1-based
	// positions among same-tag siblings, "html/body/main/p[2]". Elements only.
	Path  string `json:"path,omitempty"`
	Role  string `json:"role,omitempty"`  // explicit role attribute, else the implicit ARIA role
	Level int    `json:"level,omitempty"` // heading level 1–6 (h1–h6, or aria-level on role=heading)
	// Text is the normalised text of a text node (textnorm rules); a text
	// node of white space only is kept as a single space, since it
	// separates inline runs.
	Text  string            `json:"text,omitempty"`
	Pre   bool              `json:"pre,omitempty"`   // text inside <pre>/<textarea>: not collapsed
	Attrs map[string]string `json:"attrs,omitempty"` // the attributes later stages need (see KeptAttrs)
	// Hidden is this element's own visibility verdict, a reason code, empty
	// when nothing on the element hides it. Descendants of a hidden element
	// are hidden too; they do not repeat the reason.
	Hidden string `json:"hidden,omitempty"`
	// HiddenRule is the evidence for Hidden: the attribute, declaration or
	// style-sheet rule that fired (`style="display:none"`, `.promo { display: none }`,
	// `class="sr-only"`, `attribute hidden`).
	HiddenRule string `json:"hidden_rule,omitempty"`
	Source     string `json:"source"`         // "static" (served HTML), "dom" (rendered), "pdf" (a PDF text layer), "pdf_ocr" (a PDF page's text read by OCR), canvas_fallback / canvas_scene / canvas_ocr (a canvas's fallback, scene graph, pixels)
	Box        *Box   `json:"box,omitempty"`  // page coordinates: CSS px (render tier) or points on page Page (PDF)
	Page       int    `json:"page,omitempty"` // PDF: 1-based page number of the node
}

// Box is an element's border box in CSS pixels, page coordinates, rounded
// to integers.
type Box struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// Hidden reason codes (static tier).
const (
	HiddenAttr        = "hidden_attribute" // the hidden attribute
	HiddenDisplay     = "display_none"
	HiddenVisibility  = "visibility_hidden" // visibility:hidden or collapse
	HiddenOpacity     = "opacity_zero"
	HiddenOffscreen   = "offscreen" // positioned far outside the page
	HiddenClip        = "clipped"   // clip / clip-path to nothing
	HiddenFontSize    = "zero_font_size"
	HiddenZeroSize    = "zero_size"          // width/height 0 with overflow hidden
	HiddenDetails     = "collapsed_details"  // content of a closed <details>
	HiddenSROnly      = "screen_reader_only" // sr-only / visually-hidden classes
	HiddenDialog      = "closed_dialog"      // <dialog> without open
	HiddenInput       = "hidden_input"       // <input type=hidden>
	HiddenSameColor   = "same_color"         // render tier: text colour equal to its background
	HiddenNotRendered = "not_rendered"       // render tier: checkVisibility() false, no other reason found
)

// Hidden reason codes of PDF text (HiddenSameColor too: a fill colour equal
// to the paint under the text).
const (
	HiddenPDFInvisible   = "pdf_invisible"   // text render mode 3 (invisible) or 7 (clip only)
	HiddenPDFTransparent = "pdf_transparent" // fill alpha (near) 0
	HiddenPDFOffPage     = "pdf_off_page"    // the text's box lies outside the page (crop box)
	HiddenPDFTiny        = "pdf_tiny"        // font size under 2 pt
)

// Doc holds document-level facts.
type Doc struct {
	Title     string            `json:"title"`
	Lang      string            `json:"lang,omitempty"`      // <html lang>, else Content-Language
	Base      string            `json:"base,omitempty"`      // <base href>, resolved
	Canonical string            `json:"canonical,omitempty"` // <link rel=canonical>, resolved
	Meta      map[string]string `json:"meta,omitempty"`      // name/property → content: description, og:*, twitter:*, robots, generator, refresh
	JSONLD    []string          `json:"jsonld,omitempty"`    // raw text of each application/ld+json script
	Noscript  []string          `json:"noscript,omitempty"`  // normalised text of each <noscript>
	Scripts   Scripts           `json:"scripts"`
	// Security is the served markup's security inventory (scripts,
	// frames, forms, event handlers, resources, meta refreshes); absent
	// when the served HTML was not read or does not describe the page (a
	// rendered page that navigated away from it).
	Security *Security `json:"security,omitempty"`
	// RootHidden is the loading-state rules that hid html, body or the
	// wrapper of the whole page until a script lifts them ("body: body
	// { visibility: hidden }"): recorded, not applied (showLoadingState).
	RootHidden string `json:"root_hidden,omitempty"`
}

// Scripts summarises the page's scripts (they never become text).
type Scripts struct {
	Count       int      `json:"count"`
	InlineBytes int      `json:"inline_bytes"`
	External    []string `json:"external,omitempty"` // resolved src URLs, in order, at most 50
	Markers     []string `json:"markers,omitempty"`  // inline-script tokens later stages look for (challenge vendors), deduplicated, in order
}

// Stats counts what normalization saw.
type Stats struct {
	Elements     int `json:"elements"`
	TextNodes    int `json:"text_nodes"`
	SkippedNodes int `json:"skipped_nodes"` // comments, script/style/template/noscript subtrees, svg/math internals
	StyleRules   int `json:"style_rules"`   // style-sheet rules considered for visibility
	// CutNodes counts the nodes past the node budget (Limits.Nodes), not
	// read; absent under it.
	CutNodes int `json:"cut_nodes,omitempty"`
}
