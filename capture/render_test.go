package capture_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/render"
)

// One browser for every render test; the pages are served on 127.0.0.1.
var (
	renderCap *capture.Capturer // --tier auto
	renderAll *capture.Capturer // --tier render
	renderSrv *httptest.Server
	noChrome  error
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	if os.Getenv(captureMainEnv) == "1" {
		return captureMain() // this binary is the sieve-capture of a batch test
	}
	parallelByDefault(6)
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir("testdata/render")))
	mux.HandleFunc("/forbidden", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, "<html><head><title>Forbidden</title><script>1</script></head><body><p>Access denied.</p></body></html>")
	})
	mux.HandleFunc("/hang.png", hang)
	mux.HandleFunc("/hang.js", hang)
	mux.HandleFunc("/challenge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("cf-mitigated", "challenge")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		b, _ := os.ReadFile("testdata/render/challenge.html")
		w.Write(b)
	})
	mux.HandleFunc("/batch/", batchPage)
	renderSrv = httptest.NewServer(mux)
	defer renderSrv.Close()
	o := capture.DefaultOptions()
	o.AllowPrivate = true
	o.Tier = capture.TierAuto
	o.Concurrency = 2
	o.Browser.Settle = 4 * time.Second
	o.Browser.Timeout = 45 * time.Second // not under test: a loaded CI machine must not cut a read
	o.Browser.LaunchWait = time.Minute   // nor is this
	renderCap = capture.New(o)
	defer renderCap.Close()
	o.Tier = capture.TierRender
	renderAll = capture.New(o)
	defer renderAll.Close()
	if _, err := exec.LookPath(capture.DefaultChromium); err != nil && os.Getenv("SIEVE_CHROMIUM") == "" {
		noChrome = err
	} else if err := renderCap.Browser().Start(); err != nil {
		noChrome = err
	}
	return m.Run()
}

// parallelByDefault runs up to n parallel tests at once (-test.parallel)
// when -parallel is not given and GOMAXPROCS is lower: the tests that call
// t.Parallel have a browser of their own and mostly wait (settle windows,
// the pages' timers, a batch's kill), or are all CPU beside them (the PDF
// corpus), so on a 2-core machine two at a time would leave it idle.
func parallelByDefault(n int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set && runtime.GOMAXPROCS(0) < n {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// needChromium skips (loudly) without Chromium, or fails when
// SIEVE_REQUIRE_CHROMIUM is set (CI).
func needChromium(t *testing.T) {
	t.Helper()
	if noChrome == nil {
		return
	}
	msg := fmt.Sprintf("RENDER TESTS NOT RUN: Chromium is unavailable (%v); install it with apt-get install chromium", noChrome)
	if os.Getenv("SIEVE_REQUIRE_CHROMIUM") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// distill captures path from the test server and builds its graph.
func distill(t *testing.T, path string) (capture.Record, *graph.Record) {
	t.Helper()
	return distillWith(t, renderCap, path)
}

func distillWith(t *testing.T, cp *capture.Capturer, path string) (capture.Record, *graph.Record) {
	t.Helper()
	return captureAndGraph(t, cp, renderSrv.URL+path)
}

func contentText(g *graph.Record) string {
	var sb strings.Builder
	for _, b := range g.Blocks {
		if b.Role == "content" {
			sb.WriteString(b.Text + "\n")
		}
	}
	return sb.String()
}

func TestRenderHydratingSPA(t *testing.T) {
	needChromium(t)
	rec, g := distill(t, "/spa.html")
	if rec.Tier != capture.TierRender || rec.TierScore == nil || *rec.TierScore != 0 {
		t.Fatalf("tier %q score %v reason %q: want render after a static score of 0", rec.Tier, rec.TierScore, rec.TierReason)
	}
	if g.Outcome.Status != graph.StatusOK {
		t.Fatalf("outcome %s %v, want ok", g.Outcome.Status, g.Outcome.Evidence)
	}
	if !strings.Contains(contentText(g), "written by the application") || g.Title != "Hydrated app" {
		t.Errorf("hydrated text or title missing: %q / %q", g.Title, contentText(g))
	}
	if g.Provenance.Tier != "render" || g.Provenance.TierScore == nil || !strings.Contains(g.Provenance.TierReason, "rendered") {
		t.Errorf("provenance %+v", g.Provenance)
	}
	if g.Audit.ReachedBottom == nil || !*g.Audit.ReachedBottom || g.Audit.OrderConfidence == nil {
		t.Errorf("reached_bottom %v order_confidence %v", g.Audit.ReachedBottom, g.Audit.OrderConfidence)
	}
	for _, b := range g.Blocks {
		if b.Box == nil || b.Source != "dom" {
			t.Errorf("block %s has box %v source %q", b.ID, b.Box, b.Source)
		}
	}
	bt := rec.Trace.Browser
	if bt == nil || bt.WalkerSHA256 != capture.WalkerSHA256 || !strings.Contains(bt.Chromium, "Chrome/") || len(bt.Flags) == 0 {
		t.Errorf("trace.browser %+v", bt)
	}
}

func TestRenderShellNeverHydrates(t *testing.T) {
	needChromium(t)
	rec, g := distill(t, "/shell.html")
	if g.Outcome.Status != graph.StatusSPAShell {
		t.Fatalf("outcome %s %v, want spa_shell", g.Outcome.Status, g.Outcome.Evidence)
	}
	ev := strings.Join(g.Outcome.Evidence, " | ")
	want := fmt.Sprintf("waited %d ms", rec.Render.WaitedMS)
	if !strings.Contains(ev, want) || !strings.Contains(ev, `id="root"`) {
		t.Errorf("evidence %q lacks %q and the mount point", ev, want)
	}
}

func TestRenderHidingTechniques(t *testing.T) {
	needChromium(t)
	_, g := distillWith(t, renderAll, "/hiding.html")
	reasons := map[string]string{}
	for _, l := range g.Latent {
		reasons[strings.Fields(l.Text)[0]] = l.Reason
	}
	want := map[string]string{
		"HIDDEN-DISPLAY": "display_none", "HIDDEN-VISIBILITY": "visibility_hidden", "HIDDEN-OPACITY": "opacity_zero",
		"HIDDEN-SRONLY": "screen_reader_only", "HIDDEN-OFFSCREEN": "offscreen", "HIDDEN-FONTSIZE": "zero_font_size",
		"HIDDEN-COLOR": "same_color", "HIDDEN-DETAILS": "collapsed_details", "HIDDEN-ATTR": "hidden_attribute",
	}
	for k, r := range want {
		if reasons[k] != r {
			t.Errorf("%s: latent reason %q, want %q (latent: %v)", k, reasons[k], r, reasons)
		}
	}
	if strings.Contains(contentText(g), "HIDDEN-") {
		t.Errorf("hidden text reached the content: %q", contentText(g))
	}
	if !strings.Contains(contentText(g), "visible paragraph") {
		t.Errorf("visible text missing")
	}
}

func TestRenderShadowFrameCanvas(t *testing.T) {
	needChromium(t)
	rec, g := distillWith(t, renderAll, "/parts.html")
	if rec.Tier != capture.TierRender {
		// the static read of this page is thin with scripts; ask for render directly otherwise
		t.Fatalf("tier %q (%s)", rec.Tier, rec.TierReason)
	}
	text := contentText(g)
	md := string(render.Markdown(g))
	for _, want := range []string{"SHADOW-TEXT", "FRAME-TEXT", "CANVAS-FALLBACK"} {
		if !strings.Contains(text, want) || !strings.Contains(md, want) {
			t.Errorf("%s missing from the content blocks or index.md:\n%s\n---\n%s", want, text, md)
		}
	}
	for _, b := range g.Blocks {
		if strings.Contains(b.Text, "CANVAS-FALLBACK") && b.Source != "canvas_fallback" {
			t.Errorf("canvas block %s has source %q", b.ID, b.Source)
		}
		if strings.Contains(b.Text, "FRAME-TEXT") && (b.Source != "dom" || b.Box == nil || b.Box.Y < 100) {
			t.Errorf("frame block %s: source %q box %v (want the frame's page offset)", b.ID, b.Source, b.Box)
		}
	}
	var frame bool
	for _, m := range g.MediaAll {
		frame = frame || m.Type == "iframe" && strings.HasSuffix(m.Src, "/frame.html")
	}
	if !frame {
		t.Errorf("the iframe is not a media entry: %+v", g.MediaAll)
	}
	for _, gp := range g.Gaps {
		if gp.Kind == "frame" {
			t.Errorf("a read frame is listed as a gap: %+v", gp)
		}
	}
}

func TestRenderInfiniteScroll(t *testing.T) {
	needChromium(t)
	rec, g := distillWith(t, renderAll, "/scroll.html")
	if rec.Render == nil || rec.Render.Checkpoints == 0 {
		t.Fatalf("no sweep: %+v", rec.Render)
	}
	if !strings.Contains(contentText(g), "FEED-ITEM 25") {
		t.Errorf("lazy items not loaded after %d checkpoints", rec.Render.Checkpoints)
	}
	if g.Stats.Checkpoints != rec.Render.Checkpoints || g.Audit.ReachedBottom == nil || *g.Audit.ReachedBottom != rec.Render.ReachedBottom {
		t.Errorf("graph figures %d/%v differ from the capture's %d/%v", g.Stats.Checkpoints, g.Audit.ReachedBottom, rec.Render.Checkpoints, rec.Render.ReachedBottom)
	}
}

func TestRenderForbiddenStaysStatic(t *testing.T) {
	needChromium(t)
	rec, g := distill(t, "/forbidden")
	if rec.Tier != capture.TierStatic || g.Outcome.Status != graph.StatusBlocked {
		t.Errorf("tier %s outcome %s", rec.Tier, g.Outcome.Status)
	}
}

// Killing Chromium loses no record: the capture after the kill keeps its
// static read (partial, with the failure), and the browser is restarted
// for the next one.
func TestRenderBrowserKilled(t *testing.T) {
	needChromium(t)
	distill(t, "/spa.html")
	pid := renderCap.Browser().PID()
	if pid == 0 {
		t.Fatal("no browser pid")
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	syscall.Kill(pid, syscall.SIGKILL)
	time.Sleep(200 * time.Millisecond)
	rec, g := distill(t, "/spa.html")
	if rec.Tier == capture.TierStatic {
		if !rec.TierFellBack || rec.Render == nil || rec.Render.Error == nil || g.Outcome.Status != graph.StatusSPAShell && g.Outcome.Status != graph.StatusPartial {
			t.Errorf("after the kill: fell back %v render %+v outcome %s", rec.TierFellBack, rec.Render, g.Outcome.Status)
		}
	}
	rec, g = distill(t, "/spa.html")
	if rec.Tier != capture.TierRender || g.Outcome.Status != graph.StatusOK {
		t.Errorf("the browser was not restarted: tier %s outcome %s %v", rec.Tier, g.Outcome.Status, g.Outcome.Evidence)
	}
	if renderCap.Browser().PID() == pid {
		t.Errorf("same browser pid after the kill")
	}
}

func TestRenderMissingChromiumFallsBack(t *testing.T) {
	o := capture.DefaultOptions()
	o.AllowPrivate = true
	o.Tier = capture.TierAuto
	o.Browser.Bin = "/nonexistent/chromium"
	cp := capture.New(o)
	defer cp.Close()
	start := time.Now()
	tg, _ := capture.ParseTarget([]byte(renderSrv.URL + "/shell.html"))
	rec := cp.Capture(context.Background(), tg)
	if time.Since(start) > 5*time.Second {
		t.Errorf("fallback took %v", time.Since(start))
	}
	if rec.Tier != capture.TierStatic || !rec.TierFellBack || rec.Render == nil || rec.Render.Error == nil ||
		!strings.Contains(rec.Render.Error.Message, "apt-get install chromium") {
		t.Fatalf("tier %s fell back %v render %+v", rec.Tier, rec.TierFellBack, rec.Render)
	}
	o.Tier = capture.TierRender
	cp2 := capture.New(o)
	defer cp2.Close()
	if err := cp2.Ready(); !errors.Is(err, capture.ErrNoChromium) {
		t.Errorf("Ready() = %v, want ErrNoChromium", err)
	}
}

// TestRenderLayoutBesideColumn: a rail laid out beside the article inside
// the same wrapper reads as content without boxes (the container widens
// over it) and as chrome once the render tier says where it sits.
func TestRenderLayoutBesideColumn(t *testing.T) {
	needChromium(t)
	o := capture.DefaultOptions()
	o.AllowPrivate, o.Tier = true, capture.TierStatic
	static := capture.New(o)
	defer static.Close()
	for _, tc := range []struct {
		cp     *capture.Capturer
		role   string
		reason string
	}{{static, "content", "inside the main content"}, {renderAll, "chrome", "beside the main text column"}} {
		_, g := distillWith(t, tc.cp, "/layout.html")
		rail := 0
		for _, b := range g.Blocks {
			switch {
			case strings.HasPrefix(b.Text, "RAIL-LINE"):
				rail++
				if b.Role != tc.role || !strings.Contains(b.Reason, tc.reason) {
					t.Errorf("%s: %q is %s (%s), want %s (%s)", g.Provenance.Tier, b.Text, b.Role, b.Reason, tc.role, tc.reason)
				}
			case strings.HasPrefix(b.Text, "The third paragraph") && b.Role != "content":
				t.Errorf("%s: the article's paragraph is %s (%s)", g.Provenance.Tier, b.Role, b.Reason)
			}
		}
		if rail != 2 {
			t.Errorf("%s: %d rail blocks, want 2", g.Provenance.Tier, rail)
		}
	}
}
