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
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"

	"github.com/sieve-dev/sieve/evidence/ground"
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
	EvidenceIDs         []string `json:"evidence_ids,omitempty"` // anchor reports: the bound evidence refs it shows
	TextSHA256          string   `json:"text_sha256"`
	RenderingStatus     string   `json:"rendering_status"`
	Raster              string   `json:"raster,omitempty"` // pdfium | screenshot, when rendered
	Pixels              *Pixels  `json:"pixels,omitempty"` // the PNG's size and the page area it shows
	PNG                 string   `json:"png,omitempty"`    // crops/<crop_ref>.png
	Reason              string   `json:"reason,omitempty"` // why descriptor_only
	Mark                *Marking `json:"mark,omitempty"`   // what a marked rendered crop outlines; none with --plain
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

// Target is one box to crop and the checks (or evidence refs) it serves.
type Target struct {
	CheckIDs    []string
	EvidenceIDs []string // anchor reports: the evidence refs bound to the box
	PageRef     string
	BBox        *ground.Box // nil: the source has no box for the evidence
	Text        string      // the cited text the box was built from
	Reason      string      // why there is no box, when BBox is nil
	// Quotes are the texts the cites quoted, to mark within the box.
	Quotes []string
	// Lines are the boxes of the quoted part of each line in BBox, when
	// the caller knows them; Make finds them on a PDF's text layer.
	Lines []ground.Box
}

// Cite is one grounded citation to crop: a verification check or a bound
// evidence ref, and where it points.
type Cite struct {
	CheckID    string // v%04d, from a verification report
	ClaimID    string // the check's claim, to find its quote in citations
	EvidenceID string // from an evidence anchor report
	Evidence   verify.Evidence
	Quote      string // the text the claim quoted, "" when unknown
}

// CitesOf are the grounded checks of r. A check that is not grounded is
// left out: a crop of evidence that was not found would be a guess.
func CitesOf(r *verify.Report) []Cite {
	var out []Cite
	for _, c := range r.Checks {
		if c.Status == verify.StatusGrounded && c.Evidence != nil && c.Evidence.PageRef != "" {
			out = append(out, Cite{CheckID: c.CheckID, ClaimID: c.ClaimID, Evidence: *c.Evidence, Quote: c.Quote()})
		}
	}
	return out
}

// Targets are the grounded checks of r as boxes on pages (TargetsOf).
func Targets(src ground.Source, r *verify.Report) []Target {
	return TargetsOf(src, CitesOf(r))
}

// TargetsOf are cites as boxes on pages, in order: a cite's box is its
// evidence box (a table cell, a region, an anchor's binding) or the union of
// its cited elements' boxes on the evidence page. Cites that point at the
// same box share one target; without a box, cites of the same elements do.
func TargetsOf(src ground.Source, cites []Cite) []Target {
	els := map[string]ground.Element{}
	for _, e := range src.Elements() {
		els[e.ID] = e
	}
	var out []Target
	at := map[string]int{}
	for _, c := range cites {
		t := target(c.Evidence, els)
		key := t.PageRef + "|" + boxKey(t.BBox)
		if t.BBox == nil {
			key += "|" + strings.Join(c.Evidence.ElementRefs, ",")
		}
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, t)
		}
		if c.CheckID != "" {
			out[i].CheckIDs = append(out[i].CheckIDs, c.CheckID)
		}
		if c.EvidenceID != "" {
			out[i].EvidenceIDs = append(out[i].EvidenceIDs, c.EvidenceID)
		}
		if c.Quote != "" && !slices.Contains(out[i].Quotes, c.Quote) {
			out[i].Quotes = append(out[i].Quotes, c.Quote)
		}
	}
	return out
}

// WithQuotes gives each cite of a check the text its claim quoted (its
// value for a value claim), from the citations the report checked.
func WithQuotes(cites []Cite, cit verify.Citations) []Cite {
	q := map[string]string{}
	for _, c := range cit.Claims {
		q[c.ClaimID] = cmp.Or(c.Text, c.Value)
	}
	for i, c := range cites {
		if c.Quote == "" && c.ClaimID != "" {
			cites[i].Quote = q[c.ClaimID]
		}
	}
	return cites
}

func target(ev verify.Evidence, els map[string]ground.Element) Target {
	t := Target{PageRef: ev.PageRef, Text: ev.Text}
	if len(ev.BBox) == 4 {
		t.BBox = &ground.Box{X: ev.BBox[0], Y: ev.BBox[1], W: ev.BBox[2], H: ev.BBox[3]}
		return t
	}
	var u *ground.Box
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

func union(u *ground.Box, b ground.Box) *ground.Box {
	if u == nil {
		return &b
	}
	x0, y0 := min(u.X, b.X), min(u.Y, b.Y)
	x1, y1 := max(u.X+u.W, b.X+b.W), max(u.Y+u.H, b.Y+b.H)
	return &ground.Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

func boxKey(b *ground.Box) string {
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
	out := append([]string{}, ids...) // never nil: check_ids is an array
	slices.Sort(out)
	return slices.Compact(out)
}
