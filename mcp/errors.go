package mcp

import (
	"errors"
	"fmt"

	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
)

// Error kinds of tool errors. They are the CLI's exit classes (README.md,
// "Exit codes") by name, plus not_found for a handle or id the store does
// not hold; the evidence tools' coded failures keep the CLI's canonical
// JSON line ({"error":{"code":…,"message":…}}, SPEC.md §6.4) as their text.
const (
	KindUsage       = "usage"       // bad arguments (exit 2)
	KindFailed      = "failed"      // the target became an error record (exit 1)
	KindInternal    = "internal"    // a read or write failed, a bug (exit 3)
	KindInterrupted = "interrupted" // the call was cancelled (exit 130)
	KindNotFound    = "not_found"   // no such artifact, section or block
)

// ToolError is a tool error: its text is "error (KIND): message", the shape
// of the CLI's stderr line.
type ToolError struct {
	Kind string
	Msg  string
}

func (e *ToolError) Error() string { return "error (" + e.Kind + "): " + e.Msg }

func usagef(format string, a ...any) error {
	return &ToolError{KindUsage, fmt.Sprintf(format, a...)}
}

func notFound(format string, a ...any) error {
	return &ToolError{KindNotFound, fmt.Sprintf(format, a...)}
}

func internalf(format string, a ...any) error {
	return &ToolError{KindInternal, fmt.Sprintf(format, a...)}
}

// toolErr maps an error from the sieve packages onto a tool error: usage
// errors and interruptions by their class, coded evidence failures as they
// are (their text is the canonical JSON line), anything else internal.
func toolErr(err error) error {
	var te *ToolError
	var ue cliutil.UsageError
	var ce *evcmd.CodedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te), errors.As(err, &ce):
		return err
	case errors.As(err, &ue):
		return &ToolError{KindUsage, ue.Msg}
	case errors.Is(err, jsonl.ErrInterrupted):
		return &ToolError{KindInterrupted, err.Error()}
	}
	return &ToolError{KindInternal, err.Error()}
}
