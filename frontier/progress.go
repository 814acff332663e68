package frontier

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// Progress reports a crawl on stderr: on a terminal a live line rewritten
// in place (pages done/admitted, rate, outcomes so far, the last host),
// otherwise a plain line every Every; and a summary at the end.
type Progress struct {
	w     io.Writer
	prog  string
	live  bool
	every time.Duration

	mu       sync.Mutex
	start    time.Time
	done     int
	admitted int
	sitemaps int
	counts   map[string]int
	host     string
	width    int
	stop     chan struct{}
	stopped  chan struct{}
}

// NewProgress reports to w as prog ("sieve crawl"). live is for a
// terminal; every is the interval of plain lines (and of live redraws
// when it is shorter than a second, a quarter of a second otherwise).
func NewProgress(w io.Writer, prog string, live bool, every time.Duration) *Progress {
	return &Progress{w: w, prog: prog, live: live, every: every, start: time.Now(), counts: map[string]int{}}
}

// IsTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Start begins the periodic reports; Stop ends them.
func (p *Progress) Start() {
	p.mu.Lock()
	p.start = time.Now()
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	p.mu.Unlock()
	tick := p.every
	if p.live {
		tick = 250 * time.Millisecond
	}
	if tick <= 0 {
		tick = 10 * time.Second
	}
	go func() {
		defer close(p.stopped)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.report()
			}
		}
	}()
}

// Stop ends the periodic reports and clears a live line.
func (p *Progress) Stop() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.stopped
	p.stop = nil
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live && p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		p.width = 0
	}
}

// Writer is w for the crawl's other stderr lines: each write clears a
// live progress line first (the next tick redraws it) and never lands
// inside a line being written, so the two are never interleaved.
func (p *Progress) Writer() io.Writer { return progressWriter{p} }

type progressWriter struct{ p *Progress }

func (pw progressWriter) Write(b []byte) (int, error) {
	p := pw.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live && p.width > 0 {
		if _, err := fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width)); err != nil {
			return 0, err
		}
		p.width = 0
	}
	return p.w.Write(b)
}

// Admitted counts URLs added to the frontier.
func (p *Progress) Admitted(n int) {
	p.mu.Lock()
	p.admitted += n
	p.mu.Unlock()
}

// SetTotals sets the counts a resumed crawl starts from.
func (p *Progress) SetTotals(admitted, done int) {
	p.mu.Lock()
	p.admitted, p.done = admitted, done
	p.mu.Unlock()
}

// Sitemaps counts sitemaps and feeds read.
func (p *Progress) Sitemaps(n int) {
	p.mu.Lock()
	p.sitemaps += n
	p.mu.Unlock()
}

// Done counts one page written with its outcome.
func (p *Progress) Done(outcome, host string) {
	p.mu.Lock()
	p.done++
	p.counts[outcome]++
	p.host = host
	p.mu.Unlock()
}

func (p *Progress) report() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := p.line()
	if p.live {
		pad := ""
		if n := p.width - len(line); n > 0 {
			pad = strings.Repeat(" ", n)
		}
		fmt.Fprintf(p.w, "\r%s%s", line, pad)
		p.width = len(line)
		return
	}
	fmt.Fprintln(p.w, line)
}

// line is "sieve crawl: 1200/5000 pages, 80.2/s, 1190 ok, 10 blocked, host a.test:8080".
func (p *Progress) line() string {
	el := time.Since(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.sessionDone()) / el
	}
	s := fmt.Sprintf("%s: %d/%d pages, %.1f/s", p.prog, p.done, p.admitted, rate)
	if c := p.outcomes(); c != "" {
		s += ", " + c
	}
	if p.host != "" {
		s += ", host " + p.host
	}
	return s
}

func (p *Progress) sessionDone() int {
	n := 0
	for _, c := range p.counts {
		n += c
	}
	return n
}

// outcomes is "1190 ok, 10 blocked, 2 error": ok first, error last.
func (p *Progress) outcomes() string { return cliutil.OutcomeCounts(p.counts) }

// Summary writes the crawl's end-of-run line (the count by outcome is the
// command's own summary line, after it).
func (p *Progress) Summary(pending int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	el := time.Since(p.start)
	n := p.sessionDone()
	rate := 0.0
	if el > 0 {
		rate = float64(n) / el.Seconds()
	}
	fmt.Fprintf(p.w, "%s: %d pages read in %s (%.1f pages/s); %d done in all, %d admitted, %d left in the frontier, %d sitemaps and feeds read\n",
		p.prog, n, el.Round(100*time.Millisecond), rate, p.done, p.admitted, pending, p.sitemaps)
}
