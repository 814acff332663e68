package cliutil

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// These tests send SIGTERM to the test process itself, always while Main
// has the signal in hand (signal.Notify), and wait until it was seen.

func terminateSelf(t *testing.T) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
}

// A stage command stopped by SIGTERM: the line in flight is an interrupted
// error record, the rest of the input is not started, exit 130.
func TestMainSignalInterruptsStage(t *testing.T) {
	begun := make(chan struct{}, 10)
	var calls atomic.Int32
	st := jsonl.Stage{Name: "test", Raw: true, Transform: func(ctx context.Context, line []byte) ([]byte, error) {
		calls.Add(1)
		begun <- struct{}{}
		<-ctx.Done()
		return []byte(`{"record":"out"}`), nil
	}}
	cmd := &cli.Command{Action: func(c *cli.Context) error {
		go func() {
			<-begun
			terminateSelf(t)
		}()
		_, err := jsonl.Run(c.Context, Stdin(c), Stdout(c), Stderr(c), st)
		return err
	}}
	var out, errw bytes.Buffer
	app := App("sieve-test", cmd, IO{Stdin: strings.NewReader("a\nb\nc\n"), Stdout: &out, Stderr: &errw})
	code := Main(app, []string{"sieve-test"})
	if code != ExitInterrupted || ExitInterrupted != 130 {
		t.Errorf("code %d, want 130", code)
	}
	if calls.Load() != 1 {
		t.Errorf("%d lines started, want 1", calls.Load())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1 || record.Kind([]byte(lines[0])) != record.KindError || !strings.Contains(lines[0], `"error":"interrupted (SIGTERM): `) {
		t.Errorf("stdout %q", out.String())
	}
	if !strings.Contains(errw.String(), "sieve-test: interrupted (SIGTERM) after 1 lines") {
		t.Errorf("stderr %q", errw.String())
	}
}

// A command that fails after the signal (whatever the failure) exits 130;
// one that ends cleanly on it (a server told to stop) exits 0.
func TestMainSignalExitCode(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		code int
	}{
		{"fails", errors.New("read: context canceled"), ExitInterrupted},
		{"coded failure", codedErr{}, ExitInterrupted},
		{"clean end", nil, ExitOK},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := &cli.Command{Action: func(c *cli.Context) error {
				terminateSelf(t)
				<-c.Context.Done()
				var sig Signal
				if !errors.As(context.Cause(c.Context), &sig) || sig.Error() != "SIGTERM" {
					t.Errorf("cause %v", context.Cause(c.Context))
				}
				return tt.err
			}}
			var errw bytes.Buffer
			app := App("sieve-test", cmd, IO{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errw})
			if code := Main(app, []string{"sieve-test"}); code != tt.code {
				t.Errorf("code %d, want %d (stderr %q)", code, tt.code, errw.String())
			}
		})
	}
}

// A second signal exits at once with 130, after giving the OnForcedExit
// hooks a bounded chance: one that hangs does not hold the exit up.
func TestMainSecondSignalExits(t *testing.T) {
	exited := make(chan int, 1)
	exit = func(code int) { exited <- code }
	defer func() { exit = osExit }()
	release := make(chan struct{})
	var cleaned, unregistered atomic.Bool
	var secondAt atomic.Int64 // unix nanoseconds
	cmd := &cli.Command{Action: func(c *cli.Context) error {
		defer OnForcedExit(c.Context, func() { cleaned.Store(true) })()
		defer OnForcedExit(c.Context, func() { <-release })() // a cleanup that hangs
		OnForcedExit(c.Context, func() { unregistered.Store(true) })()
		terminateSelf(t)
		<-c.Context.Done() // a command that ignores the signal from here on
		secondAt.Store(time.Now().UnixNano())
		terminateSelf(t)
		<-release
		return nil
	}}
	var errw bytes.Buffer
	app := App("sieve-test", cmd, IO{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errw})
	done := make(chan int, 1)
	go func() { done <- Main(app, []string{"sieve-test"}) }()
	select {
	case code := <-exited:
		if took := time.Since(time.Unix(0, secondAt.Load())); took > forcedExitWait+time.Second {
			t.Errorf("exit %v after the second signal", took)
		}
		if code != ExitInterrupted {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit after the second signal")
	}
	if !cleaned.Load() || unregistered.Load() {
		t.Errorf("hooks: registered one ran %v, unregistered one ran %v", cleaned.Load(), unregistered.Load())
	}
	close(release)
	<-done
	if !strings.Contains(errw.String(), "sieve-test: SIGTERM again: exiting at once") {
		t.Errorf("stderr %q", errw.String())
	}
}

func TestOnForcedExitOutsideMain(t *testing.T) {
	OnForcedExit(context.Background(), func() { t.Error("ran") })()
}
