// Package jsonl is the record loop every stage runs: it reads JSONL from a
// reader, hands each line to the stage, and writes exactly one line per input
// line, in input order, whatever happens to the line.
//
// Lines may be of any length. Blank lines are skipped (they carry no record).
// A line the stage cannot handle becomes an error record on the output and a
// message on stderr; the stream goes on, and Run reports how many lines failed
// so that the command can exit non-zero at the end.
package jsonl

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/record"
)

// Stage describes one filter.
type Stage struct {
	// Name appears in error records and messages ("normalize").
	Name string
	// Accept lists the record kinds the stage transforms. Lines of other
	// kinds (including error records from earlier stages) pass through
	// byte for byte, read no further than their kind when it is their
	// first member (record.Peek): such a line is checked by the stage
	// that handles its kind, not by every stage it passes. A line whose
	// kind is not first is walked whole, and fails here when it is not a
	// JSON object. Ignored when Raw is set.
	Accept []string
	// Raw hands every line to Transform without checking that it is JSON
	// (capture reads bare URLs and paths).
	Raw bool
	// Transform turns one input line into one output line (a JSON object,
	// no newline). An error, a panic, or an output that is empty or holds
	// a newline becomes an error record for that line.
	Transform func(ctx context.Context, line []byte) ([]byte, error)
	// Concurrency is how many lines may be transformed at once; output
	// order stays input order. Values below 1 mean 1.
	Concurrency int
}

// LineWriter is a writer told where lines end: Run gives WriteLine one
// whole line, with its newline and no other, where it would otherwise
// Write bytes that the writer would have to search for newlines (a
// command's run summary counts the records it writes).
type LineWriter interface {
	io.Writer
	WriteLine(line []byte) (int, error)
}

// Result counts what a run did.
type Result struct {
	Lines       int // non-blank input lines written (one output line each)
	Failed      int // lines that became error records in this stage
	Interrupted int // lines in flight when ctx was done, written as interrupted
}

// ErrFailedLines is returned (wrapped) by Run when at least one line failed.
var ErrFailedLines = errors.New("some input lines failed")

// ErrInterrupted is returned (wrapped) by Run when ctx was done before the
// input was finished, and is wrapped by the error of every line written as
// interrupted.
var ErrInterrupted = errors.New("interrupted")

// interruptedError is why a line in flight did not finish: the run's
// context was done (a signal, for a command) while it was being transformed.
type interruptedError struct{ cause error }

func interruption(ctx context.Context) error {
	return &interruptedError{cause: context.Cause(ctx)}
}

// Interruption is the error of a line that ctx's end overtook in a stage
// run outside Run's own loop (sieve distill's in-process chain): it starts
// with "interrupted" and is ErrInterrupted.
func Interruption(ctx context.Context) error { return interruption(ctx) }

// Error starts with "interrupted", the documented mark of such a line.
func (e *interruptedError) Error() string {
	return "interrupted (" + e.cause.Error() + "): the run was stopped before this line was finished"
}

func (e *interruptedError) Is(target error) bool { return target == ErrInterrupted }

func (e *interruptedError) Unwrap() error { return e.cause }

// Run processes r to w. It returns an error wrapping ErrFailedLines when any
// line failed, or the first read/write error.
//
// When ctx is done (for a command: SIGINT or SIGTERM), Run starts no
// further line and reads no further input, even when a read is blocked
// waiting for some (the goroutine reading r is left to finish that read on
// its own). The lines already written stay as they are; every line still in
// flight is written, in input order, as an error record whose error starts
// with "interrupted" (also when its transform got to the end after ctx was
// done: a line the signal overtook is not trusted). Run then returns an
// error wrapping ErrInterrupted and context.Cause(ctx), unless the whole
// input had been read and written before ctx was done.
func Run(ctx context.Context, r io.Reader, w io.Writer, stderr io.Writer, st Stage) (Result, error) {
	if stderr == nil {
		stderr = io.Discard
	}
	n := st.Concurrency
	if n < 1 {
		n = 1
	}
	out := bufio.NewWriterSize(w, 1<<16)
	lw, _ := w.(LineWriter)
	var res Result
	emit := func(no int, line, b []byte, err error) error {
		res.Lines++
		if err != nil {
			if errors.Is(err, ErrInterrupted) {
				res.Interrupted++
			} else {
				res.Failed++
			}
			stage, input := st.Name, line
			prog, named := ctx.Value(progKey{}).(string)
			var se *StageError
			if errors.As(err, &se) {
				stage, input, err = se.Stage, se.Input, se.Err
			}
			if !named {
				prog = "sieve-" + stage
			}
			fmt.Fprintf(stderr, "%s: line %d: %s%v\n", prog, no, targetOf(named && (se != nil || errors.Is(err, ErrInterrupted)), line, err), err)
			b, _ = codec.Marshal(record.NewError(stage, no, input, err))
		}
		if len(b) > 0 && len(b) == len(line) && cap(line) > len(line) && &b[0] == &line[0] {
			// A line passed through: readLines left room for the newline,
			// so it goes out in one write (out is empty: it is flushed
			// after every line).
			if lw != nil {
				_, err := lw.WriteLine(append(b, '\n'))
				return err
			}
			if _, err := out.Write(append(b, '\n')); err != nil {
				return err
			}
		} else {
			if _, err := out.Write(b); err != nil {
				return err
			}
			if err := out.WriteByte('\n'); err != nil {
				return err
			}
		}
		// Flush per line so a downstream stage (or a person) sees records
		// as they are made; the buffer still batches the write syscalls of
		// one record.
		return out.Flush()
	}
	stopped, err := runLines(ctx, r, st, n, emit)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if ctx.Err() != nil && (stopped || res.Interrupted > 0) {
		// The end of ctx explains a failed write too (the next stage of a
		// pipe got the same signal), so the interruption is what is reported.
		cause := context.Cause(ctx)
		msg := fmt.Sprintf("%s: interrupted (%v) after %d lines, %d of them in flight and written as interrupted", progOf(ctx, st), cause, res.Lines, res.Interrupted)
		if stopped {
			msg += "; the rest of the input was not started"
		}
		if err != nil {
			msg += fmt.Sprintf(" (%v)", err)
		}
		return res, &runInterrupted{msg: msg, cause: cause}
	}
	if err == nil && res.Failed > 0 {
		err = fmt.Errorf("%s: %d of %d lines failed: %w", progOf(ctx, st), res.Failed, res.Lines, ErrFailedLines)
	}
	return res, err
}

type progKey struct{}

// targetOf is "TARGET: " for a chain the user ran as one command (sieve
// distill, sieve crawl: the target in the user's words, not the stage),
// unless err already quotes it.
func targetOf(named bool, line []byte, err error) string {
	t := strings.TrimSpace(string(line))
	if strings.HasPrefix(t, "{") {
		t = gjson.Get(t, "url").String() // a target line or a crawl's item
	}
	if !named || t == "" || len(t) > 200 || strings.Contains(err.Error(), t) {
		return ""
	}
	return t + ": "
}

// WithProg names the command the user ran (e.g. "sieve distill") for the
// messages Run writes on stderr; without it they name the stage's binary.
func WithProg(ctx context.Context, prog string) context.Context {
	return context.WithValue(ctx, progKey{}, prog)
}

func progOf(ctx context.Context, st Stage) string {
	if p, ok := ctx.Value(progKey{}).(string); ok {
		return p
	}
	return "sieve-" + st.Name
}

// runInterrupted is Run's error when ctx ended the run: it is ErrInterrupted
// and unwraps to ctx's cause.
type runInterrupted struct {
	msg   string
	cause error
}

func (e *runInterrupted) Error() string        { return e.msg }
func (e *runInterrupted) Is(target error) bool { return target == ErrInterrupted }
func (e *runInterrupted) Unwrap() error        { return e.cause }

type emitFunc func(no int, line, out []byte, err error) error

type job struct {
	no     int
	line   []byte
	chunk  *chunk // the read buffer line lies in (nil: line is its own)
	out    []byte
	err    error
	done   chan struct{}
	skip   bool // queued, but never handed to a worker: not started, not written
	passed bool // passed through untransformed
}

// inLine is one line from the reader; a nil line is the end of the input,
// with the read error if there was one.
type inLine struct {
	no    int
	line  []byte
	chunk *chunk
	err   error
}

// runLines reads r, transforms its lines on n workers and emits the results in
// input order. stopped reports that ctx ended the reading before the input
// did.
//
// Three goroutines besides the workers: the reader only reads (so a read
// that blocks keeps nothing else waiting), the dispatcher starts lines, and
// the caller's goroutine writes. Each line goes into the queue first and
// then to a worker, both in input order; the writer drains the queue in
// order, waiting on each job in turn. Every queued job is running or done
// (but the one being handed over), so at most n lines are being transformed
// and about 2n more wait for an earlier one: reading never runs further
// ahead of writing than that.
func runLines(ctx context.Context, r io.Reader, st Stage, n int, emit emitFunc) (stopped bool, err error) {
	quit := make(chan struct{}) // Run has returned: the reader stops at its next line
	defer close(quit)
	lines := make(chan inLine)
	pool := &chunkPool{size: chunkSize}
	go func() {
		defer close(lines)
		err := readLines(r, pool, func(no int, line []byte, c *chunk) bool {
			select {
			case lines <- inLine{no: no, line: line, chunk: c}:
				return true
			case <-quit:
				return false
			}
		})
		select {
		case lines <- inLine{err: err}:
		case <-quit:
		}
	}()

	ord := newOrder()
	queue := make(chan *job, 2*n)
	work := make(chan *job)
	stop := make(chan struct{}) // the writer failed
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				// A line handed over as ctx ended is not transformed; one
				// the end overtook is not trusted, whatever it gave.
				if ctx.Err() == nil {
					j.out, j.passed, j.err = apply(withLine(ctx, j.no, ord), st, j.line)
				}
				if ctx.Err() != nil && !errors.Is(j.err, ErrInterrupted) {
					j.out, j.err = nil, interruption(ctx)
				}
				close(j.done)
			}
		}()
	}

	var readErr error
	go func() {
		defer close(queue)
		defer close(work)
		for {
			var in inLine
			select {
			case in = <-lines:
			case <-ctx.Done():
				stopped = true
				return
			case <-stop:
				return
			}
			if in.line == nil {
				readErr = in.err
				return
			}
			if ctx.Err() != nil { // both were ready: the end wins
				stopped = true
				return
			}
			j := &job{no: in.no, line: in.line, chunk: in.chunk, done: make(chan struct{})}
			pass := passes(st, j.line)
			if pass {
				// Done as it is queued: no worker needed.
				j.out, j.passed = j.line, true
				close(j.done)
			} else if j.chunk != nil {
				// Stage code gets a line of its own, never the read buffer.
				own := make([]byte, len(j.line), len(j.line)+1)
				copy(own, j.line)
				j.chunk.release(pool)
				j.line, j.chunk = own, nil
			}
			select {
			case queue <- j:
			case <-ctx.Done():
				stopped = true
				return
			case <-stop:
				return
			}
			if pass {
				continue
			}
			select {
			case work <- j:
			case <-ctx.Done():
				j.skip, stopped = true, true
				close(j.done)
				return
			case <-stop:
				j.skip = true
				close(j.done)
				return
			}
		}
	}()

	var writeErr error
	for j := range queue {
		<-j.done
		if writeErr != nil || j.skip {
			continue
		}
		if writeErr = emit(j.no, j.line, j.out, j.err); writeErr != nil {
			close(stop)
		}
		if j.chunk != nil && j.passed && j.err == nil {
			// No stage code saw the line, and the writer is done with it.
			j.chunk.release(pool)
		}
		ord.written.Store(int64(j.no))
	}
	wg.Wait()
	if writeErr != nil {
		return stopped, writeErr
	}
	return stopped, readErr
}

// apply runs st on line; passed reports that line is returned as it came
// without the stage's Transform having seen it (a kind it does not handle).
func apply(ctx context.Context, st Stage, line []byte) (b []byte, passed bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, passed, err = nil, false, fmt.Errorf("internal error: %v", p)
		}
	}()
	if !st.Raw {
		// A line of a kind the stage does not handle is passed on as it
		// came once its shape is right (an object whose first member is
		// its kind): its value is neither checked nor read here, which
		// the stage that handles the kind does. The cost does not grow
		// with the line.
		if passes(st, line) {
			return line, true, nil
		}
		// Otherwise one pass over the line validates it and lists its
		// top-level members; values are skipped, not decoded.
		var buf [32]record.Member
		ms, valid, object := record.Walk(line, buf[:0])
		if !valid {
			return nil, false, errors.New("malformed JSON")
		}
		if !object {
			return nil, false, errors.New("not a JSON object")
		}
		kind := record.KindOf(ms)
		if kind == "" {
			return nil, false, errors.New(`no "record" field: not a sieve record`)
		}
		if !accepts(st.Accept, kind) {
			return line, true, nil
		}
	}
	b, err = st.Transform(ctx, line)
	if err == nil && (len(b) == 0 || bytes.IndexByte(b, '\n') >= 0) {
		// Either would break one line in, one line out downstream.
		return nil, false, errors.New("internal error: stage output is not exactly one line")
	}
	return b, false, err
}

// StageError is a failure inside one stage of a Chain: the error record
// names that stage and quotes that stage's input, exactly as the stage's own
// binary would in a pipe.
type StageError struct {
	Stage string
	Input []byte
	Err   error
}

func (e *StageError) Error() string { return e.Stage + ": " + e.Err.Error() }

func (e *StageError) Unwrap() error { return e.Err }

// Chain runs stages one after another on each line inside one process, with
// the same rules as piping their binaries together: each stage transforms
// the kinds it accepts and passes the rest through, and a line that fails
// in a stage becomes that stage's error record, which later stages pass
// through. The chain's Raw flag and concurrency are its first stage's. A
// line interrupted by the end of ctx names the stage it was in.
func Chain(name string, stages ...Stage) Stage {
	first := stages[0]
	return Stage{
		Name:        name,
		Raw:         true,
		Concurrency: first.Concurrency,
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			cur := line
			for _, st := range stages {
				out, _, err := apply(ctx, st, cur)
				if ctx.Err() != nil {
					// The line is interrupted in the stage that was running.
					err = interruption(ctx)
				}
				if err != nil {
					return nil, &StageError{Stage: st.Name, Input: cur, Err: err}
				}
				cur = out
			}
			return cur, nil
		},
	}
}

// passes reports that line is of a kind st does not handle and has the
// shape of a record (record.Peek): it is passed on as it came, unread.
func passes(st Stage, line []byte) bool {
	if st.Raw {
		return false
	}
	kind, ok := record.Peek(line)
	return ok && !acceptsBytes(st.Accept, kind)
}

func acceptsBytes(kinds []string, k []byte) bool {
	for _, a := range kinds {
		if a == string(k) {
			return true
		}
	}
	return false
}

func accepts(kinds []string, k string) bool {
	for _, a := range kinds {
		if a == k {
			return true
		}
	}
	return false
}

// readLines calls fn for every non-blank line of r with its 1-based line
// number (blank lines count), until fn returns false. Lines are read into
// chunks from pool (chunkSize bytes) and handed out where they lie, with
// one reference to their chunk each (release it when done with the line;
// a reference never released leaves the chunk to the collector), and with
// room for one more byte (emit writes the newline there when a line passes
// through unchanged: it is the line's own newline or trailing white
// space). A line cut by a chunk's end is copied to the start of the next
// chunk. A line longer than a chunk is gathered in one buffer kept from
// line to line and handed out as a copy of its own (chunk nil), so it
// costs one allocation whatever its length. It returns nil at the end of r.
func readLines(r io.Reader, pool *chunkPool, fn func(no int, line []byte, c *chunk) bool) error {
	cur := pool.get()
	defer func() { cur.release(pool) }() // the reader's own reference
	var long []byte                      // a line longer than a chunk, so far
	inLong := false
	start, end, scan := 0, 0, 0 // cur.buf[start:end] is unread; no newline before scan
	no := 0
	// own hands out b (the whole of a long line) as a copy of its own.
	own := func(b []byte) bool {
		t := bytes.TrimSpace(b)
		if len(t) == 0 {
			return true
		}
		line := make([]byte, len(t), len(t)+1)
		copy(line, t)
		return fn(no, line, nil)
	}
	// inChunk hands out cur.buf[s:e] where it lies.
	inChunk := func(s, e int) bool {
		seg := cur.buf[s:e]
		t := bytes.TrimSpace(seg)
		if len(t) == 0 {
			return true
		}
		from := s + cap(seg) - cap(t)
		to := from + len(t)
		if to >= len(cur.buf) {
			return own(t) // no room for the newline (the input's last line)
		}
		cur.refs.Add(1)
		return fn(no, cur.buf[from:to:to+1], cur)
	}
	var rerr error
	empty := 0 // reads in a row that gave nothing
	for {
		if i := bytes.IndexByte(cur.buf[scan:end], '\n'); i >= 0 {
			e := scan + i
			no++
			var ok bool
			if inLong {
				long = append(long, cur.buf[:e]...)
				inLong = false
				ok = own(long)
				if cap(long) > 64<<20 {
					long = nil // do not keep one huge line's buffer for the rest of the stream
				}
			} else {
				ok = inChunk(start, e)
			}
			if !ok {
				return nil
			}
			start, scan = e+1, e+1
			continue
		}
		scan = end
		if rerr != nil {
			// What is left is the last line, without a newline.
			no++
			if inLong {
				long = append(long, cur.buf[:end]...)
				own(long)
			} else {
				inChunk(start, end)
			}
			if rerr == io.EOF {
				return nil
			}
			return rerr
		}
		if end == len(cur.buf) {
			switch {
			case inLong:
				long = append(long, cur.buf...)
				start, end, scan = 0, 0, 0
			case start == 0:
				// One line fills the chunk, which holds no other line:
				// gather it, and read on into the same chunk.
				inLong = true
				long = append(long[:0], cur.buf...)
				start, end, scan = 0, 0, 0
			case cur.refs.Load() == 1:
				// No line handed out from the chunk is still held (only
				// the reader can add a reference): slide the rest to its
				// start, as bufio does.
				n := copy(cur.buf, cur.buf[start:end])
				start, end, scan = 0, n, n
			default:
				next := pool.get()
				n := copy(next.buf, cur.buf[start:end])
				cur.release(pool)
				cur = next
				start, end, scan = 0, n, n
			}
		}
		n, err := r.Read(cur.buf[end:])
		end += n
		if err != nil {
			rerr = err
		} else if n == 0 {
			if empty++; empty >= 100 {
				rerr = io.ErrNoProgress // as bufio gives up on such a reader
			}
		} else {
			empty = 0
		}
	}
}

// chunkSize is the size of the buffers lines are read into.
const chunkSize = 2 << 20

// chunk is a read buffer shared by the lines that lie in it.
type chunk struct {
	buf  []byte
	refs atomic.Int32
}

// release drops one reference; the last one gives the chunk back to pool.
func (c *chunk) release(pool *chunkPool) {
	if c.refs.Add(-1) == 0 {
		pool.put(c)
	}
}

// chunkPool keeps the chunks whose lines are all written: a stage passing
// a stream on allocates (and zeroes, and collects) nothing per line.
type chunkPool struct {
	size int // of a chunk
	mu   sync.Mutex
	free []*chunk
}

// poolChunks is how many free chunks a pool keeps.
const poolChunks = 4

// get returns a chunk with one reference.
func (p *chunkPool) get() *chunk {
	p.mu.Lock()
	var c *chunk
	if n := len(p.free); n > 0 {
		c = p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
	}
	p.mu.Unlock()
	if c == nil {
		c = &chunk{buf: make([]byte, p.size)}
	}
	c.refs.Store(1)
	return c
}

func (p *chunkPool) put(c *chunk) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < poolChunks {
		p.free = append(p.free, c)
	}
}

// LineSplitter is an io.Writer that hands Line each complete line, its
// newline included, however the writes split them; Flush hands on a last
// line that lacked its newline, with one added.
type LineSplitter struct {
	Line func(line []byte) error
	buf  []byte
}

func (w *LineSplitter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(p), nil
		}
		if err := w.Line(w.buf[:i+1]); err != nil {
			return 0, err
		}
		w.buf = w.buf[i+1:]
	}
}

// Flush hands on what is left after the last newline, if anything.
func (w *LineSplitter) Flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	err := w.Line(append(w.buf, '\n'))
	w.buf = nil
	return err
}
