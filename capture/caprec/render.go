package caprec

// Render is what a browser read of a page saw, beside the walker's nodes.
// waited_ms and the timing-like fields are volatile: they differ per run.
type Render struct {
	Status            int          `json:"status"`    // HTTP status of the main document as the browser saw it
	FinalURL          string       `json:"final_url"` // document URL after redirects and script navigation
	Title             string       `json:"title"`     // document.title after rendering
	Lang              string       `json:"lang,omitempty"`
	WaitedMS          int64        `json:"waited_ms"` // from navigation to the end of the settle wait
	Settled           string       `json:"settled"`   // quiet | text | cap: what ended the settle wait
	Hydrated          bool         `json:"hydrated"`  // the page's visible text grew after the load event
	ReachedBottom     bool         `json:"reached_bottom"`
	Checkpoints       int          `json:"checkpoints"`                  // scroll steps of the sweep
	PageHeight        int          `json:"page_height"`                  // CSS px after the sweep
	Screenshot        string       `json:"screenshot,omitempty"`         // blob key (sha256:…) of the PNG
	ScreenshotClipped bool         `json:"screenshot_clipped,omitempty"` // taller than the cap: the top part only
	Navigated         bool         `json:"navigated,omitempty"`          // a script or meta refresh loaded another document than the served one
	FrameGaps         []FrameGap   `json:"frame_gaps"`                   // frames the walker could not enter
	Refused           []Refusal    `json:"refused,omitempty"`            // requests the address policy kept from leaving the browser, and windows closed unopened
	RefusedMore       int          `json:"refused_more,omitempty"`       // refusals not listed (at most 100 are); past 1,000 repeats count again
	Dialogs           []Dialog     `json:"dialogs,omitempty"`            // JavaScript dialogs the page opened (each dismissed at once)
	Retried           bool         `json:"retried,omitempty"`            // read a second time: the first ran out of time, or showed far less text than the static read (then with a longer settle)
	Canvases          []CanvasRead `json:"canvases,omitempty"`           // visible canvases whose text was read (canvas_scene, canvas_ocr) or not (gap): see CanvasRead
	Error             *Error       `json:"error,omitempty"`              // why the browser read failed (kind "render")
}

// FrameGap is an embedded frame the walker could not read (cross-origin).
type FrameGap struct {
	Src    string `json:"src"`
	Reason string `json:"reason"`
}

// DOMNode is one rendered node: an element or a text node ("#text"), in
// pre-order with the parent's index. Role, level and path are derived by
// normalize, as for served HTML.
type DOMNode struct {
	Parent     int               `json:"parent"`
	Tag        string            `json:"tag"`
	Text       string            `json:"text,omitempty"`
	Attrs      map[string]string `json:"attrs,omitempty"`
	Hidden     string            `json:"hidden,omitempty"`      // own visibility verdict (a normalize reason code)
	HiddenRule string            `json:"hidden_rule,omitempty"` // the computed-style evidence
	Source     string            `json:"source,omitempty"`      // "canvas_fallback" under <canvas>, canvas_scene / canvas_ocr for text read off one; else dom
	Box        *Box              `json:"box,omitempty"`         // page coordinates, CSS px
}

// Box is a page-coordinate border box in CSS pixels, rounded.
type Box struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// BrowserTrace is what shaped a browser read, so it can be replayed.
type BrowserTrace struct {
	Chromium        string   `json:"chromium"`      // product/version the browser reports
	UserAgent       string   `json:"user_agent"`    // the browser's User-Agent: sieve's (--user-agent)
	WalkerSHA256    string   `json:"walker_sha256"` // hash of the in-page walker script
	Viewport        string   `json:"viewport"`      // WxH CSS px
	Locale          string   `json:"locale"`
	Timezone        string   `json:"timezone"`
	Flags           []string `json:"flags"`       // every command-line flag given to Chromium
	SettleMS        int64    `json:"settle_ms"`   // the settle-wait cap
	SweepSteps      int      `json:"sweep_steps"` // the sweep cap
	RenderTimeoutMS int64    `json:"render_timeout_ms"`
	Sandboxed       bool     `json:"sandboxed"`              // Chromium's sandbox is on
	RunAs           string   `json:"run_as"`                 // "nobody" when sieve runs as root, else "self"
	SandboxNote     string   `json:"sandbox_note,omitempty"` // why the sandbox is off
	HeapMB          int      `json:"heap_mb"`                // each page's JavaScript heap limit
	MemoryMB        int      `json:"memory_mb"`              // the browser tree's memory budget
	OCR             string   `json:"ocr,omitempty"`          // Tesseract's version, when a canvas was read by OCR
}

// Refusal is one request the address policy kept from leaving the browser.
type Refusal struct {
	URL          string `json:"url"`           // the request's URL, or host:port for a tunnel
	ResourceType string `json:"resource_type"` // Document, Script, Image, Fetch, WebSocket, … ("Other" when not known)
	Reason       string `json:"reason"`
	TopLevel     bool   `json:"top_level,omitempty"` // the page's own navigation
	OutOfScope   bool   `json:"-"`                   // refused by the crawl's scope (capture.WithScope), not the address policy; never encoded
}

// Dialog is a JavaScript dialog the page opened; it was dismissed at once.
type Dialog struct {
	Type    string `json:"type"` // alert, confirm, prompt, beforeunload
	Message string `json:"message"`
}

// Block sources of text read off a canvas (ARTIFACT: "anything other than
// dom and static was not read from a document").
const (
	SourceCanvasScene = "canvas_scene" // a text object of a scene graph (three.js, Pixi.js, Babylon.js GUI)
	SourceCanvasOCR   = "canvas_ocr"   // read off the canvas's pixels by Tesseract
)

// CanvasRead is what the render tier read off one visible <canvas>.
type CanvasRead struct {
	Box        Box     `json:"box"`                  // the canvas, page CSS px
	Source     string  `json:"source,omitempty"`     // canvas_scene or canvas_ocr; empty when not read (see gap)
	Library    string  `json:"library,omitempty"`    // canvas_scene: the scene graph's library
	Lines      int     `json:"lines"`                // blocks it gave (scene texts or OCR lines), latent ones included
	Latent     int     `json:"latent,omitempty"`     // canvas_scene: texts the visitor cannot see (to latent[])
	Scale      float64 `json:"scale,omitempty"`      // canvas_ocr: screenshot pixels per CSS px
	Downscaled bool    `json:"downscaled,omitempty"` // canvas_ocr: over capture.MaxCanvasPixels, shot smaller than its size
	Dropped    int     `json:"dropped,omitempty"`    // canvas_ocr: words under the confidence floor (not content)
	Gap        string  `json:"gap,omitempty"`        // why the canvas was not read
}
