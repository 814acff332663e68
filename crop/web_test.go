package crop

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/schemas"
)

// webMarker is a coloured paragraph of a test page.
type webMarker struct {
	Word  string
	Color [3]uint8
	Top   int // CSS px from the page's top
}

var webMarkers = []webMarker{
	{"Alpha marker paragraph", [3]uint8{230, 0, 0}, 40},
	{"Bravo marker paragraph", [3]uint8{0, 170, 0}, 400},
	{"Charlie marker paragraph", [3]uint8{0, 0, 230}, 900},
	{"Delta marker paragraph at the bottom", [3]uint8{230, 0, 230}, 6500}, // a tall page's bottom
}

// markerPage is a page of coloured paragraphs in normal flow, each at its
// marker's top, height px tall in all.
func markerPage(height int, ms []webMarker) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Markers</title>
<style>body{margin:0;font:20px/1.2 sans-serif;color:#000}p{width:520px;margin:0 0 0 80px;padding:18px 24px;height:24px}div{margin:0}</style>
</head><body><main>`)
	y := 0
	for _, m := range ms {
		fmt.Fprintf(&b, `<div style="height:%dpx"></div><p style="background:rgb(%d,%d,%d)">%s</p>`, m.Top-y, m.Color[0], m.Color[1], m.Color[2], m.Word)
		y = m.Top + 60
	}
	fmt.Fprintf(&b, `<div style="height:%dpx"></div></main></body></html>`, height-y)
	return b.String()
}

// chromium skips (loudly) without Chromium, or fails when
// SIEVE_REQUIRE_CHROMIUM is set (CI), as capture's render tests do.
func chromium(t *testing.T) {
	t.Helper()
	bin := os.Getenv("SIEVE_CHROMIUM")
	if bin == "" {
		bin = capture.DefaultChromium
	}
	if _, err := exec.LookPath(bin); err != nil {
		msg := fmt.Sprintf("CROP RENDER TESTS NOT RUN: Chromium is unavailable (%v); install it with apt-get install chromium", err)
		if os.Getenv("SIEVE_REQUIRE_CHROMIUM") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
}

// distilWeb captures url at tier with a blob store and returns
// document.ethos.json and the graph record.
func distilWeb(t testing.TB, url, tier, blobs string) ([]byte, *graph.Record) {
	t.Helper()
	o := capture.DefaultOptions()
	o.AllowPrivate = true
	o.Tier = tier
	o.Browser.Blobs = blobs
	o.Browser.Settle = 3 * time.Second
	o.Browser.Timeout = 30 * time.Second
	c := capture.New(o)
	defer c.Close()
	tg, err := capture.ParseTarget([]byte(url))
	if err != nil {
		t.Fatal(err)
	}
	cr := c.Capture(context.Background(), tg)
	if cr.Error != nil {
		t.Fatalf("capture: %+v", cr.Error)
	}
	n, err := normalize.Normalize(&cr)
	if err != nil {
		t.Fatal(err)
	}
	rec := graph.Build(n)
	line, err := codec.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.ValidateRecord(line); err != nil { // provenance.screenshot included
		t.Fatal(err)
	}
	b, err := eef.Build(rec, eef.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := c14n.Marshal(b.Document)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("ethos-document", doc); err != nil {
		t.Fatal(err)
	}
	return doc, rec
}

func serve(t testing.TB, pages map[string]string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for path, html := range pages {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, html)
		})
	}
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(srv.Close)
	return srv
}

func TestWebMarkers(t *testing.T) {
	chromium(t)
	srv := serve(t, map[string]string{"/markers": markerPage(7000, webMarkers)})
	blobs := t.TempDir()
	doc, rec := distilWeb(t, srv.URL+"/markers", capture.TierRender, blobs)
	shot := rec.Provenance.Screenshot
	if shot == nil || shot.Clipped || shot.Width != 1280 || shot.Height < 7000 {
		t.Fatalf("provenance.screenshot = %+v, want the whole 1280 px wide page", shot)
	}
	if _, err := os.Stat(blobs + "/" + shot.File); err != nil {
		t.Fatalf("the screenshot is not at its file: %v", err)
	}
	words := make([]string, len(webMarkers))
	for i, m := range webMarkers {
		words[i] = m.Word
	}
	src, r := quotes(t, doc, words...)
	ras, err := LoadRaster(doc, src, Sources{Blobs: blobs})
	if err != nil || ras.NoPixels != "" || ras.PDF {
		t.Fatalf("raster: %v %q", err, ras.NoPixels)
	}
	make := func() Set {
		set, err := Make(src, Targets(src, &r), ras, Options{Padding: DefaultPadding, Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	set := make()
	checkMarkers(t, set, webMarkers, func(m webMarker) string { return m.Word }, func(m webMarker) [3]uint8 { return m.Color })
	for i, d := range set.Descriptors {
		if d.Unit != "css_px" || d.Raster != RasterScreenshot || d.BBox[1] < webMarkers[i].Top-8 || d.BBox[1] > webMarkers[i].Top+8 {
			t.Errorf("%s: %+v", webMarkers[i].Word, d)
		}
	}
	checkDeterministic(t, set, make())
	checkSchema(t, set)
}

// A page taller than the screenshot cap: the marker below the shot gets a
// descriptor with the reason, never a blank or guessed picture.
func TestWebBelowTheShot(t *testing.T) {
	chromium(t)
	ms := []webMarker{{"Top marker paragraph", [3]uint8{230, 0, 0}, 40}, {"Deep marker paragraph", [3]uint8{0, 0, 230}, 9500}}
	srv := serve(t, map[string]string{"/tall": markerPage(10000, ms)})
	blobs := t.TempDir()
	doc, rec := distilWeb(t, srv.URL+"/tall", capture.TierRender, blobs)
	if s := rec.Provenance.Screenshot; s == nil || !s.Clipped || s.Height != 0 {
		t.Fatalf("provenance.screenshot = %+v, want a clipped shot", s)
	}
	src, r := quotes(t, doc, ms[0].Word, ms[1].Word)
	ras, err := LoadRaster(doc, src, Sources{Blobs: blobs})
	if err != nil {
		t.Fatal(err)
	}
	set, err := Make(src, Targets(src, &r), ras, Options{Padding: DefaultPadding, Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := set.Descriptors[0]; d.RenderingStatus != StatusRendered {
		t.Errorf("top marker: %s (%s)", d.RenderingStatus, d.Reason)
	}
	if d := set.Descriptors[1]; d.RenderingStatus != StatusDescriptorOnly || !strings.Contains(d.Reason, "beyond the screenshot") {
		t.Errorf("deep marker: %+v", d)
	}
	checkSchema(t, set)
}

// A static-tier read has no boxes and no screenshot: descriptors only,
// each with the reason and no box.
func TestWebStatic(t *testing.T) {
	srv := serve(t, map[string]string{"/markers": markerPage(2000, webMarkers[:2])})
	doc, rec := distilWeb(t, srv.URL+"/markers", "static", t.TempDir())
	if rec.Provenance.Screenshot != nil {
		t.Fatalf("a static read names a screenshot: %+v", rec.Provenance.Screenshot)
	}
	src, r := quotes(t, doc, webMarkers[0].Word, webMarkers[1].Word)
	ras, err := LoadRaster(doc, src, Sources{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := Make(src, Targets(src, &r), ras, Options{Padding: DefaultPadding, Plain: true})
	if err != nil {
		t.Fatal(err)
	}
	if lines, _ := Lines(set); len(set.Descriptors) != 2 || len(set.PNGs) != 0 || bytes.Count(lines, []byte("\n")) != 2 {
		t.Fatalf("%d descriptors, %d PNGs", len(set.Descriptors), len(set.PNGs))
	}
	for _, d := range set.Descriptors {
		if d.RenderingStatus != StatusDescriptorOnly || d.BBox != nil || d.Reason == "" {
			t.Errorf("%+v", d)
		}
	}
	checkSchema(t, set)
}
