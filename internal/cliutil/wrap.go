package cliutil

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tidwall/gjson"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/version"
)

// The flags every command gets from App (see wrap).
const (
	flagQuiet   = "quiet"
	flagVerbose = "verbose"
	flagVersion = "version"
	flagFailOn  = "fail-on"
)

// Outcome statuses (ARTIFACT.md); --fail-on accepts these.
var outcomes = record.Statuses

// Stage is what wrap does for a command by its name (sieve's subcommand
// and its stage binary share it).
type Stage struct {
	// Outcome: the records the command writes on stdout carry an outcome
	// (graph and artifact records), so wrap gives it --fail-on. A command
	// that declares --fail-on itself (distill) sets its run's outcomes.
	Outcome bool
	// Stdin: given no arguments, the command reads its input from stdin,
	// one per line; wrap says so when stdin is a terminal.
	Stdin bool
}

// Stages is the one table of the commands wrap treats by name: every
// binary's command has a row, even an empty one (TestStages in cli holds
// the table to sieve's commands and cli.Binaries, both ways).
var Stages = map[string]Stage{
	"capture":       {Stdin: true},
	"normalize":     {Stdin: true},
	"graph":         {Stdin: true, Outcome: true},
	"render":        {Stdin: true, Outcome: true},
	"distill":       {Stdin: true},
	"verify-filter": {},
	"anchor-filter": {},
	"crop":          {},
	"diff":          {},
	"sieve-sample":  {},
	"frontier":      {},
}

// Run is what one run of a command reports at its end: the lines it wrote,
// by outcome (or record kind), and the targets that failed.
type Run struct {
	prog    string // the command as the user ran it: "sieve distill", "sieve-graph"
	quiet   bool
	verbose bool
	failOn  map[string]bool
	manual  bool // the command reports its targets itself (Target)

	mu     sync.Mutex
	counts map[string]int
	lines  int
	failed []string // one line per failed target
	buf    []byte
}

// RunOf is the Run of a running command.
func RunOf(c *cli.Context) *Run {
	if r, ok := c.App.Metadata[runKey].(*Run); ok {
		return r
	}
	return &Run{}
}

const runKey = "sieve.run"

// Prog is the command as the user ran it, for stderr prefixes.
func (r *Run) Prog() string { return r.prog }

// Quiet and Verbose are --quiet and --verbose.
func (r *Run) Quiet() bool   { return r.quiet }
func (r *Run) Verbose() bool { return r.verbose }

// SetFailOn replaces the outcomes the run fails on.
func (r *Run) SetFailOn(set map[string]bool) { r.failOn = set }

// Manual says the command reports its targets with Target; its stdout is
// not read for outcomes.
func (r *Run) Manual() { r.manual = true }

// Target reports one target's result: outcome is its status, or "error"
// for an error record; evidence is the first evidence (or the error).
// A target whose outcome the run fails on gets a line on stderr at the end.
func (r *Run) Target(url, outcome, evidence string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count(outcome)
	if !r.failOn[outcome] {
		return // ok, or an error record: its stage said why on stderr
	}
	line := url + ": " + outcome
	if evidence != "" {
		line += ": " + oneLine(evidence)
	}
	r.failed = append(r.failed, line)
}

func (r *Run) count(key string) {
	if r.counts == nil {
		r.counts = map[string]int{}
	}
	r.counts[key]++
	r.lines++
}

// tally reads the records a stage writes to stdout.
type tally struct {
	w io.Writer
	r *Run
}

func (t tally) Write(p []byte) (int, error) {
	if !t.r.manual {
		t.r.scan(p)
	}
	return t.w.Write(p)
}

// WriteLine is Write for one whole line with its newline (jsonl.Run's
// lines passed through): it is counted without being searched for newlines.
func (t tally) WriteLine(p []byte) (int, error) {
	if !t.r.manual {
		t.r.mu.Lock()
		whole := len(t.r.buf) == 0
		t.r.mu.Unlock()
		if whole {
			t.r.record(p[:len(p)-1])
		} else {
			t.r.scan(p)
		}
	}
	return t.w.Write(p)
}

func (r *Run) scan(p []byte) {
	// Whole lines are read where they are (the records pass by in one
	// Write each, mostly); only a line cut across Writes is gathered.
	r.mu.Lock()
	var lines [][]byte
	if len(r.buf) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			r.buf = append(r.buf, p...)
			r.mu.Unlock()
			return
		}
		lines = append(lines, append(r.buf, p[:i]...))
		r.buf = nil
		p = p[i+1:]
	}
	for {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, p[:i])
		p = p[i+1:]
	}
	if len(p) > 0 {
		r.buf = append(r.buf, p...)
	}
	r.mu.Unlock()
	for _, l := range lines {
		r.record(l)
	}
}

// record counts one stdout line: by outcome when it has one, else by
// record kind; a line that is no sieve record is not counted. The cost
// does not grow with the line (a capture record's page body is never
// read):
//   - a capture or normalized record (their schemas have no outcome, and
//     they are the records stages pass through) is counted by the kind it
//     starts with (record.Peek), the rest unread;
//   - any other line's top-level members are listed without checking its
//     syntax (record.TopEach: the stage wrote it, from its codec or a line
//     it passed on) only until "record", "url" and "outcome" (or, in an
//     error record, "error") are found, which a sieve record writes first;
//     only those are parsed.
func (r *Run) record(line []byte) {
	if len(line) == 0 || line[0] != '{' {
		return
	}
	if k, ok := record.Peek(line); ok && (string(k) == record.KindCapture || string(k) == record.KindNormalized) {
		r.mu.Lock()
		r.count(string(k))
		r.mu.Unlock()
		return
	}
	var kindV, urlV, outcomeV, errorV []byte
	isError := false
	ok := record.TopEach(line, func(m record.Member) bool {
		switch {
		case kindV == nil && m.Is("record"):
			kindV = m.Value
			isError = gjson.ParseBytes(m.Value).String() == record.KindError
		case urlV == nil && m.Is("url"):
			urlV = m.Value
		case outcomeV == nil && m.Is("outcome"):
			outcomeV = m.Value
		case errorV == nil && m.Is("error"):
			errorV = m.Value
		}
		// More members are wanted until the ones this kind is counted by.
		switch {
		case kindV == nil || urlV == nil:
			return true
		case isError:
			return errorV == nil
		}
		return outcomeV == nil
	})
	if !ok {
		return
	}
	field := func(v []byte) gjson.Result {
		if v == nil {
			return gjson.Result{}
		}
		return gjson.ParseBytes(v)
	}
	kind := field(kindV).String()
	if kind == "" {
		return
	}
	url := field(urlV).String()
	switch o := field(outcomeV); {
	case kind == "error":
		r.Target(url, "error", field(errorV).String())
	case o.Type == gjson.String:
		r.Target(url, o.String(), "")
	case o.Get("status").Type == gjson.String:
		r.Target(url, o.Get("status").String(), o.Get("evidence.0").String())
	default:
		r.mu.Lock()
		r.count(kind)
		r.mu.Unlock()
	}
}

// OutcomeError is a run's failure when some target's outcome was one it
// was told to fail on (ExitOutcome).
type OutcomeError struct {
	Prog         string
	Count, Total int
}

func (e OutcomeError) Error() string {
	return fmt.Sprintf("%s: %d of %d failed: the outcome is one --fail-on lists (exit %d)", e.Prog, e.Count, e.Total, ExitOutcome)
}

func (e OutcomeError) ExitCode() int { return ExitOutcome }

// finish writes the failed targets and the summary to w (unless quiet)
// and turns failed targets into an OutcomeError when the run had no
// error of its own.
func (r *Run) finish(w io.Writer, err error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.prog == "" {
		return err
	}
	for _, l := range r.failed {
		fmt.Fprintf(w, "%s: %s\n", r.prog, l)
	}
	if !r.quiet && r.lines > 0 {
		fmt.Fprintf(w, "%s: %s\n", r.prog, r.summary())
	}
	if err == nil && len(r.failed) > 0 {
		return OutcomeError{Prog: r.prog, Count: len(r.failed), Total: r.lines}
	}
	return err
}

// summary is "N lines: 3 ok, 1 blocked, 1 error".
func (r *Run) summary() string {
	noun := "target"
	if !r.manual {
		noun = "line"
	}
	if r.lines != 1 {
		noun += "s"
	}
	return fmt.Sprintf("%d %s: %s", r.lines, noun, OutcomeCounts(r.counts))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// ParseOutcomes reads a --fail-on value: outcome statuses separated by
// commas, "not-ok" (every status but ok) or "none".
func ParseOutcomes(flag, v string) (map[string]bool, error) {
	set := map[string]bool{}
	for _, s := range strings.Split(v, ",") {
		switch s = strings.TrimSpace(s); s {
		case "", "none":
		case "not-ok":
			for _, o := range outcomes[1:] {
				set[o] = true
			}
		default:
			if !slices.Contains(outcomes, s) {
				return nil, Usagef("--%s: %q is not an outcome; use %s, not-ok or none", flag, s, strings.Join(outcomes, ", "))
			}
			set[s] = true
		}
	}
	return set, nil
}

// FailOnFlag is --fail-on with its default.
func FailOnFlag(def, usage string) cli.Flag {
	return &cli.StringFlag{Name: flagFailOn, Value: def, Usage: usage}
}

// wrap gives every command of the tree the common flags (--quiet,
// --verbose, --version; --fail-on on the stages whose records carry an
// outcome) and one Action wrapper that reads them, names the run for
// stderr, hints when stdin is a terminal, and refuses unknown commands.
func wrap(cmds []*cli.Command, parent string, r *Run) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError
		}
		full := strings.TrimSpace(parent + " " + c.Name)
		c.Flags = commonFlags(c.Name, c.Flags)
		if len(c.Subcommands) > 0 {
			wrap(c.Subcommands, full, r)
		}
		c.Action = wrapAction(full, c, r)
	}
}

func commonFlags(name string, flags []cli.Flag) []cli.Flag {
	// Names runs a regexp on each name: once a flag, not once a check
	// (every command of the tree comes through here at start).
	named := map[string]bool{}
	for _, f := range flags {
		for _, n := range f.Names() {
			named[n] = true
		}
	}
	has := func(n string) bool { return named[n] }
	if !has(flagQuiet) {
		flags = append(flags, &cli.BoolFlag{Name: flagQuiet, Aliases: []string{"q"}, Usage: "no summary on stderr at the end of the run"})
	}
	if !has(flagVerbose) {
		flags = append(flags, &cli.BoolFlag{Name: flagVerbose, Usage: "say more on stderr"})
	}
	if !has(flagVersion) {
		flags = append(flags, &cli.BoolFlag{Name: flagVersion, Usage: "print the version and exit"})
	}
	if Stages[name].Outcome && !has(flagFailOn) {
		flags = append(flags, FailOnFlag("none", "exit "+fmt.Sprint(ExitOutcome)+" when a record's outcome is one of `OUTCOME,…` (or not-ok); records are still written"))
	}
	return flags
}

func wrapAction(full string, c *cli.Command, r *Run) cli.ActionFunc {
	act := c.Action
	return func(ctx *cli.Context) error {
		r.prog = full
		r.quiet, r.verbose = ctx.Bool(flagQuiet), ctx.Bool(flagVerbose)
		if ctx.Bool(flagVersion) {
			fmt.Fprintf(ctx.App.Writer, "%s version %s\n", full, version.Sieve)
			return nil
		}
		if act == nil {
			return unknownCommand(ctx, c.Subcommands)
		}
		if Stages[c.Name].Outcome {
			set, err := ParseOutcomes(flagFailOn, ctx.String(flagFailOn))
			if err != nil {
				return err
			}
			r.failOn = set
		}
		ctx.Context = jsonl.WithProg(ctx.Context, full)
		if Stages[c.Name].Stdin && ctx.NArg() == 0 && isTerminal(ctx.App.Reader) {
			fmt.Fprintf(ctx.App.ErrWriter, "%s: reading input from the terminal, one per line; end it with Ctrl-D (--help says more)\n", full)
		}
		return act(ctx)
	}
}

// unknownCommand is the action of a command that only groups others.
func unknownCommand(ctx *cli.Context, subs []*cli.Command) error {
	if ctx.NArg() == 0 {
		return cli.ShowSubcommandHelp(ctx)
	}
	name := ctx.Args().First()
	msg := fmt.Sprintf("unknown command %q", name)
	if s := closest(name, subs); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return UsageError{msg + " (--help lists the commands)"}
}

// closest is the subcommand name nearest to name, if any is near.
func closest(name string, subs []*cli.Command) string {
	best, dist := "", 4
	for _, c := range subs {
		if c.Hidden {
			continue
		}
		for _, n := range c.Names() {
			if d := editDistance(name, n); d < dist || (strings.HasPrefix(n, name) && dist > 1) {
				best, dist = n, min(d, 1)
			}
		}
	}
	return best
}

// closestFlag is the flag name nearest to name, if any is near.
func closestFlag(name string, flags []cli.Flag) string {
	best, dist := "", 4
	for _, f := range flags {
		for _, n := range f.Names() {
			if d := editDistance(name, n); d < dist && len(n) > 1 {
				best, dist = n, d
			}
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// isTerminal reports whether r is a terminal (a character device).
var isTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// The messages of Go's flag package (which urfave/cli parses with) that
// usageError rewrites in sieve's own words.
var (
	reUndefined = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^flag provided but not defined: -+(.+)$`) })
	reInvalid   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for flag -+([^:]+): (.*)$`)
	})
	reNoArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^flag needs an argument: -+(.+)$`) })
)

// usageError turns a flag parse failure into a UsageError in sieve's own
// words. Without it urfave/cli prints "Incorrect Usage" and the help text
// to stdout, which is the JSONL stream the next stage reads.
func usageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	var flags []cli.Flag
	if c != nil && c.Command != nil {
		flags = c.Command.Flags
	}
	if c != nil && c.Command != nil && c.Command.Name == "" && c.App != nil {
		flags = c.App.Flags
	}
	switch {
	case reUndefined().MatchString(msg):
		name := reUndefined().FindStringSubmatch(msg)[1]
		msg = fmt.Sprintf("unknown flag %s", dashes(name))
		if s := closestFlag(name, flags); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", dashes(s))
		}
		msg += " (--help lists the flags)"
	case reInvalid().MatchString(msg):
		m := reInvalid().FindStringSubmatch(msg)
		msg = fmt.Sprintf("%s %q: %s", dashes(m[2]), m[1], valueProblem(m[2], m[3], flags))
	case reNoArg().MatchString(msg):
		msg = fmt.Sprintf("%s needs a value", dashes(reNoArg().FindStringSubmatch(msg)[1]))
	}
	return UsageError{msg}
}

// valueProblem says what is wrong with a flag's value.
func valueProblem(name, problem string, flags []cli.Flag) string {
	if problem != "parse error" && !strings.HasPrefix(problem, "strconv.") {
		return problem
	}
	for _, f := range flags {
		if !slices.Contains(f.Names(), name) {
			continue
		}
		switch f.(type) {
		case *cli.DurationFlag:
			return "not a duration: give a number with a unit, as in 1s, 500ms, 2m or 1h30m"
		case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
			return "not a whole number"
		case *cli.Float64Flag:
			return "not a number"
		case *cli.BoolFlag:
			return "not true or false"
		}
	}
	return "not a valid value"
}

func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// OutcomeCounts is "3 ok, 1 blocked, 1 error": ok first, error last, the
// rest by name.
func OutcomeCounts(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	rank := func(k string) int {
		switch k {
		case "ok":
			return 0
		case "error":
			return 2
		}
		return 1
	}
	sort.Slice(keys, func(i, j int) bool {
		if a, b := rank(keys[i]), rank(keys[j]); a != b {
			return a < b
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", counts[k], k)
	}
	return strings.Join(parts, ", ")
}
