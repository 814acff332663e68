package pipelines

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/internal/testbin"
	"github.com/sieve-dev/sieve/schemas"
)

// bin returns a directory holding the stage binaries (make test's, or
// built once for the package's tests).
func bin(t *testing.T) string {
	t.Helper()
	return testbin.Dir(t, "sieve-capture", "sieve-normalize", "sieve-graph", "sieve-render", "sieve-frontier")
}

func targets(t *testing.T, site string) (string, []string) {
	t.Helper()
	var urls []string
	for _, p := range sample.Pages() {
		urls = append(urls, site+p)
	}
	// Repeat the site so a batch spans several blocks and jobs.
	var lines []string
	for i := 0; i < 3; i++ {
		lines = append(lines, urls...)
	}
	return strings.Join(lines, "\n") + "\n", lines
}

// runRecipe runs one script with the binaries on PATH and returns its
// stdout lines.
func runRecipe(t *testing.T, bindir, script, input string, env ...string) []string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command("sh", script)
	cmd.Env = append(os.Environ(), "PATH="+bindir+":"+os.Getenv("PATH"), "OUT="+out, "CAPTURE_ARGS=--tier static --allow-private")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if script == "static.sh" {
		cmd.Args = append(cmd.Args, "--tier", "static", "--allow-private")
	}
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	var lines []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if err := schemas.ValidateRecord([]byte(line)); err != nil {
			t.Errorf("%s: %v", script, err)
		}
		if dir := gjson.Get(line, "dir").String(); dir != "" {
			if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
				t.Errorf("%s: %v", script, err)
			}
		}
		lines = append(lines, line)
	}
	return lines
}

func urlsOf(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, gjson.Get(l, "url").String())
	}
	return out
}

func TestRecipes(t *testing.T) {
	site, stop, err := sample.Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	bindir := bin(t)
	input, want := targets(t, site)

	t.Run("static", func(t *testing.T) {
		got := urlsOf(runRecipe(t, bindir, "static.sh", input))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("static.sh: output order or count differs from input:\n%q", got)
		}
	})
	t.Run("parallel", func(t *testing.T) {
		if _, err := exec.LookPath("parallel"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("GNU parallel is not installed (make deps installs it)")
			}
			t.Skip("SKIPPING the GNU parallel recipe: GNU parallel is not installed; run `make deps` or apt-get install parallel")
		}
		lines := runRecipe(t, bindir, "parallel.sh", input, "N=5", "JOBS=3", "BLOBS="+t.TempDir())
		got := urlsOf(lines)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("parallel.sh --keep-order: output differs from input order:\n%q", got)
		}
		sourcesInBundles(t, "parallel.sh", lines)
	})
	t.Run("xargs", func(t *testing.T) {
		lines := runRecipe(t, bindir, "xargs.sh", input, "N=4", "JOBS=3", "BLOBS="+t.TempDir())
		sourcesInBundles(t, "xargs.sh", lines)
		got := urlsOf(lines)
		sort.Strings(got)
		w := append([]string(nil), want...)
		sort.Strings(w)
		if strings.Join(got, "\n") != strings.Join(w, "\n") {
			t.Errorf("xargs.sh: lost or added lines: got %d, want %d", len(got), len(w))
		}
	})
}

// sourcesInBundles: with BLOBS set, every artifact of a page that has
// source bytes holds them in its bundle (evidence/source.html or
// source.pdf, named by evidence/source.json).
func sourcesInBundles(t *testing.T, script string, lines []string) {
	t.Helper()
	n := 0
	for _, l := range lines {
		dir := gjson.Get(l, "dir").String()
		if dir == "" {
			continue
		}
		ptr, err := os.ReadFile(filepath.Join(dir, "evidence", "source.json"))
		if err != nil {
			t.Errorf("%s: %v", script, err)
			continue
		}
		if gjson.GetBytes(ptr, "source_fingerprint").String() == "" {
			continue // nothing was received
		}
		file := gjson.GetBytes(ptr, "file").String()
		if file == "" {
			t.Errorf("%s: %s: the source bytes are not in the bundle: %s", script, dir, ptr)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "evidence", file)); err != nil {
			t.Errorf("%s: %v", script, err)
		}
		n++
	}
	if n == 0 {
		t.Errorf("%s: no artifact with source bytes", script)
	}
}
