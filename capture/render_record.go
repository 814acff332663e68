package capture

import "github.com/sieve-dev/sieve/capture/caprec"

// Tiers a capture can run.
const (
	TierRender = "render" // a real browser read (Chromium)
	TierAuto   = "auto"   // static first, render when the static read scores as a shell or too thin
)

// What a browser read records: the types live in package caprec (see
// record.go).
type (
	// Render is what a browser read of a page saw, beside the walker's nodes.
	Render = caprec.Render
	// FrameGap is an embedded frame the walker could not read (cross-origin).
	FrameGap = caprec.FrameGap
	// DOMNode is one rendered node, in pre-order with the parent's index.
	DOMNode = caprec.DOMNode
	// Box is a page-coordinate border box in CSS pixels, rounded.
	Box = caprec.Box
	// BrowserTrace is what shaped a browser read, so it can be replayed.
	BrowserTrace = caprec.BrowserTrace
	// Refusal is one request the address policy kept from leaving the browser.
	Refusal = caprec.Refusal
	// Dialog is a JavaScript dialog the page opened; it was dismissed at once.
	Dialog = caprec.Dialog
	// CanvasRead is what the render tier read off one visible <canvas>.
	CanvasRead = caprec.CanvasRead
)

// Block sources of text read off a canvas (ARTIFACT: "anything other than
// dom and static was not read from a document").
const (
	SourceCanvasScene = caprec.SourceCanvasScene
	SourceCanvasOCR   = caprec.SourceCanvasOCR
)
