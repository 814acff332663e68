package graph

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/normalize"
)

// Screenshot is the capture-time picture of a rendered page, kept in the
// capture's blob store (capture --blobs): the picture the page's boxes
// were measured on, and what crops of the page are cut from (crop/). File
// is its path inside the store. Width is the viewport's, and Height the
// page's when the whole page was shot; a page taller than the shot's cap
// is shot from the top (Clipped) and Height is left out. One pixel is one
// CSS px.
type Screenshot struct {
	Key       string `json:"key"`
	MediaType string `json:"media_type"`
	File      string `json:"file"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	Clipped   bool   `json:"clipped"`
}

// screenshot is the render's screenshot, nil when none was stored.
func screenshot(rec *normalize.Record) *Screenshot {
	r := rec.Capture.Render
	if rec.Capture.Tier != "render" || r == nil || !strings.HasPrefix(r.Screenshot, "sha256:") || len(r.Screenshot) != 71 {
		return nil
	}
	hex := strings.TrimPrefix(r.Screenshot, "sha256:")
	s := &Screenshot{Key: r.Screenshot, MediaType: "image/png", File: hex[:2] + "/" + hex + ".png", Clipped: r.ScreenshotClipped}
	if b := rec.Capture.Trace.Browser; b != nil {
		fmt.Sscanf(b.Viewport, "%dx", &s.Width)
	}
	if !s.Clipped {
		s.Height = r.PageHeight
	}
	return s
}
