package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	sievecli "github.com/sieve-dev/sieve/cli"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/pdf"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/internal/testbin"
	"github.com/sieve-dev/sieve/schemas"
)

// The scripts in testdata/script run the real commands as users do: each
// command below becomes a program on the script's PATH, so pipes through
// `exec sh -c` work too.
func TestMain(m *testing.M) {
	prog := func(name string, cmd func() *cli.Command) func() {
		return func() {
			os.Exit(cliutil.Main(cliutil.App(name, cmd(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}), os.Args))
		}
	}
	progs := map[string]func(){}
	for name, cmd := range sievecli.Programs() {
		progs[name] = prog(name, cmd)
	}
	testscript.Main(cleanup{m}, progs)
}

// cleanup runs the tests, then removes the binaries they built (none under
// make test, which builds them once for every package).
type cleanup struct{ m *testing.M }

func (c cleanup) Run() int { return testbin.Main(c.m) }

// The scripts fall in three tests, each script in exactly one (scriptSet;
// TestScriptLists checks the lists). make test runs TestScriptsRace under
// -race and the other two without it: under -race every command of a
// script is a process paying the detector's start-up and its slower Go
// (the scripts TestScripts runs took 44 CPU s under -race, 19 without).

// TestScriptsRace runs raceScripts, the scripts whose command lines run
// concurrent code that no test of the race pass runs as they do: a batch
// of many targets through sieve distill's workers into artifact
// directories and pipes of stage commands (pipe), render-tier batches
// (render_sample), a crawl (firsthour_crawl), a shard (shard).
func TestScriptsRace(t *testing.T) { runScripts(t, scriptRace) }

// TestScripts runs the other scripts but the PDF ones: make test runs it
// without -race (unit). Their command lines are sequential, or run the
// same concurrent paths as raceScripts, TestCLI (sieve distill's batches
// in-process) and the race pass's package tests.
func TestScripts(t *testing.T) { runScripts(t, scriptUnit) }

// TestPDFScripts runs the PDF scripts (scriptSet), the CLI reading PDFs:
// make test runs it without -race, where PDFium's wasm is ten times
// faster (the PDF engine's concurrency is internal/pdf's, whose parallel
// readers and watchdog tests run under -race).
func TestPDFScripts(t *testing.T) { runScripts(t, scriptPDF) }

// raceScripts are the scripts TestScriptsRace runs (see there why).
var raceScripts = []string{"pipe", "render_sample", "firsthour_crawl", "shard"}

// pdfEngineScripts are PDF scripts not named pdf_*: firsthour_prepare
// compiles the PDF engine into an empty cache, which takes minutes under
// the race detector (wazero's compiler is instrumented Go).
var pdfEngineScripts = []string{"firsthour_prepare"}

// The sets of scripts, one test each.
const (
	scriptUnit = "unit"
	scriptRace = "race"
	scriptPDF  = "pdf"
)

// scriptSet is the set of the script at path: pdf for pdf_*.txtar and
// pdfEngineScripts, race for raceScripts, else unit.
func scriptSet(path string) string {
	name := scriptName(path)
	switch {
	case strings.HasPrefix(name, "pdf_") || slices.Contains(pdfEngineScripts, name):
		return scriptPDF
	case slices.Contains(raceScripts, name):
		return scriptRace
	}
	return scriptUnit
}

func scriptName(path string) string { return strings.TrimSuffix(filepath.Base(path), ".txtar") }

func scriptFiles(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(all) == 0 {
		t.Fatalf("no scripts in testdata/script (%v)", err)
	}
	return all
}

// TestScriptLists: every name in raceScripts and pdfEngineScripts is a
// script (a renamed script would fall to another test unnoticed), no name
// is in both lists or is a pdf_ script in raceScripts, and each of the
// three tests has scripts to run.
func TestScriptLists(t *testing.T) {
	var names []string
	count := map[string]int{}
	for _, f := range scriptFiles(t) {
		names = append(names, scriptName(f))
		count[scriptSet(f)]++
	}
	for list, listed := range map[string][]string{"raceScripts": raceScripts, "pdfEngineScripts": pdfEngineScripts} {
		for _, n := range listed {
			if !slices.Contains(names, n) {
				t.Errorf("%s names %s, which is not in testdata/script (renamed?)", list, n)
			}
		}
	}
	for _, n := range raceScripts {
		if strings.HasPrefix(n, "pdf_") || slices.Contains(pdfEngineScripts, n) {
			t.Errorf("raceScripts names %s, a PDF script (TestPDFScripts runs it)", n)
		}
	}
	for _, set := range []string{scriptUnit, scriptRace, scriptPDF} {
		if count[set] == 0 {
			t.Errorf("no script in the %s set", set)
		}
	}
}

func runScripts(t *testing.T, set string) {
	var files []string
	for _, f := range scriptFiles(t) {
		if scriptSet(f) == set {
			files = append(files, f)
		}
	}
	cache := sharedPDFCache(t)
	testscript.Run(t, testscript.Params{
		Files: files,
		Setup: func(env *testscript.Env) error {
			if err := setup(env); err != nil {
				return err
			}
			return shareCompiledPDFEngine(env, cache)
		},
		Condition: condition,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"validate":  validateCmd,
			"lines":     linesCmd,
			"samejson":  sameJSONCmd,
			"jsonfield": jsonFieldCmd,
			"artifacts": artifactsCmd,
			"siteurls":  siteURLsCmd,
			"pdf":       pdfCmd,
		},
	})
}

// condition adds [chromium]: a Chromium binary is there for the render
// tier. Without one the render scripts skip, unless SIEVE_REQUIRE_CHROMIUM
// is set (CI), where the missing browser is an error.
func condition(cond string) (bool, error) {
	if cond != "chromium" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	bin := os.Getenv("SIEVE_CHROMIUM")
	if bin == "" {
		bin = capture.DefaultChromium
	}
	if _, err := exec.LookPath(bin); err != nil {
		if os.Getenv("SIEVE_REQUIRE_CHROMIUM") != "" {
			return false, fmt.Errorf("SIEVE_REQUIRE_CHROMIUM is set but Chromium is missing (%v): apt-get install chromium", err)
		}
		fmt.Fprintf(os.Stderr, "RENDER SCRIPTS SKIPPED: Chromium is unavailable (%v); install it with apt-get install chromium\n", err)
		return false, nil
	}
	return true, nil
}

// setup serves the sample site for the script ($SITE, at $SITEADDR) and
// names a port nothing listens on ($DEAD).
func setup(env *testscript.Env) error {
	base, stop, err := sample.Serve("127.0.0.1:0")
	if err != nil {
		return err
	}
	env.Defer(stop)
	env.Setenv("SITE", base)
	if u, err := url.Parse(base); err == nil {
		env.Setenv("SITEADDR", u.Host)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	dead := "http://" + l.Addr().String() + "/"
	l.Close()
	env.Setenv("DEAD", dead)
	return nil
}

// sharedPDFCache is the compilation cache of the PDF engine for every
// script: the test process's own (the user cache dir's sieve/wazero, warm
// after the first PDF read of any run), else a dir for this run, which
// the first script to read a PDF fills. Without it each script that reads
// a PDF compiles PDFium (15-20 s: testscript's HOME is /no-home, which
// only root can create). The engine is started here so that the cache is
// warm before the first script, whose stderr would otherwise hold the
// compile notice.
func sharedPDFCache(t *testing.T) string {
	dir, err := pdf.Warm()
	if err != nil {
		t.Fatalf("starting the PDF engine: %v", err)
	}
	if dir == "" {
		dir = t.TempDir()
	}
	return dir
}

// shareCompiledPDFEngine gives the script a cache dir of its own
// ($XDG_CACHE_HOME, so nothing else a script caches is shared) whose
// sieve/wazero is the shared compilation cache. A script that needs a
// cold cache sets XDG_CACHE_HOME itself (firsthour_prepare.txtar).
func shareCompiledPDFEngine(env *testscript.Env, cache string) error {
	home, err := os.MkdirTemp("", "sieve-script-cache-")
	if err != nil {
		return err
	}
	env.Defer(func() { os.RemoveAll(home) })
	if err := os.MkdirAll(filepath.Join(home, "sieve"), 0o755); err != nil {
		return err
	}
	if err := os.Symlink(cache, filepath.Join(home, "sieve", "wazero")); err != nil {
		return err
	}
	env.Setenv("XDG_CACHE_HOME", home)
	return nil
}

// validate FILE... — every line of each JSONL file validates against the
// schema of its record kind; a .json file named manifest.json or
// content.json validates against its schema.
func validateCmd(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		data := ts.ReadFile(a)
		var err error
		switch filepath.Base(a) {
		case "manifest.json":
			err = schemas.Validate("manifest", []byte(data))
		case "content.json":
			err = schemas.Validate("content", []byte(data))
		case "diff.json", "diff-citations.json", "diff-anchors.json":
			err = schemas.Validate(strings.TrimSuffix(filepath.Base(a), ".json"), []byte(data))
		default:
			sc := bufio.NewScanner(strings.NewReader(data))
			sc.Buffer(nil, 64<<20)
			for n := 1; sc.Scan() && err == nil; n++ {
				if !sieveKinds[gjsonGet(sc.Text(), "record")] {
					continue // someone else's record passing through
				}
				if e := schemas.ValidateRecord(sc.Bytes()); e != nil {
					err = fmt.Errorf("line %d: %w", n, e)
				}
			}
		}
		if (err != nil) != neg {
			ts.Fatalf("validate %s: %v", a, err)
		}
	}
}

var sieveKinds = map[string]bool{"capture": true, "normalized": true, "graph": true, "artifact": true, "error": true}

// lines FILE N — FILE has exactly N lines.
func linesCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: lines FILE N")
	}
	want, _ := strconv.Atoi(args[1])
	got := strings.Count(ts.ReadFile(args[0]), "\n")
	if (got == want) == neg {
		ts.Fatalf("%s has %d lines, want %d", args[0], got, want)
	}
}

var volatile = regexp.MustCompile(`"(distilled_at|started_at|duration_ms)": ?("[^"]*"|[0-9]+)`)

// samejson A B — the files are byte-identical once the documented volatile
// fields (distilled_at, timing) are masked.
func sameJSONCmd(ts *testscript.TestScript, neg bool, args []string) {
	a := volatile.ReplaceAllString(ts.ReadFile(args[0]), `"$1":_`)
	b := volatile.ReplaceAllString(ts.ReadFile(args[1]), `"$1":_`)
	if (a == b) == neg {
		ts.Fatalf("%s and %s differ beyond volatile fields", args[0], args[1])
	}
}

// jsonfield FILE LINE PATH WANT — the gjson path on line LINE (1-based) of
// the JSONL file equals WANT.
func jsonFieldCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 4 {
		ts.Fatalf("usage: jsonfield FILE LINE PATH WANT")
	}
	n, _ := strconv.Atoi(args[1])
	lines := strings.Split(ts.ReadFile(args[0]), "\n")
	if n < 1 || n > len(lines) {
		ts.Fatalf("%s has no line %d", args[0], n)
	}
	got := gjsonGet(lines[n-1], args[2])
	if (got == args[3]) == neg {
		ts.Fatalf("%s line %d %s = %q, want %q", args[0], n, args[2], got, args[3])
	}
}

// artifacts JSONL — every artifact line names a directory holding the four
// files, each of which validates; index.md and index.html hold no text of
// content.json's latent[].
func artifactsCmd(ts *testscript.TestScript, neg bool, args []string) {
	for _, line := range strings.Split(strings.TrimSpace(ts.ReadFile(args[0])), "\n") {
		if gjsonGet(line, "record") != "artifact" {
			continue
		}
		dir := ts.MkAbs(gjsonGet(line, "dir"))
		for _, f := range []string{"manifest.json", "content.json", "index.md", "index.html"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				ts.Fatalf("artifact %s: %v", dir, err)
			}
		}
		validateCmd(ts, false, []string{filepath.Join(dir, "manifest.json"), filepath.Join(dir, "content.json")})
		content := ts.ReadFile(filepath.Join(dir, "content.json"))
		md := ts.ReadFile(filepath.Join(dir, "index.md"))
		page := ts.ReadFile(filepath.Join(dir, "index.html"))
		for _, l := range latentTexts(content) {
			for _, piece := range strings.Split(l, "\n") {
				if len(piece) >= 12 && (strings.Contains(md, piece) || strings.Contains(page, piece)) {
					ts.Fatalf("latent text %q leaked into %s", piece, dir)
				}
			}
		}
	}
}

// siteurls FILE PATH... — writes $SITE+PATH lines to FILE.
func siteURLsCmd(ts *testscript.TestScript, neg bool, args []string) {
	var b bytes.Buffer
	for _, p := range args[1:] {
		b.WriteString(ts.Getenv("SITE") + p + "\n")
	}
	if err := os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}
