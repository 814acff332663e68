// Package crop writes the picture of cited evidence (EEF SPEC.md §4.7, §7):
// from a verification report and its grounding source it makes one crop
// descriptor per cited box, and a PNG of the box cut from the same read the
// box came from — PDF pages rendered by the embedded PDFium (internal/pdf),
// render-tier web pages cut from the capture-time screenshot. A static-tier
// page has no boxes and a screenshot-less read has no pixels: their
// descriptors say descriptor_only and why, and no picture is guessed.
//
// It reads a document (document.ethos.json, a graph record or content.json)
// and a verification report, and writes crops/crop_descriptors.jsonl and
// crops/<crop_ref>.png. Same inputs, same bytes: crop refs are hashes of
// what a crop shows, descriptors are canonical JSON, and PNGs are encoded
// by the standard library from pixels that are a function of the source.
package crop

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/verify"
)

// Descriptor identity (SPEC.md §4.7).
const (
	ArtifactType      = "ethos.crop_descriptor.v1"
	SchemaVersion     = "1.0.0"
	CoordinateProfile = "ethos_quantized_top_left_v1"
	Dir               = "crops"
	FileDescriptors   = "crop_descriptors.jsonl"
)

// Rendering statuses.
const (
	StatusRendered       = "rendered"
	StatusDescriptorOnly = "descriptor_only"
)

// Rasters: where a rendered crop's pixels came from.
const (
	RasterPDFium     = "pdfium"
	RasterScreenshot = "screenshot"
)

// Defaults.
const (
	DefaultPadding = 6   // document units (pt or CSS px) around the box
	DefaultDPI     = 144 // PDF crops; a screenshot is 96 (one pixel per CSS px)
	ScreenshotDPI  = 96
)

// Descriptor is one line of crops/crop_descriptors.jsonl.
type Descriptor struct {
	ArtifactType        string   `json:"artifact_type"`
	SchemaVersion       string   `json:"schema_version"`
	CropRef             string   `json:"crop_ref"`
	DocumentFingerprint string   `json:"document_fingerprint"`
	SourceFingerprint   *string  `json:"source_fingerprint"`
	Page                PageRef  `json:"page"`
	BBox                []int    `json:"bbox"` // the cited box [x, y, w, h], document units; null without one
	Unit                string   `json:"unit"` // pt | css_px
	CoordinateProfile   string   `json:"coordinate_profile"`
	Padding             int      `json:"padding"` // document units around bbox in the picture, clipped to the page
	DPI                 int      `json:"dpi"`
	CheckIDs            []string `json:"check_ids"`
	TextSHA256          string   `json:"text_sha256"`
	RenderingStatus     string   `json:"rendering_status"`
	Raster              string   `json:"raster,omitempty"` // pdfium | screenshot, when rendered
	Pixels              *Pixels  `json:"pixels,omitempty"` // the PNG's size and the page area it shows
	PNG                 string   `json:"png,omitempty"`    // crops/<crop_ref>.png
	Reason              string   `json:"reason,omitempty"` // why descriptor_only
}

// PageRef names the crop's page.
type PageRef struct {
	PageRef   string `json:"page_ref"`
	PageIndex int    `json:"page_index"`
}

// Pixels is a rendered crop's size in pixels and the padded box it shows,
// in document units.
type Pixels struct {
	Width  int   `json:"width"`
	Height int   `json:"height"`
	Area   []int `json:"area"`
}

// Target is one box to crop and the checks it serves.
type Target struct {
	CheckIDs []string
	PageRef  string
	BBox     *verify.Box // nil: the source has no box for the evidence
	Text     string      // the cited text the box was built from
	Reason   string      // why there is no box, when BBox is nil
}

// Targets are the grounded checks of r as boxes on pages, in check order:
// a check's box is its evidence box (a table cell, a region) or the union
// of its cited elements' boxes on the evidence page. Checks that point at
// the same box share one target. A check that is not grounded gets none:
// a crop of evidence that was not found would be a guess.
func Targets(src verify.GroundingSource, r *verify.Report) []Target {
	els := map[string]verify.Element{}
	for _, e := range src.Elements() {
		els[e.ID] = e
	}
	var out []Target
	at := map[string]int{}
	for _, c := range r.Checks {
		if c.Status != verify.StatusGrounded || c.Evidence == nil || c.Evidence.PageRef == "" {
			continue
		}
		t := target(c, els)
		key := t.PageRef + "|" + boxKey(t.BBox)
		if t.BBox == nil { // no box: one descriptor per cited element set
			key += "|" + strings.Join(c.Evidence.ElementRefs, ",")
		}
		if i, ok := at[key]; ok {
			out[i].CheckIDs = append(out[i].CheckIDs, c.CheckID)
			continue
		}
		at[key] = len(out)
		out = append(out, t)
	}
	return out
}

func target(c verify.Check, els map[string]verify.Element) Target {
	ev := c.Evidence
	t := Target{CheckIDs: []string{c.CheckID}, PageRef: ev.PageRef, Text: ev.Text}
	if len(ev.BBox) == 4 {
		t.BBox = &verify.Box{X: ev.BBox[0], Y: ev.BBox[1], W: ev.BBox[2], H: ev.BBox[3]}
		return t
	}
	var u *verify.Box
	for _, id := range ev.ElementRefs {
		e, ok := els[id]
		if !ok || e.PageRef != ev.PageRef || e.BBox == nil {
			continue
		}
		u = union(u, *e.BBox)
	}
	t.BBox = u
	if u == nil {
		t.Reason = "the source has no box for the cited elements (a static-tier web page lays out no page)"
	}
	return t
}

func union(u *verify.Box, b verify.Box) *verify.Box {
	if u == nil {
		return &b
	}
	x0, y0 := min(u.X, b.X), min(u.Y, b.Y)
	x1, y1 := max(u.X+u.W, b.X+b.W), max(u.Y+u.H, b.Y+b.H)
	return &verify.Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

func boxKey(b *verify.Box) string {
	if b == nil {
		return "none"
	}
	return fmt.Sprintf("%d,%d,%d,%d", b.X, b.Y, b.W, b.H)
}

// Ref is the crop_ref of a crop: a hash of everything that fixes it
// (document, page, box, padding, dpi, and the cited text's hash, which
// tells box-less descriptors apart), never of the checks that cite it,
// so the same box cited twice is one crop.
func Ref(docFP, pageRef string, bbox []int, padding, dpi int, textSHA256 string) string {
	b, _ := c14n.Marshal(map[string]any{"document_fingerprint": docFP, "page_ref": pageRef,
		"bbox": bbox, "padding": padding, "dpi": dpi, "text_sha256": textSHA256})
	sum := sha256.Sum256(b)
	return "crop_" + hex.EncodeToString(sum[:16])
}

// Encode writes img as a PNG with the standard library: the same pixels
// give the same bytes.
func Encode(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// textHash is the fingerprint of the cited text a box was built from.
func textHash(s string) string { return c14n.Fingerprint([]byte(s)) }

// sortedIDs copies and sorts check ids.
func sortedIDs(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}
