package cliutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/version"
)

func TestCode(t *testing.T) {
	failed := fmt.Errorf("sieve-x: 2 of 5 lines failed: %w", jsonl.ErrFailedLines)
	tests := []struct {
		name string
		err  error
		code int
		msg  string
	}{
		{"nil", nil, ExitOK, ""},
		{"usage", Usagef("need %d args", 2), ExitUsage, "error (usage): need 2 args\n"},
		{"wrapped usage", fmt.Errorf("ctx: %w", UsageError{"bad"}), ExitUsage, "error (usage): bad\n"},
		{"failed lines", failed, ExitFailed, "sieve-x: 2 of 5 lines failed: some input lines failed\n"},
		{"required flag", errors.New(`Required flag "in" not set`), ExitUsage, `error (usage): Required flag "in" not set` + "\n"},
		{"interrupted", fmt.Errorf("sieve-x: interrupted: %w", jsonl.ErrInterrupted), ExitInterrupted, "sieve-x: interrupted: interrupted\n"},
		{"interrupted wins over a coded failure", interruptedRun{Signal{syscall.SIGINT}, codedErr{}}, ExitInterrupted, "interrupted (SIGINT): coded\n"},
		{"other", errors.New("disk full"), ExitInternal, "disk full\n"},
		{"io", io.ErrUnexpectedEOF, ExitInternal, "unexpected EOF\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w bytes.Buffer
			if got := Code(&w, tt.err); got != tt.code {
				t.Errorf("Code = %d, want %d", got, tt.code)
			}
			if w.String() != tt.msg {
				t.Errorf("message %q, want %q", w.String(), tt.msg)
			}
		})
	}
}

type codedErr struct{}

func (codedErr) Error() string { return "coded" }
func (codedErr) ExitCode() int { return 4 }

// testCmd echoes stdin to stdout in upper case and writes a note on stderr.
func testCmd() *cli.Command {
	return &cli.Command{
		Usage: "test command",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "n", Value: 1},
			&cli.StringFlag{Name: "fail"},
		},
		Action: func(c *cli.Context) error {
			switch c.String("fail") {
			case "usage":
				return Usagef("no %s", "way")
			case "lines":
				return fmt.Errorf("x: %w", jsonl.ErrFailedLines)
			case "other":
				return errors.New("boom")
			}
			b, err := io.ReadAll(Stdin(c))
			if err != nil {
				return err
			}
			out := strings.Repeat(strings.ToUpper(string(b)), c.Int("n"))
			if _, err := io.WriteString(Stdout(c), out); err != nil {
				return err
			}
			_, err = fmt.Fprintf(Stderr(c), "done %d\n", c.Int("n"))
			return err
		},
	}
}

func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	app := App("sieve-test", testCmd(), IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errw})
	code = Main(app, append([]string{"sieve-test"}, args...))
	return code, out.String(), errw.String()
}

func TestAppRun(t *testing.T) {
	tests := []struct {
		name           string
		stdin          string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"ok", "ab\n", nil, ExitOK, "AB\n", "done 1\n"},
		{"flag", "x", []string{"--n", "3"}, ExitOK, "XXX", "done 3\n"},
		{"usage error from action", "", []string{"--fail", "usage"}, ExitUsage, "", "error (usage): no way\n"},
		{"failed lines", "", []string{"--fail", "lines"}, ExitFailed, "", "x: some input lines failed\n"},
		{"internal", "", []string{"--fail", "other"}, ExitInternal, "", "boom\n"},
		{"undefined flag", "", []string{"--nope"}, ExitUsage, "", "error (usage): unknown flag --nope (--help lists the flags)\n"},
		{"near flag", "", []string{"--fial"}, ExitUsage, "", "error (usage): unknown flag --fial; did you mean --fail? (--help lists the flags)\n"},
		{"bad value", "", []string{"--n", "x"}, ExitUsage, "", "error (usage): -n \"x\": not a whole number\n"},
		{"missing value", "", []string{"--n"}, ExitUsage, "", "error (usage): -n needs a value\n"},
		{"version", "", []string{"--version"}, ExitOK, "sieve-test version " + version.Sieve + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := run(t, tt.stdin, tt.args...)
			if code != tt.code || stdout != tt.stdout || stderr != tt.stderr {
				t.Errorf("got  code %d stdout %q stderr %q\nwant code %d stdout %q stderr %q",
					code, stdout, stderr, tt.code, tt.stdout, tt.stderr)
			}
		})
	}
}

func TestAppVersionAndHelp(t *testing.T) {
	code, stdout, stderr := run(t, "", "--version")
	if code != ExitOK || !strings.Contains(stdout, version.Sieve) || stderr != "" {
		t.Errorf("--version: code %d stdout %q stderr %q", code, stdout, stderr)
	}
	code, stdout, _ = run(t, "", "--help")
	if code != ExitOK || !strings.Contains(stdout, "sieve-test") || !strings.Contains(stdout, "test command") {
		t.Errorf("--help: code %d stdout %q", code, stdout)
	}
}

func TestAppSubcommandUsageError(t *testing.T) {
	var out, errw bytes.Buffer
	cmd := &cli.Command{Subcommands: []*cli.Command{{
		Name:   "sub",
		Action: func(*cli.Context) error { return nil },
	}}}
	app := App("sieve-test", cmd, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errw})
	code := Main(app, []string{"sieve-test", "sub", "--nope"})
	if code != ExitUsage || out.Len() != 0 || !strings.HasPrefix(errw.String(), "error (usage): ") {
		t.Errorf("code %d stdout %q stderr %q", code, out.String(), errw.String())
	}
}

func TestAppBeforeAfter(t *testing.T) {
	var calls []string
	cmd := &cli.Command{
		Before: func(*cli.Context) error { calls = append(calls, "before"); return nil },
		Action: func(*cli.Context) error { calls = append(calls, "action"); return nil },
		After:  func(*cli.Context) error { calls = append(calls, "after"); return nil },
	}
	app := App("sieve-test", cmd, IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if code := Main(app, []string{"sieve-test"}); code != ExitOK {
		t.Fatalf("code %d", code)
	}
	if got := strings.Join(calls, ","); got != "before,action,after" {
		t.Errorf("calls %s", got)
	}
}

func TestAppContext(t *testing.T) {
	var sawCtx bool
	cmd := &cli.Command{Action: func(c *cli.Context) error {
		sawCtx = c.Context != nil && c.Context.Err() == nil
		return nil
	}}
	app := App("sieve-test", cmd, IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
	if code := Main(app, []string{"sieve-test"}); code != ExitOK || !sawCtx {
		t.Errorf("code %d, live context %v", code, sawCtx)
	}
}

// A missing required flag is a usage error. (urfave/cli also prints the help
// text on stdout in this case; stages should not rely on Required flags.)
func TestAppRequiredFlag(t *testing.T) {
	cmd := &cli.Command{
		Flags:  []cli.Flag{&cli.StringFlag{Name: "in", Required: true}},
		Action: func(*cli.Context) error { return nil },
	}
	var errw bytes.Buffer
	app := App("sieve-test", cmd, IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &errw})
	code := Main(app, []string{"sieve-test"})
	if code != ExitUsage || errw.String() != "error (usage): Required flag \"in\" not set\n" {
		t.Errorf("code %d stderr %q", code, errw.String())
	}
}
