package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/testbin"
)

// The process floor (issue 27): what `sieve --version` initialises before
// main. GODEBUG=inittrace=1 reports each package initialiser's heap
// allocation, which is the same on every run of one build (its clock time
// is not, so it is reported, never checked).
const (
	// initBudget caps the bytes all package initialisers of sieve allocate
	// together: about 1.2 MB at this writing, third-party tables sieve cannot
	// defer (gorilla/css's scanner, blackfriday, x/net/html, go-rod's
	// protocol); 5.3 MB before issue 27 took sonic out of this binary, 2.8
	// MB before jsonschema compiled its meta-schemas on first use.
	initBudget = 1_400_000
	// ownInitBudget caps the bytes any one of sieve's own packages
	// allocates at start: tables in small map literals, not compiled
	// regexps, parsed embedded files or engines (those wait for their
	// first use, sync.OnceValue).
	ownInitBudget = 40_000
)

// neverAtStart are packages whose initialisation the one-process-per-page
// binary must not pay: sonic loads its native code on start (only the
// stage filters link it, internal/codec/withsonic).
var neverAtStart = []string{"github.com/bytedance/sonic"}

// lazyAtStart are third-party packages sieve links whose start-up work
// was moved to first use: santhosh-tekuri/jsonschema compiled its
// meta-schemas in init (1.7 MB, about 14 % of one `sieve distill` of a
// news page) until third_party/jsonschema made that lazy. Held to
// ownInitBudget like sieve's own packages, so a go.mod that drops the
// replace fails here.
var lazyAtStart = []string{"github.com/santhosh-tekuri/jsonschema/v6"}

// initCost is one package's line of GODEBUG=inittrace=1.
type initCost struct {
	pkg    string
	ms     float64
	bytes  int64
	allocs int64
}

func TestStartupBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sieve")
	}
	bin := testbin.Path(t, "sieve")
	inits := initTrace(t, bin, "--version")
	var total int64
	for _, c := range inits {
		total += c.bytes
		for _, p := range neverAtStart {
			if strings.HasPrefix(c.pkg, p) {
				t.Errorf("sieve --version initialises %s (%d bytes): it must not be linked into sieve", c.pkg, c.bytes)
			}
		}
		if (strings.HasPrefix(c.pkg, "github.com/sieve-dev/sieve/") || hasPrefix(c.pkg, lazyAtStart)) && c.bytes > ownInitBudget {
			t.Errorf("%s allocates %d bytes at start (budget %d): build it on first use", c.pkg, c.bytes, ownInitBudget)
		}
	}
	if total > initBudget {
		t.Errorf("sieve --version: package initialisers allocate %d bytes, budget %d; the largest:\n%s", total, initBudget, largest(inits, 8))
	}
	t.Logf("sieve --version: %d packages initialised, %d bytes allocated before main; the largest:\n%s", len(inits), total, largest(inits, 5))
}

// hasPrefix reports whether pkg is one of prefixes or below one.
func hasPrefix(pkg string, prefixes []string) bool {
	for _, p := range prefixes {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}

// initTrace runs bin with args under GODEBUG=inittrace=1 and parses the
// trace: "init PKG @T ms, C ms clock, B bytes, A allocs".
func initTrace(t *testing.T, bin string, args ...string) []initCost {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, stderr.Bytes())
	}
	var out []initCost
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		f := strings.Fields(strings.ReplaceAll(sc.Text(), ",", ""))
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes" || f[10] != "allocs" {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		a, err3 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		out = append(out, initCost{pkg: f[1], ms: ms, bytes: b, allocs: a})
	}
	if len(out) == 0 {
		t.Fatalf("%s printed no inittrace lines:\n%s", bin, stderr.Bytes())
	}
	return out
}

// largest lists the n initialisers that allocate most, one a line.
func largest(inits []initCost, n int) string {
	s := append([]initCost(nil), inits...)
	sort.Slice(s, func(i, j int) bool { return s[i].bytes > s[j].bytes })
	var b strings.Builder
	for i := 0; i < n && i < len(s); i++ {
		b.WriteString("  " + s[i].pkg + ": " + strconv.FormatInt(s[i].bytes, 10) + " bytes, " +
			strconv.FormatInt(s[i].allocs, 10) + " allocs, " + strconv.FormatFloat(s[i].ms, 'f', 2, 64) + " ms\n")
	}
	return b.String()
}
