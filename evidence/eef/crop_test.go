package eef

import (
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/schemas"
)

// A page declares crop support only where pixels exist: a rendered page
// with boxes and a screenshot; the screenshot is named in source.
func TestCropCapability(t *testing.T) {
	rec := load(t, "article")
	rec.Provenance.Tier = "render"
	rec.Blocks[0].Box = &graph.Box{X: 10, Y: 20, W: 300, H: 40}
	for _, tc := range []struct {
		name string
		shot *graph.Screenshot
		crop bool
		why  string
	}{
		{"no screenshot", nil, false, "kept no screenshot"},
		{"screenshot", &graph.Screenshot{Key: "sha256:" + strings.Repeat("ab", 32), MediaType: "image/png",
			File: "ab/" + strings.Repeat("ab", 32) + ".png", Width: 1280, Height: 900}, true, ""},
	} {
		rec.Provenance.Screenshot = tc.shot
		b, files := build(t, rec)
		c := b.Document.Payload.Capabilities
		if c.Crop != tc.crop || !strings.Contains(limit(c.Limits, "no_crop"), tc.why) || (tc.crop && limit(c.Limits, "no_crop") != "") {
			t.Errorf("%s: crop %v, limits %+v", tc.name, c.Crop, c.Limits)
		}
		if b.Document.Source.Screenshot != tc.shot {
			t.Errorf("%s: source.screenshot %+v", tc.name, b.Document.Source.Screenshot)
		}
		if err := schemas.Validate("ethos-document", files[FileDocument]); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
