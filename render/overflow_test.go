package render_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// overflowViewports are the widths index.html must fit: a narrow phone and
// a laptop (CSS px).
var overflowViewports = []int{360, 1280}

// benchOverflowPages is how many shared bench pages are checked besides
// the sample site, half from each set.
const benchOverflowPages = 20

// TestIndexHTMLNoOverflow renders index.html of every page of the bundled
// sample site, and of 20 shared bench pages when ../shared/bench is there,
// in headless Chromium at a narrow and a normal viewport: the page never
// scrolls sideways (document.scrollingElement.scrollWidth <= innerWidth);
// long URLs and words wrap, code and tables scroll inside their own box.
// Without Chromium it skips loudly; SIEVE_REQUIRE_CHROMIUM=1 makes that a
// failure.
func TestIndexHTMLNoOverflow(t *testing.T) {
	b := overflowBrowser(t)
	start := time.Now()
	defer func() { t.Logf("in all %s", time.Since(start).Round(time.Millisecond)) }()
	out := t.TempDir()
	var dirs []string

	site := httptest.NewServer(sample.Handler())
	defer site.Close()
	opts := capture.DefaultOptions()
	opts.AllowPrivate = true
	opts.Tier = capture.TierStatic
	cp := capture.New(opts)
	defer cp.Close()
	for _, p := range sample.Pages() {
		tg, err := capture.ParseTarget([]byte(site.URL + p))
		if err != nil {
			t.Fatal(err)
		}
		rec := cp.Capture(context.Background(), tg)
		dirs = append(dirs, writeIndex(t, out, &rec))
	}
	nSample := len(dirs)

	benchDir := os.Getenv("SIEVE_BENCH_DIR")
	if benchDir == "" {
		benchDir, _ = filepath.Abs(filepath.Join("..", "..", "shared", "bench"))
		t.Setenv("SIEVE_BENCH_DIR", benchDir)
	}
	if _, err := os.Stat(benchDir); err != nil {
		t.Logf("BENCH PAGES NOT CHECKED: %s is absent (%v); only the sample site was", benchDir, err)
	} else {
		for _, set := range []string{bench.SetScrapinghub, bench.SetTrafilatura} {
			pages, err := bench.LoadTruth(set)
			if err != nil {
				t.Fatal(err)
			}
			n := benchOverflowPages / 2
			for i := range n {
				p := pages[i*len(pages)/n]
				rec, err := bench.CapturePage(cp, set, t.TempDir(), p)
				if err != nil {
					t.Fatal(err)
				}
				dirs = append(dirs, writeIndex(t, out, rec))
			}
		}
	}

	// The render goldens' hand-written graphs: hostile text, a table with
	// a footer row, a PDF.
	inputs, err := filepath.Glob("testdata/*.graph.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		data, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		var g graph.Record
		if err := codec.Unmarshal(data, &g); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		dirs = append(dirs, writeGraph(t, out, &g))
	}
	prepared := time.Now()

	// A control page that is too wide: the check must see it.
	control := filepath.Join(out, "control.html")
	if err := os.WriteFile(control, []byte("<!doctype html><title>wide</title><pre>"+strings.Repeat("x", 3000)+"</pre>"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	checked := 0
	for _, w := range overflowViewports {
		page := viewportPage(t, b, w)
		if overflow(t, page, srv.URL+"/control.html") == "" {
			t.Fatalf("at %d px the check does not see a 3,000-character <pre> line stick out", w)
		}
		for _, dir := range dirs {
			u := srv.URL + "/" + filepath.ToSlash(dir) + "/index.html"
			if wide := overflow(t, page, u); wide != "" {
				t.Errorf("%s at %d px scrolls sideways: %s", dir, w, wide)
			}
			checked++
		}
	}
	t.Logf("%d index.html pages (%d of the sample site, %d bench pages, %d golden graphs) at %v px: %d checks in %s",
		len(dirs), nSample, len(dirs)-nSample-len(inputs), len(inputs), overflowViewports, checked, time.Since(prepared).Round(time.Millisecond))
}

// writeIndex runs rec through normalize, graph and render into out and
// returns the artifact directory, relative to out.
func writeIndex(t *testing.T, out string, rec *capture.Record) string {
	t.Helper()
	n, err := normalize.Normalize(rec)
	if err != nil {
		t.Fatal(err)
	}
	return writeGraph(t, out, graph.Build(n))
}

// writeGraph renders g into out and returns the artifact directory,
// relative to out.
func writeGraph(t *testing.T, out string, g *graph.Record) string {
	t.Helper()
	a, err := render.Write(render.Options{Out: out, NoEvidence: true}, g)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(out, a.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// viewportPage opens a tab whose viewport is w CSS px wide.
func viewportPage(t *testing.T, b *rod.Browser, w int) *rod.Page {
	t.Helper()
	page, err := b.Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { page.Close() })
	if err := page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: w, Height: 800, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
	return page
}

// overflow loads url in page and returns "" when the document is no wider
// than the viewport, else its widths and the elements that stick out.
func overflow(t *testing.T, page *rod.Page, url string) string {
	t.Helper()
	page = page.Timeout(60 * time.Second)
	defer page.CancelTimeout()
	if err := page.Navigate(url); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	res, err := page.Eval(`() => {
		const se = document.scrollingElement, vw = innerWidth;
		if (se.scrollWidth <= vw) return "";
		const out = [];
		for (const el of document.body.querySelectorAll("*")) {
			const r = el.getBoundingClientRect();
			if (r.right > vw + 0.5 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > vw + 0.5)) {
				out.push(el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + " right " + Math.round(r.right) + ": " + (el.textContent || "").slice(0, 60));
			}
		}
		return "scrollWidth " + se.scrollWidth + " > innerWidth " + vw + "; " + out.slice(0, 5).join(" | ");
	}`)
	if err != nil {
		t.Fatal(err)
	}
	return res.Value.Str()
}

// overflowBrowser starts headless Chromium as internal/pdf/pdftest does
// (Debian's by default, never a download; no network: the pages come from
// 127.0.0.1 and index.html loads nothing). It skips loudly without one,
// unless SIEVE_REQUIRE_CHROMIUM is set.
func overflowBrowser(t *testing.T) *rod.Browser {
	t.Helper()
	bin := os.Getenv("SIEVE_CHROMIUM")
	if bin == "" {
		bin = capture.DefaultChromium
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		msg := fmt.Sprintf("INDEX.HTML OVERFLOW TEST NOT RUN: Chromium is unavailable (%v); install it with apt-get install chromium", err)
		if os.Getenv("SIEVE_REQUIRE_CHROMIUM") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l := launcher.New().Context(ctx).Bin(path).Leakless(true).UserDataDir(t.TempDir()).
		Set("headless").Set("no-sandbox").Set("disable-gpu").Set("no-first-run").Set("hide-scrollbars").
		Set("disable-background-networking").Set("disable-component-update").Set("disable-dev-shm-usage").
		Set("proxy-server", "http://127.0.0.1:9").Set("proxy-bypass-list", "127.0.0.1")
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		t.Fatalf("connecting to %s: %v", path, err)
	}
	t.Cleanup(func() {
		b.Close()
		l.Kill()
		l.Cleanup()
	})
	return b
}
