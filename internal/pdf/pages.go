package pdf

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Pages are read in parallel by several PDFium instances: PDFium is
// single-threaded, so each reader is its own wasm module instance, all
// made from the one compiled module of the engine's pool (wazero compiles
// the module once per process, or loads it from the compilation cache),
// each with the document opened in it. Readers take the next unread page
// in turn; each page's result goes to its own slot, and the document
// budget is spent afterwards in page order, so the Document is the same
// whatever the number of readers and whichever reader read a page
// (TestParallelSameAsSequential).
//
// maxReaders is the number of instances: GOMAXPROCS, at most 4 (every
// instance has its own linear memory, some 20 MB for a long document). A
// document with fewer than parallelPages pages is read by the first
// instance alone: starting another and opening the document again costs
// more than it saves. Vars for tests.
var (
	maxReaders    = min(runtime.GOMAXPROCS(0), 4)
	parallelPages = 4
)

// pageRead is what a reader found on one page before the document budget
// is spent: the page with all its characters up to limits.pageChars (none
// when the budget was already spent on the pages before it), how many the
// page has, and the errors that settle joins in order.
type pageRead struct {
	page    Page
	read    bool   // the text was read (or failed to be): settle applies the budget
	total   int    // characters on the page
	charErr string // reading the characters failed
	tagErr  string // what the structure tree's limits cut
}

// reader is one instance with the document open in it.
type reader struct {
	e   *engine
	doc references.FPDF_DOCUMENT
}

// readPages reads the pages of doc (open in e) into out.Pages, with the
// engine's helper instances when the document is long enough.
func (e *engine) readPages(doc references.FPDF_DOCUMENT, data []byte, password string, out *Document, marked bool) {
	n := len(out.Pages)
	readable := min(n, limits.pages)
	helpers := 0
	if readable >= parallelPages {
		helpers = min(maxReaders, e.size, readable) - 1
	}
	reads := make([]pageRead, n)
	track := newSpent(readable)
	var next atomic.Int64
	work := func(r reader) {
		for {
			i := int(next.Add(1) - 1)
			if i >= readable {
				return
			}
			limit := limits.pageChars
			if track.spentBefore(i) {
				limit = 0
			}
			reads[i] = r.e.readPage(r.doc, i, limit, marked)
			track.finish(i, len(reads[i].page.Chars))
		}
	}
	var wg sync.WaitGroup
	for k := range helpers {
		wg.Add(1)
		go func() { // a helper starts and opens the document while the others read
			defer wg.Done()
			if r, ok := e.openHelper(k, data, password); ok {
				defer r.e.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: r.doc})
				work(r)
			}
		}()
	}
	work(reader{e: e, doc: doc})
	wg.Wait()
	for i := readable; i < n; i++ {
		reads[i].page = Page{Index: i, Chars: []Char{}, Err: fmt.Sprintf("not read: the document has more than %d pages", limits.pages)}
	}
	settle(reads, out)
}

// settle spends the document's character budget in page order, as a
// single reader going page by page would: a page gets at most what the
// pages before it left, and says so when that cut its text.
func settle(reads []pageRead, out *Document) {
	budget := limits.docChars
	for i := range reads {
		r := &reads[i]
		p := &r.page
		if r.read {
			limit := min(limits.pageChars, budget)
			switch {
			case r.charErr != "":
				p.Chars, p.Err = []Char{}, r.charErr
			case r.total > limit && limit < limits.pageChars:
				p.Err = fmt.Sprintf("text cut: the document's first %d characters were read", limits.docChars)
			case r.total > limit:
				p.Err = fmt.Sprintf("text cut after %d characters", limits.pageChars)
			}
			if len(p.Chars) > limit {
				p.Chars = append([]Char(nil), p.Chars[:limit]...)
			}
			budget -= len(p.Chars)
			p.Err = joinErr(p.Err, r.tagErr)
		}
		out.Pages[i] = *p
		out.Tagged = out.Tagged || len(p.Tags) > 0
	}
}

// spent tracks the characters read on the pages finished in order from
// the first, so that a reader need not read the text of a page the
// document budget cannot reach: memory stays bounded by the budget plus
// a page per reader.
type spent struct {
	mu    sync.Mutex
	done  []bool
	chars []int
	next  int // the first page not finished
	sum   int // characters on pages before next
}

func newSpent(n int) *spent { return &spent{done: make([]bool, n), chars: make([]int, n)} }

// spentBefore reports that the pages before i hold the whole budget.
func (s *spent) spentBefore(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sum >= limits.docChars && s.next <= i
}

func (s *spent) finish(i, chars int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done[i], s.chars[i] = true, chars
	for s.next < len(s.done) && s.done[s.next] {
		s.sum += s.chars[s.next]
		s.next++
	}
}

// openHelper opens the document in helper instance k, starting it on
// first use; ok is false when it cannot start or open the document (the
// others read the pages then).
func (e *engine) openHelper(k int, data []byte, password string) (reader, bool) {
	h, err := e.helper(k)
	if err != nil {
		return reader{}, false
	}
	req := &requests.FPDF_LoadMemDocument{Data: &data}
	if password != "" {
		req.Password = &password
	}
	opened, err := h.inst.FPDF_LoadMemDocument(req)
	if err != nil {
		return reader{}, false
	}
	return reader{e: h, doc: opened.Document}, true
}

// helper is the engine's k-th helper instance, started when missing. A
// helper reads the way the engine does: through the requests when the
// engine's rawText is not bound.
func (e *engine) helper(k int) (*engine, error) {
	e.hmu.Lock()
	defer e.hmu.Unlock()
	for k >= len(e.helpers) {
		inst, err := e.pool.GetInstance(30 * time.Second)
		if err != nil {
			return nil, err
		}
		e.helpers = append(e.helpers, &engine{pool: e.pool, inst: inst})
	}
	h := e.helpers[k]
	switch {
	case e.raw == nil:
		h.raw = nil
	case h.raw == nil:
		h.raw, _ = bindRaw(h.inst)
	}
	return h, nil
}

// kill stops the engine's instance and its helpers (the watchdog).
func (e *engine) kill() {
	e.hmu.Lock()
	defer e.hmu.Unlock()
	e.inst.Kill()
	for _, h := range e.helpers {
		h.inst.Kill()
	}
}
