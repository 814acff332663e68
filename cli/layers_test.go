package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/sieve-dev/sieve"

// layers are the module's top-level folders in pipeline order: a package
// may import the packages of its own folder and of the folders before it,
// never of a folder after it nor of a peer in its own layer. internal/ is
// plumbing and comes first, so it imports no stage (its tests neither);
// evidence/ is the bundle and grounding model that render writes and
// verify, anchor and crop read. A stage's tests may run the stages after it
// (a capture test that renders), so only internal/'s tests are held to it.
var layers = [][]string{
	{"internal"},
	{"schemas"},
	{"capture"},
	{"normalize"},
	{"graph"},
	{"evidence"},
	{"render"},
	{"verify"},
	{"anchor", "crop"},
	{"diff"}, // carries evidence-anchor refs to a page's new read: above anchor
	{"distill", "bench"},
	{"frontier"},
	{"mcp"},
	{"cli"},
	{"cmd", "pipelines", "docs"},
}

// listed is what go list says of one package.
type listed struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

// TestLayers: no import runs back up the layers.
func TestLayers(t *testing.T) {
	rank := map[string]int{}
	for i, l := range layers {
		for _, folder := range l {
			rank[folder] = i
		}
	}
	pkgs := goList(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list gave %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		from, ok := folderOf(p.ImportPath)
		if _, known := rank[from]; !ok || !known {
			t.Errorf("%s: its folder %q is in no layer (add it to layers)", p.ImportPath, from)
			continue
		}
		imports := p.Imports
		if from == "internal" {
			imports = append(append(imports, p.TestImports...), p.XTestImports...)
		}
		for _, imp := range imports {
			if msg := upward(rank, from, imp); msg != "" {
				t.Errorf("%s imports %s: %s", p.ImportPath, imp, msg)
			}
		}
	}
}

// upward says why importing imp from a package in folder from runs back
// up the layers, or "" when it does not.
func upward(rank map[string]int, from, imp string) string {
	to, ok := folderOf(imp)
	if !ok || to == from {
		return ""
	}
	r, known := rank[to]
	switch {
	case !known:
		return "its folder is in no layer"
	case r > rank[from]:
		return "it is in a later layer"
	case r == rank[from]:
		return "it is in the same layer (peers do not import each other)"
	}
	return ""
}

// folderOf is the module's top-level folder of a package of the module.
func folderOf(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return "", false
	}
	folder, _, _ := strings.Cut(rest, "/")
	return folder, true
}

func TestUpwardImportFails(t *testing.T) {
	rank := map[string]int{"internal": 0, "capture": 1, "crop": 2, "anchor": 2}
	for _, c := range []struct {
		from, imp string
		bad       bool
	}{
		{"internal", module + "/capture", true},
		{"internal", module + "/internal/jsonl", false},
		{"capture", module + "/internal/jsonl", false},
		{"anchor", module + "/crop", true},
		{"crop", module + "/unknown", true},
		{"crop", "github.com/urfave/cli/v2", false},
	} {
		if got := upward(rank, c.from, c.imp) != ""; got != c.bad {
			t.Errorf("upward(%s → %s) = %v, want %v", c.from, c.imp, got, c.bad)
		}
	}
}

// goList lists every package of the module with its imports.
func goList(t *testing.T) []listed {
	t.Helper()
	//lint:ignore SA1019 a test binary runs where it was built: GOROOT is the go that built it, also when PATH has none
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goBin); err != nil {
		goBin = "go"
	}
	cmd := exec.Command(goBin, "list", "-json", "./...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}
