// Package cliutil runs a stage's command as a program: it wires stdin,
// stdout and stderr as values (so tests run commands in-process), maps errors
// to exit codes in one place, and turns SIGINT/SIGTERM into a cancelled
// context. Library code never calls os.Exit.
package cliutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/version"
)

// Exit codes shared by the stage binaries.
const (
	ExitOK       = 0
	ExitFailed   = 1 // some input lines failed (each is an error record on stdout)
	ExitUsage    = 2
	ExitInternal = 3
)

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
func App(name string, cmd *cli.Command, stdio IO) *cli.App {
	setUsageErrors(cmd.Subcommands)
	return &cli.App{
		Name:            name,
		Usage:           cmd.Usage,
		UsageText:       cmd.UsageText,
		Description:     cmd.Description,
		Version:         version.Sieve,
		Flags:           cmd.Flags,
		Before:          cmd.Before,
		After:           cmd.After,
		Action:          cmd.Action,
		Commands:        cmd.Subcommands,
		Reader:          stdio.Stdin,
		Writer:          stdio.Stdout,
		ErrWriter:       stdio.Stderr,
		HideHelpCommand: true,
		OnUsageError:    usageError,
		ExitErrHandler:  func(*cli.Context, error) {},
	}
}

// usageError turns a flag parse failure into a UsageError. Without it
// urfave/cli prints "Incorrect Usage" and the help text to stdout, which is
// the JSONL stream the next stage reads.
func usageError(_ *cli.Context, err error, _ bool) error {
	return UsageError{err.Error()}
}

func setUsageErrors(cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError
		}
		setUsageErrors(c.Subcommands)
	}
}

// Main runs app with args and returns the process exit code.
func Main(app *cli.App, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// Run before reading app.ErrWriter: the run fills in os.Stderr when the
	// app was built without one.
	err := app.RunContext(ctx, args)
	return Code(app.ErrWriter, err)
}

// Code reports err on w and maps it to an exit code.
func Code(w io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var ue UsageError
	var coded interface{ ExitCode() int }
	switch {
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
	case isFlagError(err):
		fmt.Fprintf(w, "error (usage): %s\n", err)
		return ExitUsage
	}
	fmt.Fprintln(w, err)
	return ExitInternal
}

// isFlagError recognises urfave/cli's own parse failures, which it returns
// as plain errors.
func isFlagError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"flag provided but not defined", "invalid value", "flag needs an argument", "Required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// Stdin, Stdout and Stderr of a running command.
func Stdin(c *cli.Context) io.Reader  { return c.App.Reader }
func Stdout(c *cli.Context) io.Writer { return c.App.Writer }
func Stderr(c *cli.Context) io.Writer { return c.App.ErrWriter }
