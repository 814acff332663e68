package jsonl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

var errSignal = errors.New("SIGTERM")

// interruptRun runs st on a pipe that stays open (as a terminal or a
// running upstream stage leaves stdin) and cancels ctx with errSignal once
// started lines have begun their transform. It fails the test unless Run
// returns promptly after that.
func interruptRun(t *testing.T, st Stage, total, started int, begun <-chan int64) (out []string, stderr string, res Result, err error) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	go func() {
		for i := 1; i <= total; i++ {
			if _, err := fmt.Fprintln(pw, in(i)); err != nil {
				return
			}
		}
		// The pipe stays open: no end of input.
	}()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var o, e bytes.Buffer
	type result struct {
		res Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := Run(ctx, pr, &o, &e, st)
		done <- result{res, err}
	}()
	for i := 0; i < started; i++ {
		select {
		case <-begun:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d lines started", i, started)
		}
	}
	cancel(errSignal)
	select {
	case r := <-done:
		return lines(o.String()), e.String(), r.res, r.err
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10 s of the cancel")
	}
	return nil, "", Result{}, nil
}

// blockingStage transforms line n at once when n ≤ fast, else waits for
// ctx and then still answers (a transform that gets to the end although
// the signal overtook it). begun gets each line number as it starts.
func blockingStage(conc int, fast int64, begun chan int64, calls *atomic.Int32) Stage {
	return Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			calls.Add(1)
			n := gjson.GetBytes(line, "n").Int()
			if n > fast {
				begun <- n
				<-ctx.Done()
			}
			return convert(ctx, line)
		}}
}

// On cancel the lines in flight become interrupted error records, the
// lines done before stay as they were, no further line is started, and
// Run returns without waiting for the input to end.
func TestRunInterrupted(t *testing.T) {
	for _, conc := range []int{1, 3} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			const total, fast = 20, 2
			begun := make(chan int64, total)
			var calls atomic.Int32
			st := blockingStage(conc, fast, begun, &calls)
			out, stderr, res, err := interruptRun(t, st, total, conc, begun)
			if !errors.Is(err, ErrInterrupted) || !errors.Is(err, errSignal) || errors.Is(err, ErrFailedLines) {
				t.Errorf("err = %v, want ErrInterrupted with the cause", err)
			}
			if got := int(calls.Load()); got != fast+conc {
				t.Errorf("%d lines transformed, want %d (%d done, %d in flight)", got, fast+conc, fast, conc)
			}
			if len(out) != fast+conc {
				t.Fatalf("%d output lines, want %d:\n%s", len(out), fast+conc, strings.Join(out, "\n"))
			}
			for i, l := range out {
				n := i + 1
				if n <= fast {
					if l != outOf(n) {
						t.Errorf("line %d, done before the cancel = %s", n, l)
					}
					continue
				}
				e := errorRecord(t, l)
				if e.Line != n || e.Stage != "test" || e.Input != in(n) {
					t.Errorf("line %d: %+v", n, e)
				}
				if want := "interrupted (SIGTERM): the run was stopped before this line was finished"; e.Error != want {
					t.Errorf("line %d error %q, want %q", n, e.Error, want)
				}
			}
			if res != (Result{Lines: fast + conc, Interrupted: conc}) {
				t.Errorf("res %+v", res)
			}
			if !strings.Contains(stderr, "line 3: interrupted (SIGTERM)") || !strings.Contains(err.Error(), "interrupted (SIGTERM)") {
				t.Errorf("stderr %q, err %v", stderr, err)
			}
		})
	}
}

// In a chain the interrupted record names the stage the line was in and
// quotes that stage's input, as the stage's own binary would.
func TestChainInterrupted(t *testing.T) {
	begun := make(chan int64, 4)
	var calls atomic.Int32
	first := Stage{Name: "one", Raw: true, Transform: func(_ context.Context, l []byte) ([]byte, error) {
		return []byte(`{"record":"in","n":` + string(l) + `}`), nil
	}}
	second := blockingStage(1, 0, begun, &calls)
	second.Name = "two"
	chain := Chain("both", first, second)
	pr, pw := io.Pipe()
	defer pw.Close()
	go fmt.Fprintln(pw, "1\n2\n3")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	var o bytes.Buffer
	go func() {
		_, err := Run(ctx, pr, &o, nil, chain)
		done <- err
	}()
	<-begun
	cancel(errSignal)
	if err := <-done; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	out := lines(o.String())
	if len(out) != 1 {
		t.Fatalf("%d lines: %q", len(out), out)
	}
	if e := errorRecord(t, out[0]); e.Stage != "two" || e.Input != in(1) || !strings.HasPrefix(e.Error, "interrupted (SIGTERM)") {
		t.Errorf("%+v", e)
	}
}

// A cancel that comes after the whole input was read and written
// interrupts nothing.
func TestRunCancelAfterTheEnd(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: 2,
		Transform: func(ctx context.Context, line []byte) ([]byte, error) { return convert(ctx, line) }}
	var o bytes.Buffer
	res, err := Run(ctx, strings.NewReader(in(1)+"\n"+in(2)+"\n"), &o, nil, st)
	cancel(errSignal)
	if err != nil || res != (Result{Lines: 2}) {
		t.Errorf("res %+v err %v", res, err)
	}
}

// A context done before the run starts starts no line.
func TestRunCancelledBeforeStart(t *testing.T) {
	for _, conc := range []int{1, 4} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(errSignal)
		var calls atomic.Int32
		st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
			Transform: func(ctx context.Context, line []byte) ([]byte, error) {
				calls.Add(1)
				return convert(ctx, line)
			}}
		var o bytes.Buffer
		_, err := Run(ctx, newLineReader(100), &o, nil, st)
		if !errors.Is(err, ErrInterrupted) || calls.Load() != 0 || o.Len() != 0 {
			t.Errorf("conc %d: err %v, %d calls, output %q", conc, err, calls.Load(), o.String())
		}
	}
}
