package bench

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// sampleStep is the sample of each set the quality floors score: every
// 4th scrapinghub page, every 10th trafilatura-eval page, by id.
var sampleStep = map[string]int{SetScrapinghub: 4, SetTrafilatura: 10}

// read is what the tests need of one page read through capture, normalize
// and graph: its outcome, and for a sampled page its text, its scored
// Markdown and its whole Markdown. The tests share the reads: each page is
// captured, normalized and built once per test process, where three tests
// read every sampled page before.
type read struct {
	err      error
	status   string
	evidence []string
	text     string
	md       string
	full     string
}

var reads = struct {
	sync.Mutex
	bySet map[string]map[int]*read
}{bySet: map[string]map[int]*read{}}

// readPages returns the reads of pages[i] for i in idx, reading those not
// read yet GOMAXPROCS at a time.
func readPages(t *testing.T, set string, pages []Page, idx []int) []*read {
	t.Helper()
	reads.Lock()
	defer reads.Unlock()
	done := reads.bySet[set]
	if done == nil {
		done = map[int]*read{}
		reads.bySet[set] = done
	}
	var todo []int
	for _, i := range idx {
		if done[i] == nil {
			todo = append(todo, i)
		}
	}
	got := make([]*read, len(todo))
	work := make(chan int)
	var wg sync.WaitGroup
	tmp := t.TempDir()
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for k := range work {
				got[k] = readPage(set, tmp, pages[todo[k]], todo[k]%sampleStep[set] == 0)
			}
		})
	}
	for k := range todo {
		work <- k
	}
	close(work)
	wg.Wait()
	for k, i := range todo {
		done[i] = got[k]
	}
	out := make([]*read, len(idx))
	for k, i := range idx {
		out[k] = done[i]
	}
	return out
}

// readPage reads one page; sampled pages are rendered as the quality
// tests score them.
func readPage(set, tmp string, p Page, sampled bool) *read {
	rec, err := CapturePage(capturer, set, tmp, p)
	if err != nil {
		return &read{err: err}
	}
	n, err := normalize.Normalize(rec)
	if err != nil {
		return &read{err: fmt.Errorf("%s %s: %v", set, p.ID, err)}
	}
	g := graph.Build(n)
	r := &read{status: g.Outcome.Status, evidence: g.Outcome.Evidence}
	if sampled {
		r.text, r.md, r.full = string(render.Text(g)), MarkdownScored(g), string(render.ContentMarkdown(g, false))
	}
	return r
}

// sampleReads returns the set's sample (samplePages) and its reads; a page
// that could not be read fails the test.
func sampleReads(t *testing.T, set string) ([]Page, []*read) {
	t.Helper()
	all, pages := setPages(t, set)
	var idx []int
	for i := 0; i < len(all); i += sampleStep[set] {
		idx = append(idx, i)
	}
	rs := readPages(t, set, all, idx)
	for _, r := range rs {
		if r.err != nil {
			t.Fatal(r.err)
		}
	}
	return pages, rs
}
