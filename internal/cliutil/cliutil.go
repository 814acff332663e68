// Package cliutil runs a stage's command as a program: it wires stdin,
// stdout and stderr as values (so tests run commands in-process), maps errors
// to exit codes in one place, and turns SIGINT/SIGTERM into a cancelled
// context. Library code never calls os.Exit; the one exception is Main on a
// second signal, which ends the process at once.
package cliutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/version"
)

// Signal is the cause of a command's cancelled context (context.Cause) when
// SIGINT or SIGTERM stopped it. Its text is the signal's name.
type Signal struct{ os.Signal }

func (s Signal) Error() string {
	switch s.Signal {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.Signal.String()
}

// UsageError marks a bad invocation (exit 2).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// Usagef builds a UsageError.
func Usagef(format string, a ...any) error { return UsageError{fmt.Sprintf(format, a...)} }

// IO is where a command reads and writes.
type IO struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// App wraps cmd as a program named name.
//
// Every command of the tree gets --quiet, --verbose and --version (and
// --fail-on where its records carry an outcome) and one Action wrapper
// (wrap); the app's stdout is read for the end-of-run summary (Run).
func App(name string, cmd *cli.Command, stdio IO) *cli.App {
	r := &Run{}
	root := *cmd
	root.Name = ""
	root.Flags = commonFlags(cmd.Name, cmd.Flags)
	wrap(cmd.Subcommands, name, r)
	act := wrapAction(name, &root, r)
	if len(cmd.Subcommands) == 0 {
		// A stage binary: its outcome stage name is the command's.
		root.Name = cmd.Name
		act = wrapAction(name, &root, r)
	}
	var stdout io.Writer = tally{w: stdio.Stdout, r: r}
	if stdio.Stdout == nil {
		stdout = tally{w: os.Stdout, r: r}
	}
	return &cli.App{
		Name:                 name,
		Usage:                cmd.Usage,
		UsageText:            cmd.UsageText,
		Description:          cmd.Description,
		Version:              version.Sieve,
		HideVersion:          true, // --version is one of the common flags
		Flags:                root.Flags,
		Before:               cmd.Before,
		After:                cmd.After,
		Action:               act,
		Commands:             cmd.Subcommands,
		Reader:               stdio.Stdin,
		Writer:               stdout,
		ErrWriter:            stdio.Stderr,
		HideHelpCommand:      true,
		EnableBashCompletion: true,
		OnUsageError:         usageError,
		ExitErrHandler:       func(*cli.Context, error) {},
		Metadata:             map[string]any{runKey: r},
	}
}

// Main runs app with args and returns the process exit code.
//
// The first SIGINT or SIGTERM cancels the context the command runs with,
// with a Signal as its cause: a stage writes the lines in flight as
// interrupted and returns, its deferred cleanup (Chromium) runs, and a run
// that did not succeed exits ExitInterrupted. A second signal does not wait
// for that: the hooks given to OnForcedExit get forcedExitWait to clean up,
// then the process exits ExitInterrupted at once.
func Main(app *cli.App, args []string) int {
	// Read before the run: the run fills in os.Stderr when the app was
	// built without an ErrWriter.
	errw := app.ErrWriter
	if errw == nil {
		errw = os.Stderr
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	h := &forcedExit{}
	ctx = context.WithValue(ctx, forcedExitKey{}, h)
	defer watchSignals(app.Name, errw, cancel, h)()
	err := app.RunContext(ctx, args)
	if r, ok := app.Metadata[runKey].(*Run); ok {
		err = r.finish(errw, err)
	}
	var sig Signal
	if err != nil && errors.As(context.Cause(ctx), &sig) && !errors.Is(err, jsonl.ErrInterrupted) {
		// Whatever went wrong after the signal came, the signal is why.
		err = interruptedRun{sig: sig, err: err}
	}
	return Code(app.ErrWriter, err)
}

// watchSignals cancels the run on the first SIGINT or SIGTERM and ends the
// process on the second. It returns the function that stops watching.
func watchSignals(name string, errw io.Writer, cancel context.CancelCauseFunc, h *forcedExit) (stop func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	// After a signal the next stage of a pipe may be gone (it got the
	// signal too): a write to it then fails with EPIPE, which the run
	// reports as part of the interruption, instead of SIGPIPE killing the
	// process with another status. Before a signal SIGPIPE keeps its
	// default, so `sieve-capture | head -1` ends as quietly as any filter.
	pipe := make(chan os.Signal, 1)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case s := <-sigs:
			signal.Notify(pipe, syscall.SIGPIPE)
			cancel(Signal{s})
		case <-done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(errw, "%s: %v again: exiting at once, without waiting for the lines in flight\n", name, Signal{s})
			h.run(forcedExitWait)
			exit(ExitInterrupted)
		case <-done:
		}
	}()
	return func() {
		close(done)
		wg.Wait() // a second signal's exit wins over the run's own
		signal.Stop(pipe)
		signal.Stop(sigs)
	}
}

// interruptedRun is a command's failure after a signal.
type interruptedRun struct {
	sig Signal
	err error
}

func (e interruptedRun) Error() string {
	return fmt.Sprintf("interrupted (%v): %v", e.sig, e.err)
}

func (e interruptedRun) Is(target error) bool { return target == jsonl.ErrInterrupted }

func (e interruptedRun) Unwrap() error { return e.err }

// exit ends the process on a second signal (a variable for the tests).
var exit = osExit

var osExit = os.Exit

// forcedExitWait is how long a second signal waits for the OnForcedExit
// hooks before the process exits.
const forcedExitWait = 2 * time.Second

type forcedExitKey struct{}

// forcedExit holds the cleanups to try when a second signal ends the
// process before the command's own deferred cleanup has run.
type forcedExit struct {
	mu    sync.Mutex
	next  int
	hooks map[int]func()
}

// OnForcedExit registers fn to run when a second SIGINT or SIGTERM ends
// the process before the command has returned (fn must be safe to run while
// the command is still running). The process exits after forcedExitWait
// even if fn has not returned. It returns the function that unregisters fn.
// Outside Main (a command run in-process by a test) it does nothing.
func OnForcedExit(ctx context.Context, fn func()) (unregister func()) {
	h, ok := ctx.Value(forcedExitKey{}).(*forcedExit)
	if !ok {
		return func() {}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.hooks == nil {
		h.hooks = map[int]func(){}
	}
	id := h.next
	h.next++
	h.hooks[id] = fn
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(h.hooks, id)
	}
}

// run runs every hook at once and waits for them, for at most wait.
func (h *forcedExit) run(wait time.Duration) {
	h.mu.Lock()
	var wg sync.WaitGroup
	for _, fn := range h.hooks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn()
		}()
	}
	h.mu.Unlock()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
	}
}

// Code reports err on w and maps it to an exit code.
func Code(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var ue UsageError
	var coded interface{ ExitCode() int }
	switch {
	case errors.Is(err, jsonl.ErrInterrupted):
		// Before the coded failures: an interrupted sieve verify has no
		// report to stand by, whatever its failure said.
		fmt.Fprintln(w, err)
		return ExitInterrupted
	case errors.As(err, &coded):
		// A coded failure (sieve verify, sieve evidence anchor) writes its
		// own stable message: canonical JSON (SPEC.md §6.4).
		fmt.Fprintln(w, err)
		return coded.ExitCode()
	case errors.As(err, &ue):
		fmt.Fprintf(w, "error (usage): %s\n", ue.Msg)
		return ExitUsage
	case errors.Is(err, jsonl.ErrFailedLines):
		fmt.Fprintln(w, err)
		return ExitFailed
	case strings.HasPrefix(err.Error(), "Required flag"):
		// urfave/cli's one usage failure that does not pass through
		// OnUsageError (no sieve command has a required flag).
		fmt.Fprintf(w, "error (usage): %s\n", err)
		return ExitUsage
	}
	fmt.Fprintln(w, err)
	return ExitInternal
}

// Stdin, Stdout and Stderr of a running command.
func Stdin(c *cli.Context) io.Reader  { return c.App.Reader }
func Stdout(c *cli.Context) io.Writer { return c.App.Writer }
func Stderr(c *cli.Context) io.Writer { return c.App.ErrWriter }

// Exec runs cmd as the program name with the process's arguments and
// standard streams and returns the exit code: the whole of a main.
func Exec(name string, cmd *cli.Command) int {
	growPipes(os.Stdin, os.Stdout)
	return Main(App(name, cmd, IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}), os.Args)
}
