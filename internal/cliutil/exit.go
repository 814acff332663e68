package cliutil

// Exit codes of every sieve binary: the one table (the exit table of the
// docs, the one whose header is "| exit | meaning |", is held to it by
// TestExitTable). A new code goes here, and in that table.
const (
	ExitOK       = 0
	ExitFailed   = 1 // some input lines failed (each is an error record on stdout)
	ExitUsage    = 2
	ExitInternal = 3 // internal failure; the evidence commands' coded internal_error

	// The coded failures of sieve verify, sieve evidence anchor and sieve
	// crop (SPEC.md §6.4): one canonical JSON line on stderr; the codes and
	// their stable messages are evidence/evcmd's.
	ExitIO                  = 4
	ExitInvalidSource       = 5
	ExitInvalidCitations    = 6
	ExitUngrounded          = 7
	ExitInvalidEvidenceRefs = 8
	ExitUnbound             = 9

	// ExitOutcome: every line was handled, but some target's outcome is one
	// the run was told to fail on (sieve distill: any outcome but ok, unless
	// --fail-on says otherwise; a stage: the outcomes given to --fail-on).
	ExitOutcome = 13
	// ExitDifferent: sieve diff's two reads differ (status changed). diff(1)
	// says this with 1, which sieve's binaries already use for "some line
	// became an error record"; 14 is the first free code.
	ExitDifferent = 14

	// ExitInterrupted: SIGINT or SIGTERM stopped the run before it was
	// done. The lines in flight are written as interrupted error records,
	// the rest of the input is not started. 130 is what shells report for
	// a command ended by Ctrl-C (128 + SIGINT); SIGTERM gives the same.
	ExitInterrupted = 130
)
