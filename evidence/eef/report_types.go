package eef

// Chunk is one line of chunks.jsonl: a section-aware run of content
// elements within the token budget. Chunks never carry latent text.
type Chunk struct {
	ArtifactType        string    `json:"artifact_type"`
	SchemaVersion       string    `json:"schema_version"`
	ChunkID             string    `json:"chunk_id"`
	SourceFingerprint   *string   `json:"source_fingerprint"`
	DocumentFingerprint string    `json:"document_fingerprint"`
	TextSHA256          string    `json:"text_sha256"`
	Text                string    `json:"text"`
	TokenEstimate       int       `json:"token_estimate"`
	PageRefs            []string  `json:"page_refs"`
	ElementRefs         []string  `json:"element_refs"`
	SieveSectionID      string    `json:"sieve_section_id"`
	SectionTitle        string    `json:"section_title"`
	BBoxes              [][]int   `json:"bboxes"`
	Warnings            []Warning `json:"warnings"`
}

// SecurityReport is security_report.json.
type SecurityReport struct {
	ArtifactType        string    `json:"artifact_type"`
	SchemaVersion       string    `json:"schema_version"`
	SourceFingerprint   *string   `json:"source_fingerprint"`
	DocumentFingerprint string    `json:"document_fingerprint"`
	Inventory           Inventory `json:"inventory"`
	Findings            []Finding `json:"findings"`
	Limits              []Limit   `json:"limits"`
}

// Inventory counts what the page holds that bears on trust. A nil count
// is one the graph does not know.
type Inventory struct {
	HiddenText          int  `json:"hidden_text"`
	PromptInjectionLike int  `json:"prompt_injection_like"`
	Forms               int  `json:"forms"`
	PasswordFields      int  `json:"password_fields"`
	Scripts             *int `json:"scripts"`
	Iframes             int  `json:"iframes"`
	Links               int  `json:"links"`
	ExternalLinks       int  `json:"external_links"`
	// Web pages with a markup inventory only: scripts split into inline
	// and external, on* event-handler attributes, javascript: URLs, the
	// resources the page loads from other sites, meta refreshes.
	InlineScripts     *int `json:"inline_scripts,omitempty"`
	ExternalScripts   *int `json:"external_scripts,omitempty"`
	EventHandlers     *int `json:"event_handlers,omitempty"`
	JavaScriptURLs    *int `json:"javascript_urls,omitempty"`
	ExternalResources *int `json:"external_resources,omitempty"`
	MetaRefreshes     *int `json:"meta_refreshes,omitempty"`
	// PDFs only: annotations other than links, embedded files, and link
	// actions that run or open something (launch, javascript, remote_goto).
	Annotations *int `json:"annotations,omitempty"`
	Attachments *int `json:"attachments,omitempty"`
	Actions     *int `json:"actions,omitempty"`
}

// Finding is one security finding.
type Finding struct {
	ID       string   `json:"id"`
	Code     string   `json:"code"`
	Severity string   `json:"severity"` // info | warning | high
	Message  string   `json:"message"`
	Evidence Evidence `json:"evidence"`
}

// Evidence locates a finding in the graph.
type Evidence struct {
	SieveID        string `json:"sieve_id"` // l_…, a_…, m_…, or "" for page-level findings
	SieveSectionID string `json:"sieve_section_id"`
	Reason         string `json:"reason"`
	Text           string `json:"text"` // latent text, a form target, a frame or link URL
	// PDFs: the page and box on it (points), and a link's target.
	PageRef string `json:"page_ref,omitempty"`
	BBox    []int  `json:"bbox,omitempty"`
	URI     string `json:"uri,omitempty"`
}

// Finding codes.
const (
	FindingHiddenText      = "hidden_text"
	FindingPromptInjection = "prompt_injection_like_hidden_text"
	FindingForm            = "form"
	FindingPasswordField   = "password_field"
	FindingIframe          = "iframe"
	FindingExternalLinks   = "external_links"
	// Web pages' markup.
	FindingScripts           = "scripts"            // the page's scripts, counted
	FindingEventHandlers     = "event_handlers"     // on* attributes, counted
	FindingJavaScriptURL     = "javascript_url"     // javascript: URLs, counted
	FindingMetaRefresh       = "meta_refresh"       // one meta refresh
	FindingExternalResources = "external_resources" // resources from other sites, counted
	// PDFs.
	FindingJavaScript     = "javascript"      // document-level JavaScript
	FindingLaunchAction   = "launch_action"   // a link that launches a program or file
	FindingJavaScriptLink = "javascript_link" // a link that runs JavaScript
	FindingRemoteGoto     = "remote_goto"     // a link into another document
	FindingAttachment     = "attachment"      // an embedded file
	FindingExternalLink   = "external_link"   // one uri link, with its page and box
)
