package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
)

// The manifest benchmark (make bench-go): every page of the shared
// evaluation sets distilled through the MCP server (in-memory transport,
// local files, static tier), comparing what distill returns with the
// page's size. ARTIFACT.md: the manifest "is roughly flat in the size of
// the document". Pages are split into quartiles by size; each quartile
// reports its median page bytes, manifest.json bytes and whole distill
// result bytes (text + structured content, as the client receives it).

type sized struct {
	page, manifest, result  int
	path, artifact, section string
}

var (
	sizesOnce sync.Once
	sizes     map[string][]sized
	sizesErr  error
	sizesSess *session
	sizesDir  string
)

// benchPages gunzips the set's pages into dir and returns their paths.
func benchPages(set, dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(bench.Dir(), set, "html", "*.gz"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	sort.Strings(files)
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, set+"-"+strings.TrimSuffix(filepath.Base(f), ".gz"))
		if !strings.HasSuffix(p, ".html") && !strings.HasSuffix(p, ".htm") {
			p += ".html"
		}
		if err := bench.Gunzip(f, p); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func measure(b *testing.B) map[string][]sized {
	sizesOnce.Do(func() {
		sizesDir, sizesErr = os.MkdirTemp("", "sieve-mcp-bench-")
		if sizesErr != nil {
			return
		}
		o := capture.DefaultOptions()
		o.Tier = capture.TierStatic
		sizesSess = connectBench(b, Options{Capture: o, AllowPaths: true, Store: filepath.Join(sizesDir, "store")})
		sizes = map[string][]sized{}
		for _, set := range []string{"scrapinghub", "trafilatura-eval"} {
			paths, err := benchPages(set, sizesDir)
			if err != nil {
				sizesErr = err
				return
			}
			for _, p := range paths {
				fi, err := os.Stat(p)
				if err != nil {
					sizesErr = err
					return
				}
				res, err := sizesSess.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"path": p}})
				if err != nil || res.IsError {
					continue // a page the chain refuses is no manifest
				}
				whole, _ := json.Marshal(res)
				var d struct {
					Artifact string          `json:"artifact"`
					Manifest json.RawMessage `json:"manifest"`
				}
				sc, _ := json.Marshal(res.StructuredContent)
				json.Unmarshal(sc, &d) //nolint:errcheck // checked by the tests
				mb, _ := os.ReadFile(filepath.Join(sizesSess.srv.opts.Store, "artifacts", d.Artifact, "manifest.json"))
				var m manifest
				json.Unmarshal(mb, &m) //nolint:errcheck
				sec := ""
				if len(m.Sections) > 0 {
					sec = m.Sections[len(m.Sections)/2].ID
				}
				sizes[set] = append(sizes[set], sized{page: int(fi.Size()), manifest: len(mb), result: len(whole), path: p, artifact: d.Artifact, section: sec})
			}
		}
	})
	if sizesErr != nil {
		b.Fatal(sizesErr)
	}
	if len(sizes["scrapinghub"]) == 0 {
		b.Skip("no pages in " + bench.Dir())
	}
	return sizes
}

// connectBench is connect for a benchmark (the session outlives it).
func connectBench(b *testing.B, o Options) *session {
	s, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sieve-bench", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	return &session{srv: s, cs: cs}
}

func median(xs []int) float64 {
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return float64(s[len(s)/2])
}

// reportQuartiles reports median page, manifest and result bytes per page
// size quartile (q1 smallest pages).
func reportQuartiles(b *testing.B, rows []sized) {
	rows = append([]sized(nil), rows...)
	sort.Slice(rows, func(i, j int) bool { return rows[i].page < rows[j].page })
	for q := 0; q < 4; q++ {
		part := rows[q*len(rows)/4 : (q+1)*len(rows)/4]
		var page, man, res []int
		for _, r := range part {
			page, man, res = append(page, r.page), append(man, r.manifest), append(res, r.result)
		}
		n := string(rune('1' + q))
		b.ReportMetric(median(page)/1024, "page-KB-q"+n)
		b.ReportMetric(median(man)/1024, "manifest-KB-q"+n)
		b.ReportMetric(median(res)/1024, "result-KB-q"+n)
	}
}

func benchManifest(b *testing.B, set string) {
	rows := measure(b)[set]
	if len(rows) == 0 {
		b.Skip("no pages")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// One distill per iteration, cycling through the set: ns/op is the
		// latency of distill over MCP on a local page (capture included).
		r := rows[i%len(rows)]
		res, err := sizesSess.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"path": r.path}})
		if err != nil || res.IsError {
			b.Fatalf("distill %s: %v %+v", r.path, err, res)
		}
	}
	b.StopTimer()
	reportQuartiles(b, rows)
}

func BenchmarkMCPManifestScrapinghub(b *testing.B) { benchManifest(b, "scrapinghub") }

func BenchmarkMCPManifestTrafilatura(b *testing.B) { benchManifest(b, "trafilatura-eval") }

// BenchmarkMCPGetSectionCached: get_section on a stored artifact over the
// in-memory transport (decoded graph cached): the latency an agent sees
// per content fetch after distill.
func BenchmarkMCPGetSectionCached(b *testing.B) {
	rows := measure(b)["scrapinghub"]
	warm(b, rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := rows[i%min(len(rows), cacheSize)]
		res, err := sizesSess.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_section",
			Arguments: map[string]any{"artifact": r.artifact, "section_id": r.section}})
		if err != nil || res.IsError {
			b.Fatalf("get_section: %v %+v", err, res)
		}
	}
}

// BenchmarkMCPSearchCached: search on a stored artifact.
func BenchmarkMCPSearchCached(b *testing.B) {
	rows := measure(b)["scrapinghub"]
	warm(b, rows)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := rows[i%min(len(rows), cacheSize)]
		res, err := sizesSess.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search",
			Arguments: map[string]any{"artifact": r.artifact, "query": "the"}})
		if err != nil || res.IsError {
			b.Fatalf("search: %v %+v", err, res)
		}
	}
}

// warm decodes the artifacts the cached benchmarks read, so that they
// measure the call, not the first read of content.json.
func warm(b *testing.B, rows []sized) {
	for _, r := range rows[:min(len(rows), cacheSize)] {
		if _, err := sizesSess.srv.store.record(r.artifact); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMCPDistillLatency: distill over MCP (in-memory transport) on a
// static page, a render-tier page and a PDF (local files), from a server
// started warm as `sieve mcp` starts (Options.Warm: the browser and the PDF
// engine are up before the first call and kept). It reports the p50 and
// p95 of the timed calls and the first call's latency, which on a warm
// server costs the page, not a start.
func BenchmarkMCPDistillLatency(b *testing.B) {
	dir := b.TempDir()
	article := `<!doctype html><html lang="en"><head><title>Latency</title></head><body><main><h1>Latency</h1>` +
		strings.Repeat(`<p>A paragraph of an article that an agent distills over MCP, long enough to be read as one.</p>`, 12) + `</main></body></html>`
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte(article), 0o644); err != nil {
		b.Fatal(err)
	}
	pdfPath, err := filepath.Abs(filepath.Join("..", "internal", "pdf", "pdftest", "testdata", "article.pdf"))
	if err != nil {
		b.Fatal(err)
	}
	o := capture.DefaultOptions()
	o.Tier = capture.TierRender
	sess := connectBench(b, Options{Capture: o, AllowPaths: true, Store: filepath.Join(dir, "store"), Warm: true})
	defer sess.srv.Close()
	sess.srv.warmed.Wait() // a server that has been up a moment
	cases := []struct{ name, path, tier string }{
		{"static", page, capture.TierStatic},
		{"render", page, capture.TierRender},
		{"pdf", pdfPath, capture.TierStatic},
	}
	for _, c := range cases {
		var first time.Duration // the server's first call of this kind
		b.Run(c.name, func(b *testing.B) {
			if c.tier == capture.TierRender {
				if _, err := exec.LookPath(capture.DefaultChromium); err != nil {
					b.Skip("no Chromium at " + capture.DefaultChromium)
				}
			}
			call := func() time.Duration {
				start := time.Now()
				res, err := sess.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill",
					Arguments: map[string]any{"path": c.path, "tier": c.tier}})
				if err != nil || res.IsError {
					b.Fatalf("distill %s (%s): %v %+v", c.path, c.tier, err, res)
				}
				return time.Since(start)
			}
			if d := call(); first == 0 {
				first = d
			}
			took := make([]int, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				took = append(took, int(call().Microseconds()))
			}
			b.StopTimer()
			sort.Ints(took)
			b.ReportMetric(float64(took[len(took)/2])/1000, "p50-ms")
			b.ReportMetric(float64(took[min(len(took)-1, len(took)*95/100)])/1000, "p95-ms")
			b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
		})
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sizesSess != nil {
		sizesSess.srv.Close()
	}
	if sizesDir != "" {
		os.RemoveAll(sizesDir)
	}
	os.Exit(code)
}
