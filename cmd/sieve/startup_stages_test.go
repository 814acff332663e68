package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/testbin"
)

// stageBinaries read records and write records: they link neither the
// browser (go-rod) nor the PDF engine (go-pdfium on wazero), which only
// capture uses. They read capture records through capture/caprec, the leaf
// that holds the record types without the machinery that makes them.
var stageBinaries = []string{"sieve-normalize", "sieve-graph", "sieve-render"}

// captureEngines are the modules only a capturing binary may link.
var captureEngines = []string{"github.com/go-rod/rod", "github.com/tetratelabs/wazero", "github.com/klippa-app/go-pdfium"}

// stageInitBudget caps the bytes a stage binary's package initialisers
// allocate before main: sonic's native code and JIT tables are 2.3 MB of
// it (the stage filters link sonic on purpose, internal/codec/withsonic),
// the rest 0.5–0.7 MB; go-rod's protocol tables were 0.14 MB more before
// the record types moved to caprec.
const stageInitBudget = 3_200_000

func TestStageLinks(t *testing.T) {
	// sieve-capture is the control: it must link every engine, or the
	// listing below proves nothing.
	deps := listDeps(t, append([]string{"sieve-capture"}, stageBinaries...))
	for _, m := range captureEngines {
		if !linksModule(deps["sieve-capture"], m) {
			t.Fatalf("sieve-capture does not link %s: the probe is broken (deps: %d packages)", m, len(deps["sieve-capture"]))
		}
	}
	for _, b := range stageBinaries {
		if len(deps[b]) == 0 {
			t.Fatalf("go list printed no dependencies of %s", b)
		}
		for _, m := range captureEngines {
			if linksModule(deps[b], m) {
				t.Errorf("%s links %s: a stage reads capture records through capture/caprec, never through package capture (go list -deps ./cmd/%s)", b, m, b)
			}
		}
	}
}

func TestStageStartupBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the stage binaries")
	}
	dir := testbin.Dir(t, stageBinaries...)
	for _, b := range stageBinaries {
		inits := initTrace(t, filepath.Join(dir, b), "--version")
		var total int64
		for _, c := range inits {
			total += c.bytes
			if hasPrefix(c.pkg, captureEngines) {
				t.Errorf("%s --version initialises %s", b, c.pkg)
			}
		}
		if total > stageInitBudget {
			t.Errorf("%s --version: package initialisers allocate %d bytes, budget %d; the largest:\n%s", b, total, stageInitBudget, largest(inits, 8))
		}
		t.Logf("%s --version: %d packages initialised, %d bytes before main", b, len(inits), total)
	}
}

// listDeps is each named cmd/ binary's package dependencies, by name, from
// one `go list -deps` run.
func listDeps(t *testing.T, bins []string) map[string][]string {
	t.Helper()
	args := []string{"list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`}
	for _, b := range bins {
		args = append(args, "../"+b)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0][strings.LastIndex(f[0], "/")+1:]] = f[1:]
		}
	}
	return deps
}

// linksModule reports whether one of deps is module m or a package in it.
func linksModule(deps []string, m string) bool {
	for _, d := range deps {
		if d == m || strings.HasPrefix(d, m+"/") {
			return true
		}
	}
	return false
}
