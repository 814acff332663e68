package capture_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/ocr"
	"github.com/sieve-dev/sieve/verify"
)

// needTesseract skips (loudly) without Tesseract, or fails when
// SIEVE_REQUIRE_TESSERACT is set (CI), as needChromium does.
func needTesseract(t *testing.T) {
	t.Helper()
	needChromium(t)
	if _, err := ocr.Version(); err != nil {
		msg := fmt.Sprintf("CANVAS OCR TESTS NOT RUN: %v", err)
		if os.Getenv("SIEVE_REQUIRE_TESSERACT") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// canvasSizes are the lines canvas_text.html draws on its light canvas.
var canvasSizes = []struct {
	px   int
	text string
}{
	{14, "Weekly orders rose to 1520 units in the northern region"},
	{18, "Average delivery time fell to three days"},
	{24, "Customer returns stayed below two percent"},
	{32, "Warehouse capacity used 87 percent"},
	{48, "Revenue 4.2 million"},
}

func blocksOf(g *graph.Record, source string) []graph.Block {
	var out []graph.Block
	for _, b := range g.Blocks {
		if b.Source == source {
			out = append(out, b)
		}
	}
	return out
}

// wordAccuracy is the share of want's words found, in order, among got's.
func wordAccuracy(want, got string) float64 {
	w, g := strings.Fields(strings.ToLower(want)), strings.Fields(strings.ToLower(got))
	hit, j := 0, 0
	for _, x := range w {
		for k := j; k < len(g); k++ {
			if g[k] == x {
				hit, j = hit+1, k+1
				break
			}
		}
	}
	return float64(hit) / float64(len(w))
}

func canvasAllText(g *graph.Record) string {
	var sb strings.Builder
	for _, b := range g.Blocks {
		sb.WriteString(b.Text + "\n")
	}
	for _, l := range g.Latent {
		sb.WriteString(l.Text + "\n")
	}
	return sb.String()
}

func TestCanvasOCRReadsTextInReadingOrder(t *testing.T) {
	needTesseract(t)
	rec, g := captureAndGraph(t, patientRenderer(t), renderSrv.URL+"/canvas_text.html")
	ocrd := blocksOf(g, capture.SourceCanvasOCR)
	if len(ocrd) < len(canvasSizes)+2 {
		t.Fatalf("%d canvas_ocr blocks, want at least %d: %+v", len(ocrd), len(canvasSizes)+2, ocrd)
	}
	var got strings.Builder
	for _, b := range ocrd {
		got.WriteString(b.Text + "\n")
		if b.Role != "content" {
			t.Errorf("canvas_ocr block %s %q is %s (%s)", b.ID, b.Text, b.Role, b.Reason)
		}
	}
	// word accuracy per size (docs/CANVAS.md quotes these figures)
	for _, s := range canvasSizes {
		acc := wordAccuracy(s.text, got.String())
		t.Logf("canvas_ocr word accuracy at %d px: %.1f%% (%d words)", s.px, 100*acc, len(strings.Fields(s.text)))
		if acc < 0.9 {
			t.Errorf("%d px line %q read at %.0f%% of words from %q", s.px, s.text, 100*acc, got.String())
		}
	}
	for _, want := range []string{"Night shift output 640 crates", "Generator load normal"} {
		if acc := wordAccuracy(want, got.String()); acc < 1 {
			t.Errorf("light-on-dark line %q read at %.0f%%: %q", want, 100*acc, got.String())
		}
	}
	all := canvasAllText(g)
	for _, never := range []string{"IGNORE", "wire the funds", "Hidden canvas words"} {
		if strings.Contains(all, never) {
			t.Errorf("%q is in the artifact: text a visitor cannot see was read off a canvas", never)
		}
	}
	order := contentText(g)
	i, j, k := strings.Index(order, "drawn on canvases"), strings.Index(order, "Revenue"), strings.Index(order, "End of the dashboard")
	if i < 0 || j < i || k < j {
		t.Errorf("canvas text not in reading order with the page (%d, %d, %d):\n%s", i, j, k, order)
	}
	checkCanvasRecord(t, rec, 2)
}

// checkCanvasRecord checks render.canvases (one per visible canvas, the
// hidden one not listed), the boxes and trace.browser.ocr.
func checkCanvasRecord(t *testing.T, rec capture.Record, n int) {
	t.Helper()
	cs := rec.Render.Canvases
	if len(cs) != n {
		t.Fatalf("render.canvases %+v, want %d", cs, n)
	}
	for _, c := range cs {
		if c.Source != capture.SourceCanvasOCR || c.Lines == 0 || c.Gap != "" || c.Scale <= 0 {
			t.Errorf("canvas read %+v", c)
		}
	}
	if v := rec.Trace.Browser.OCR; !strings.HasPrefix(v, "tesseract ") {
		t.Errorf("trace.browser.ocr %q, want Tesseract's version", v)
	}
	in := func(b capture.Box) bool {
		for _, c := range cs {
			if b.X >= c.Box.X && b.Y >= c.Box.Y && b.X+b.W <= c.Box.X+c.Box.W && b.Y+b.H <= c.Box.Y+c.Box.H {
				return true
			}
		}
		return false
	}
	for _, d := range rec.DOM {
		if d.Source == capture.SourceCanvasOCR && d.Tag == "p" && (d.Box == nil || d.Box.W == 0 || !in(*d.Box)) {
			t.Errorf("canvas_ocr node box %+v is not inside its canvas", d.Box)
		}
	}
}

func TestCanvasOCRMissingTesseractIsAGap(t *testing.T) {
	needChromium(t)
	t.Setenv("SIEVE_TESSERACT", "/nonexistent/tesseract")
	rec, g := distillWith(t, renderAll, "/canvas_text.html")
	if rec.Render == nil || rec.Trace.Browser == nil {
		t.Fatalf("not rendered (tier %s, %s): render %+v", rec.Tier, rec.TierReason, rec.Render)
	}
	if n := len(blocksOf(g, capture.SourceCanvasOCR)); n != 0 {
		t.Fatalf("%d canvas_ocr blocks without Tesseract", n)
	}
	gaps := 0
	for _, gp := range g.Gaps {
		if gp.Kind == "canvas" && strings.Contains(gp.Reason, "tesseract is not installed") && strings.HasPrefix(gp.Label, "canvas at (") {
			gaps++
		}
	}
	if gaps != 2 || len(rec.Render.Canvases) != 2 || rec.Trace.Browser.OCR != "" {
		t.Errorf("%d canvas gaps %+v, canvases %+v, ocr %q: want one gap per visible canvas", gaps, g.Gaps, rec.Render.Canvases, rec.Trace.Browser.OCR)
	}
}

func TestCanvasSceneLabels(t *testing.T) {
	needChromium(t)
	rec, g := distillWith(t, renderAll, "/canvas_scene.html")
	var shown []string
	for _, b := range blocksOf(g, capture.SourceCanvasScene) {
		shown = append(shown, b.Text)
	}
	want := []string{"Engine room", "Score 4200", "Lives 3", "Start game", "Reactor core"}
	if strings.Join(shown, "|") != strings.Join(want, "|") {
		t.Errorf("canvas_scene blocks %q, want %q", shown, want)
	}
	latent := map[string]string{}
	for _, l := range g.Latent {
		for _, line := range strings.Split(l.Text, "\n") { // neighbours with one reason share an entry
			latent[line] = l.Reason
		}
	}
	for text, reason := range map[string]string{
		"Cargo bay": "offscreen", "Crew deck": "offscreen", "Bridge": "visibility_hidden", "Galley": "zero_size",
		"Faded hatch": "opacity_zero", "Hidden group label": "visibility_hidden",
		"Secret level code": "opacity_zero", "Offstage banner": "offscreen", "Debug panel": "visibility_hidden",
	} {
		if latent[text] != reason {
			t.Errorf("latent %q: reason %q, want %q (latent %v)", text, latent[text], reason, latent)
		}
	}
	order := contentText(g)
	if i, j, k := strings.Index(order, "labels live"), strings.Index(order, "Engine room"), strings.Index(order, "After the viewers"); i < 0 || j < i || k < j {
		t.Errorf("scene text not in reading order:\n%s", order)
	}
	for _, c := range rec.Render.Canvases {
		if c.Source != capture.SourceCanvasScene {
			t.Errorf("canvas %+v: a canvas with a scene graph is not read by OCR", c)
		}
	}
	// the fake camera puts "Engine room" at NDC (-0.2, 0.2): 160 px into its 400×400 canvas
	c := rec.Render.Canvases[0].Box
	for _, d := range rec.DOM {
		if d.Source == capture.SourceCanvasScene && d.Tag == "p" && d.Box != nil && d.Box.X == c.X+160 && d.Box.Y == c.Y+160 {
			return
		}
	}
	t.Errorf("no canvas_scene box at (%d, %d)", c.X+160, c.Y+160)
}

func TestCanvasOCRVerifyGroundsQuote(t *testing.T) {
	needTesseract(t)
	_, g := captureAndGraph(t, patientRenderer(t), renderSrv.URL+"/canvas_text.html")
	var block *graph.Block
	for _, b := range blocksOf(g, capture.SourceCanvasOCR) {
		if strings.Contains(b.Text, "Generator") {
			block = &b
		}
	}
	if block == nil {
		t.Fatal("no canvas_ocr block with \"Generator\"")
	}
	gb, err := codec.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	src, err := ground.FromGraph(gb)
	if err != nil {
		t.Fatal(err)
	}
	claim := verify.Claim{ClaimID: "c1", Kind: "quote", Text: block.Text, Locator: &verify.Locator{Element: block.ID}}
	rep := verify.Verify(src, verify.Citations{Claims: []verify.Claim{claim}})
	ch := rep.Checks[0]
	if ch.Status != verify.StatusGrounded || ch.Evidence == nil || len(ch.Evidence.NativeRefs) != 1 || ch.Evidence.NativeRefs[0] != block.ID {
		t.Errorf("check %+v evidence %+v: want grounded on %s", ch, ch.Evidence, block.ID)
	}
	if !strings.Contains(ch.Reason, "source canvas_ocr") {
		t.Errorf("reason %q does not say the quote was OCR'd", ch.Reason)
	}
	miss := verify.Verify(src, verify.Citations{Claims: []verify.Claim{{ClaimID: "c2", Kind: "quote", Text: "wire the funds"}}})
	if miss.Checks[0].Status == verify.StatusGrounded {
		t.Errorf("the background-colour injection grounds: %+v", miss.Checks[0])
	}
}
