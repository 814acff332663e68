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
	"sync"

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
				if named {
					prog += ": " + stage // the stage of a chain
				}
			}
			if !named {
				prog = "sieve-" + stage
			}
			fmt.Fprintf(stderr, "%s: line %d: %v\n", prog, no, err)
			b, _ = codec.Marshal(record.NewError(stage, no, input, err))
		}
		if len(b) > 0 && len(b) == len(line) && cap(line) > len(line) && &b[0] == &line[0] {
			// A line passed through: readLines left room for the newline,
			// so it goes out in one write.
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
	out    []byte
	err    error
	done   chan struct{}
	skip   bool // queued, but never handed to a worker: not started, not written
	passed bool // passed through untransformed: line's buffer is free once written
}

// inLine is one line from the reader; a nil line is the end of the input,
// with the read error if there was one.
type inLine struct {
	no   int
	line []byte
	err  error
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
	pool := &linePool{}
	go func() {
		defer close(lines)
		err := readLines(r, pool.get, func(no int, line []byte) bool {
			select {
			case lines <- inLine{no: no, line: line}:
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
					j.out, j.passed, j.err = apply(ctx, st, j.line)
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
			j := &job{no: in.no, line: in.line, done: make(chan struct{})}
			select {
			case queue <- j:
			case <-ctx.Done():
				stopped = true
				return
			case <-stop:
				return
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
		if j.passed && j.err == nil {
			// No stage code saw the line, and the writer is done with it.
			pool.put(j.line)
		}
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
		if kind, ok := record.Peek(line); ok && !acceptsBytes(st.Accept, kind) {
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
// number (blank lines count), until fn returns false. Each line slice comes
// from get (a buffer no one else holds) and is owned by fn, with room for
// one more byte (emit appends the newline there when a line passes through
// unchanged). The pieces of a line longer than the read buffer are
// gathered in one buffer kept from line to line, so a line costs at most
// one allocation and one copy whatever its length. It returns nil at the
// end of r.
func readLines(r io.Reader, get func(n int) []byte, fn func(no int, line []byte) bool) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var long []byte // the pieces of a line longer than br's buffer, reused
	for no := 1; ; no++ {
		frag, err := br.ReadSlice('\n')
		raw := frag
		if err == bufio.ErrBufferFull {
			long = append(long[:0], frag...)
			for err == bufio.ErrBufferFull {
				frag, err = br.ReadSlice('\n')
				long = append(long, frag...)
			}
			raw = long
			if cap(long) > 64<<20 {
				long = nil // do not keep one huge line's buffer for the rest of the stream
			}
		}
		if t := bytes.TrimSpace(raw); len(t) > 0 {
			line := get(len(t))
			copy(line, t)
			if !fn(no, line) {
				return nil
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// linePool keeps the buffers of lines that passed through for the lines
// read after them: a stage passing a stream on allocates (and zeroes, and
// collects) nothing per line once its buffers fit the stream's lines.
// Buffers are allocated in power-of-two sizes so that one fits lines of
// similar length; at most poolBytes are kept, and no buffer larger than
// poolBuf (a longer line is allocated for itself, as before).
type linePool struct {
	mu    sync.Mutex
	free  [][]byte
	bytes int
}

const (
	poolBytes = 16 << 20
	poolBuf   = 4 << 20
)

// get returns a slice of length n and capacity above n.
func (p *linePool) get(n int) []byte {
	if n+1 > poolBuf {
		return make([]byte, n, n+1)
	}
	p.mu.Lock()
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; cap(b) > n {
			last := len(p.free) - 1
			p.free[i] = p.free[last]
			p.free[last] = nil
			p.free = p.free[:last]
			p.bytes -= cap(b)
			p.mu.Unlock()
			return b[:n]
		}
	}
	p.mu.Unlock()
	size := 4 << 10
	for size < n+1 {
		size <<= 1
	}
	return make([]byte, n, size)
}

// put gives back a buffer get returned once nothing holds it any more.
func (p *linePool) put(b []byte) {
	if cap(b) > poolBuf {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+cap(b) > poolBytes {
		return
	}
	p.free = append(p.free, b[:0])
	p.bytes += cap(b)
}
