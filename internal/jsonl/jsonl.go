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
	// byte for byte. Ignored when Raw is set.
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
	Lines  int // non-blank input lines
	Failed int // lines that became error records in this stage
}

// ErrFailedLines is returned (wrapped) by Run when at least one line failed.
var ErrFailedLines = errors.New("some input lines failed")

// Run processes r to w. It returns an error wrapping ErrFailedLines when any
// line failed, or the first read/write error. When ctx is done Run reads no
// further line, writes the lines already in hand and returns ctx's error.
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
		if err != nil {
			res.Failed++
			stage, input := st.Name, line
			var se *StageError
			if errors.As(err, &se) {
				stage, input, err = se.Stage, se.Input, se.Err
			}
			fmt.Fprintf(stderr, "sieve-%s: line %d: %v\n", stage, no, err)
			b, _ = codec.Marshal(record.NewError(stage, no, input, err))
		}
		if _, err := out.Write(b); err != nil {
			return err
		}
		if err := out.WriteByte('\n'); err != nil {
			return err
		}
		// Flush per line so a downstream stage (or a person) sees records
		// as they are made; the buffer still batches the write syscalls of
		// one record.
		return out.Flush()
	}
	var err error
	if n == 1 {
		err = runSerial(ctx, r, st, emit, &res)
	} else {
		err = runParallel(ctx, r, st, n, emit, &res)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err == nil && res.Failed > 0 {
		err = fmt.Errorf("sieve-%s: %d of %d lines failed: %w", st.Name, res.Failed, res.Lines, ErrFailedLines)
	}
	return res, err
}

type emitFunc func(no int, line, out []byte, err error) error

func runSerial(ctx context.Context, r io.Reader, st Stage, emit emitFunc, res *Result) error {
	return readLines(ctx, r, func(no int, line []byte) error {
		res.Lines++
		b, err := apply(ctx, st, line)
		return emit(no, line, b, err)
	})
}

type job struct {
	no   int
	line []byte
	out  []byte
	err  error
	done chan struct{}
}

// errStopped ends the reader when the writer has failed.
var errStopped = errors.New("jsonl: writer stopped")

func runParallel(ctx context.Context, r io.Reader, st Stage, n int, emit emitFunc, res *Result) error {
	// Each job goes to a worker first and then into the queue, both in
	// input order; the writer drains the queue in order, waiting on each
	// job in turn. Every queued job is running or done, so at most n lines
	// are being transformed and 2n more wait for an earlier one: reading
	// never runs further ahead of writing than that.
	queue := make(chan *job, 2*n)
	work := make(chan *job)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				j.out, j.err = apply(ctx, st, j.line)
				close(j.done)
			}
		}()
	}
	var readErr error
	go func() {
		defer close(queue)
		defer close(work)
		readErr = readLines(ctx, r, func(no int, line []byte) error {
			j := &job{no: no, line: line, done: make(chan struct{})}
			select {
			case work <- j:
			case <-stop:
				return errStopped
			}
			queue <- j // the writer drains the queue until it is closed
			return nil
		})
	}()
	var writeErr error
	for j := range queue {
		<-j.done
		if writeErr != nil {
			continue
		}
		res.Lines++
		if writeErr = emit(j.no, j.line, j.out, j.err); writeErr != nil {
			close(stop)
		}
	}
	wg.Wait()
	if writeErr != nil {
		return writeErr
	}
	return readErr
}

func apply(ctx context.Context, st Stage, line []byte) (b []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	if !st.Raw {
		if !gjson.ValidBytes(line) {
			return nil, errors.New("malformed JSON")
		}
		if line[0] != '{' {
			return nil, errors.New("not a JSON object")
		}
		kind := record.Kind(line)
		if kind == "" {
			return nil, errors.New(`no "record" field: not a sieve record`)
		}
		if !accepts(st.Accept, kind) {
			return line, nil
		}
	}
	b, err = st.Transform(ctx, line)
	if err == nil && (len(b) == 0 || bytes.IndexByte(b, '\n') >= 0) {
		// Either would break one line in, one line out downstream.
		return nil, errors.New("internal error: stage output is not exactly one line")
	}
	return b, err
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
// through. The chain's Raw flag and concurrency are its first stage's.
func Chain(name string, stages ...Stage) Stage {
	first := stages[0]
	return Stage{
		Name:        name,
		Raw:         true,
		Concurrency: first.Concurrency,
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			cur := line
			for _, st := range stages {
				out, err := apply(ctx, st, cur)
				if err != nil {
					return nil, &StageError{Stage: st.Name, Input: cur, Err: err}
				}
				cur = out
			}
			return cur, nil
		},
	}
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
// number (blank lines count). Each line slice is freshly allocated and owned
// by fn. It stops with ctx's error once ctx is done.
func readLines(ctx context.Context, r io.Reader, fn func(no int, line []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	for no := 1; ; no++ {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			if ferr := fn(no, line); ferr != nil {
				return ferr
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
