package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	sievecli "github.com/sieve-dev/sieve/cli"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/internal/version"
)

// cliCases is the command line, one case a line, in the style of gojq's
// CLI table: the program and its arguments ($SITE is the sample site),
// stdin, and what stdout and stderr must match (regular expressions, "" for
// empty) with the exit code. Every error message of the everyday CLI has a
// line here.
var cliCases = []struct {
	args           string
	stdin          string
	stdout, stderr string
	code           int
}{
	// Markdown, text and JSON on stdout; the summary on stderr.
	{"sieve distill --format markdown --tier static --allow-private $SITE/article.html", "", `^# Second flush on the ridge[^\n]*\n\nThe winter of 2023`, `^sieve distill: 1 target: 1 ok\n$`, 0},
	{"sieve distill -f md -q --tier static --allow-private $SITE/article.html", "", `^# Second flush`, `^$`, 0},
	{"sieve distill -f md --header -q --tier static --allow-private $SITE/article.html", "", `^---\noutcome: "ok"\n(?s:.*)> \*\*Untrusted content\.\*\*(?s:.*)\n# Second flush`, `^$`, 0},
	{"sieve distill -f md -q --tier static --allow-private $SITE/docs.html", "", `(?m)^\| .* \|$`, `^$`, 0},
	{"sieve distill --format json -q --tier static --allow-private $SITE/article.html", "", `^\{"schema_version":"1\.0","outcome":\{"status":"ok"[^\n]*\}\n$`, `^$`, 0},
	{"sieve distill --format text -q --tier static --allow-private $SITE/article.html", "", `^The winter of 2023 brought almost no rain`, `^$`, 0},
	{"sieve distill -f md -q --out - --tier static --allow-private", "$SITE/article.html\n$SITE/docs.html\n", `^# Second flush(?s:.*)\n\n# `, `^$`, 0},
	{"sieve distill -f md -q --out - --tier static --allow-private", "", `^$`, `^$`, 0},
	// Honest exit status: 13 for an outcome in --fail-on (any but ok by default), 1 for an error record.
	{"sieve distill -f md --tier static --allow-private $SITE/forbidden", "", `^# 403`, `^sieve distill: http://[^ ]+/forbidden: blocked: the server answered HTTP 403\nsieve distill: 1 target: 1 blocked\nsieve distill: 1 of 1 failed: the outcome is one --fail-on lists \(exit 13\)\n$`, 13},
	{"sieve distill -f md -q --tier static --allow-private $SITE/forbidden $SITE/article.html", "", `^# 403`, `^sieve distill: http://[^ ]+/forbidden: blocked: the server answered HTTP 403\nsieve distill: 1 of 2 failed`, 13},
	{"sieve distill -f md --fail-on none --tier static --allow-private $SITE/forbidden", "", `^# 403`, `^sieve distill: 1 target: 1 blocked\n$`, 0},
	{"sieve distill -f md --fail-on challenge,auth_required --tier static --allow-private $SITE/forbidden $SITE/account", "", `^# 403`, `account: auth_required: redirected`, 13},
	{"sieve distill -f md --tier static --allow-private $SITE/forbidden", "", `^# 403`, `forbidden: blocked`, 13},
	{"sieve distill -f md --tier static $SITE/article.html", "", `^$`, `article.html: no content to print \(outcome blocked\)(?s:.*)article.html: blocked: not fetched: .*refused`, 13},
	{"sieve distill -f md -q --tier static --allow-private", "not a url\n$SITE/article.html\n", `^# Second flush`, `^sieve distill: line 1: not an http\(s\) URL or an existing file: "not a url"\nsieve distill: 1 of 2 lines failed`, 1},
	{"sieve distill -q --tier static --allow-private --out $WORK/a", "not a url\n", `^\{"record":"error",[^\n]*"stage":"capture"`, `line 1: not an http`, 1},
	{"sieve distill --tier static --allow-private --out $WORK/a $SITE/article.html", "", `^\{"record":"artifact",[^\n]*"outcome":"ok"`, `^sieve distill: 1 target: 1 ok\n$`, 0},
	// --base-url: a saved page's links resolve against the address it came from.
	{"sieve distill -f md -q --base-url https://news.example.com/section/opinion $WORK/saved.html", "", `\[other piece\]\(https://news\.example\.com/section/other\)`, `^$`, 0},
	{"sieve distill -f md -q $WORK/saved.html", "", `\nRead the \[other piece\]\(/section/other\) and`, `^$`, 0}, // a root-relative link of a saved page stays as the page wrote it
	{"sieve distill --base-url ftp://x $WORK/saved.html", "", `^$`, `^error \(usage\): --base-url must be an absolute http\(s\) URL, not "ftp://x"\n$`, 2},
	{"sieve-capture --base-url /relative", "", `^$`, `^error \(usage\): --base-url must be an absolute http\(s\) URL, not "/relative"\n$`, 2},
	// --password / --password-file (encrypted PDFs: pdf_password.txtar reads one).
	{"sieve distill --password x --password-file $WORK/saved.html x", "", `^$`, `^error \(usage\): --password and --password-file: give one of them\n$`, 2},
	{"sieve distill --password-file $WORK/missing x", "", `^$`, `^error \(usage\): --password-file: [^ ]*/missing: no such file or directory\n$`, 2},
	{"sieve-capture --password=", "", `^$`, `^error \(usage\): --password cannot be empty\n$`, 2},
	{"sieve-capture --password-file", "", `^$`, `^error \(usage\): --password-file needs a value\n$`, 2},
	// Usage errors: exit 2, one line in sieve's own words, with suggestions.
	{"sieve distil", "", `^$`, `^error \(usage\): unknown command "distil"; did you mean "distill"\? \(--help lists the commands\)\n$`, 2},
	{"sieve evidence ancor", "", `^$`, `^error \(usage\): unknown command "ancor"; did you mean "anchor"\?`, 2},
	{"sieve frobnicate", "", `^$`, `^error \(usage\): unknown command "frobnicate" \(--help lists the commands\)\n$`, 2},
	{"sieve distill --tiers static x", "", `^$`, `^error \(usage\): unknown flag --tiers; did you mean --tier\? \(--help lists the flags\)\n$`, 2},
	{"sieve distill --delay 1 x", "", `^$`, `^error \(usage\): --delay "1": not a duration: give a number with a unit, as in 1s, 500ms, 2m or 1h30m\n$`, 2},
	{"sieve distill --max-bytes 10x x", "", `^$`, `^error \(usage\): --max-bytes "10x": not a size: give bytes, or a number with a unit, as in 100000, 512KiB or 10MiB\n$`, 2},
	{"sieve distill --max-bytes", "", `^$`, `^error \(usage\): --max-bytes needs a value\n$`, 2},
	{"sieve distill --concurrency x y", "", `^$`, `^error \(usage\): --concurrency "x": not a whole number\n$`, 2},
	{"sieve distill --format pdf x", "", `^$`, `^error \(usage\): --format must be artifact, markdown \(md\), text or json, not "pdf"\n$`, 2},
	{"sieve distill --out - x", "", `^$`, `^error \(usage\): --out - needs a format that prints to stdout: --format markdown, text or json\n$`, 2},
	{"sieve distill --out= x", "", `^$`, `^error \(usage\): --out cannot be empty`, 2},
	{"sieve distill --header x", "", `^$`, `^error \(usage\): --header goes with --format markdown\n$`, 2},
	{"sieve distill --fail-on nope x", "", `^$`, `^error \(usage\): --fail-on: "nope" is not an outcome; use ok, blocked, challenge, auth_required, spa_shell, empty_after_render, partial, not-ok or none\n$`, 2},
	{"sieve-render --fail-on sometimes", "", `^$`, `^error \(usage\): --fail-on: "sometimes" is not an outcome`, 2},
	{"sieve-capture --concurrency 0", "", `^$`, `^error \(usage\): --concurrency must be at least 1\n$`, 2},
	{"sieve completion", "", `^$`, `^error \(usage\): sieve completion needs one shell: bash, zsh or fish\n$`, 2},
	{"sieve completion tcsh", "", `^$`, `^error \(usage\): sieve completion: no completion for "tcsh"; use bash, zsh or fish\n$`, 2},
	{"sieve man extra", "", `^$`, `^error \(usage\): sieve man takes no arguments, not "extra"\n$`, 2},
	// --version everywhere, completion scripts, man pages.
	{"sieve --version", "", `^sieve version ` + regexp.QuoteMeta(version.Sieve) + `\n$`, `^$`, 0},
	{"sieve distill --version", "", `^sieve distill version `, `^$`, 0},
	{"sieve evidence anchor --version", "", `^sieve evidence anchor version `, `^$`, 0},
	{"sieve-capture --version", "", `^sieve-capture version `, `^$`, 0},
	{"sieve completion bash", "", `complete -o bashdefault -o default -F _sieve_complete sieve\n`, `^$`, 0},
	{"sieve completion zsh", "", `^#compdef sieve\n`, `^$`, 0},
	{"sieve completion fish", "", `complete -c sieve `, `^$`, 0},
	{"sieve man", "", `^\.nh\n\.TH sieve 1\n`, `^$`, 0},
	// Stages: a summary on stderr, --fail-on for records with an outcome.
	{"sieve-capture --tier static --allow-private", "$SITE/article.html\n", `^\{"record":"capture"`, `^sieve-capture: 1 line: 1 capture\n$`, 0},
	{"sieve capture -q --tier static --allow-private", "$SITE/article.html\n", `^\{"record":"capture"`, `^$`, 0},
	{"sieve-render --out $WORK/r", "{\"record\":\"error\",\"schema_version\":\"1.0\",\"stage\":\"capture\",\"line\":1,\"error\":\"x\"}\n", `^\{"record":"error"`, `^sieve-render: 1 line: 1 error\n$`, 0},
}

func TestCLI(t *testing.T) {
	base, stop, err := sample.Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	progs := sievecli.Programs()
	for _, tc := range cliCases {
		t.Run(tc.args, func(t *testing.T) {
			work := t.TempDir()
			saved := `<!doctype html><title>Saved</title><main><h1>Saved</h1><p>Read the <a href="/section/other">other piece</a> and enough words besides to make a page of it, more and more of them.</p></main>`
			if err := os.WriteFile(work+"/saved.html", []byte(saved), 0o644); err != nil {
				t.Fatal(err)
			}
			expand := strings.NewReplacer("$SITE", strings.TrimSuffix(base, "/"), "$WORK", work)
			args := strings.Fields(expand.Replace(tc.args))
			var stdout, stderr bytes.Buffer
			app := cliutil.App(args[0], progs[args[0]](), cliutil.IO{Stdin: strings.NewReader(expand.Replace(tc.stdin)), Stdout: &stdout, Stderr: &stderr})
			code := cliutil.Main(app, args)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout %q\nstderr %q", code, tc.code, head(stdout.String()), stderr.String())
			}
			match(t, "stdout", tc.stdout, stdout.String())
			match(t, "stderr", tc.stderr, stderr.String())
		})
	}
	if _, err := os.Stat("artifacts"); err == nil {
		t.Error("a case wrote ./artifacts: the single-file formats write no artifact directory unless --out is given")
	}
}

func match(t *testing.T, name, re, got string) {
	t.Helper()
	if !regexp.MustCompile(re).MatchString(got) {
		t.Errorf("%s %q does not match %q", name, head(got), re)
	}
}

func head(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}
