// Command testsum reads `go test -json` on stdin and prints what a person
// needs from it: a line per package, the output of every failed test, the
// names of skipped tests with their reasons, and one closing line
// "N passed, N failed, N skipped in Ns" (appended to $TESTSUM_FILE too, when
// set; the seconds are testsum's own run, which starts with go test's). Build errors are printed as they come. It exits 1 when anything failed (a test,
// a package that did not build) and 0 otherwise. `make test` runs the unit
// and race passes through it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

type tally struct {
	passed, failed, skipped int
	pkgFailed               []string
	skips                   []string
}

func main() {
	os.Exit(run(os.Stdin, os.Stdout, os.Args[1:]))
}

func run(in io.Reader, out io.Writer, args []string) int {
	label := "go test"
	if len(args) > 0 {
		label = strings.Join(args, " ")
	}
	start := time.Now()
	var t tally
	logs := map[string][]string{} // package/test → output lines
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintln(out, string(line)) // build errors and other plain lines
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "build-output":
			fmt.Fprint(out, e.Output)
		case "output":
			logs[key] = append(logs[key], e.Output)
		case "pass":
			if e.Test != "" {
				t.passed++
			} else {
				fmt.Fprintf(out, "ok   %s (%s)\n", e.Package, dur(e.Elapsed))
			}
			delete(logs, key)
		case "skip":
			if e.Test != "" {
				t.skipped++
				t.skips = append(t.skips, e.Package+" "+e.Test+": "+skipReason(logs[key]))
			} else {
				fmt.Fprintf(out, "---  %s (no tests)\n", e.Package)
			}
			delete(logs, key)
		case "fail":
			if e.Test != "" {
				t.failed++
			} else {
				t.pkgFailed = append(t.pkgFailed, e.Package)
				fmt.Fprintf(out, "FAIL %s (%s)\n", e.Package, dur(e.Elapsed))
			}
			fmt.Fprint(out, strings.Join(logs[key], ""))
			delete(logs, key)
		}
	}
	sort.Strings(t.skips)
	for _, s := range t.skips {
		fmt.Fprintln(out, "skipped: "+s)
	}
	if len(t.pkgFailed) > 0 && t.failed == 0 {
		t.failed = len(t.pkgFailed) // a package that did not build or crashed
	}
	closing := fmt.Sprintf("%s: %d passed, %d failed, %d skipped in %ds\n", label, t.passed, t.failed, t.skipped, int(time.Since(start).Seconds()))
	fmt.Fprint(out, closing)
	if f := os.Getenv("TESTSUM_FILE"); f != "" {
		// make test prints every pass's closing line again at its end
		if w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			w.WriteString(closing)
			w.Close()
		}
	}
	if t.failed > 0 || len(t.pkgFailed) > 0 {
		return 1
	}
	return 0
}

// skipReason is the last line a skipped test logged (its t.Skip message).
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && !strings.HasPrefix(l, "--- SKIP") && !strings.HasPrefix(l, "=== ") {
			return l
		}
	}
	return "no reason given"
}

func dur(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(10 * time.Millisecond).String()
}
