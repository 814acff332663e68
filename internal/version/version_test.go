package version

import (
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/codec"
)

func TestOfBuildInfo(t *testing.T) {
	deps := []*debug.Module{
		{Path: "github.com/tidwall/gjson", Version: "v1.20.2"},
		{Path: "example.test/forked", Version: "v1.0.0", Replace: &debug.Module{Path: "example.test/fork", Version: "v1.0.1-fork"}},
		{Path: "example.test/local", Version: "v0.1.0", Replace: &debug.Module{Path: "../local"}},
	}
	got := of(deps, []string{"example.test/nowhere", "github.com/tidwall/gjson", "example.test/local", "example.test/forked", "example.test/fork"})
	want := []Library{
		{Name: "example.test/nowhere", Version: "(devel)"},
		{Name: "github.com/tidwall/gjson", Version: "v1.20.2"},
		{Name: "example.test/local", Version: "(devel)"},
		{Name: "example.test/forked", Version: "v1.0.1-fork"},
		{Name: "example.test/fork", Version: "(devel)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("of = %+v\nwant %+v", got, want)
	}
}

func TestOfOrderAndEmpty(t *testing.T) {
	if got := Of(); got == nil || len(got) != 0 {
		t.Errorf("Of() = %#v, want empty non-nil slice", got)
	}
	a := Of("b.test/x", "a.test/y", "b.test/x")
	want := []Library{{"b.test/x", "(devel)"}, {"a.test/y", "(devel)"}, {"b.test/x", "(devel)"}}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("Of = %+v, want %+v", a, want)
	}
}

// TestOfInBinary builds a small program, because test binaries carry no
// dependency list in their build information.
func TestOfInBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), "ofmain")
	if out, err := exec.Command(gobin, "build", "-o", bin, "./testdata/ofmain").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// The program links the codec module and nothing else outside std.
	mod := map[string]string{"sonic": "github.com/bytedance/sonic", "segmentio": "github.com/segmentio/encoding"}[codec.Name()]
	out, err := exec.Command(bin, "example.test/nowhere", mod).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 || lines[0] != "example.test/nowhere (devel)" {
		t.Fatalf("output:\n%s", out)
	}
	name, v, _ := strings.Cut(lines[1], " ")
	if name != mod || !strings.HasPrefix(v, "v") {
		t.Errorf("line %q: want %s with a module version", lines[1], mod)
	}
	if lines[2] != "codec "+mod+" "+v {
		t.Errorf("Codec() line %q, want %q", lines[2], "codec "+mod+" "+v)
	}
}

func TestLibraryJSON(t *testing.T) {
	b, err := codec.Marshal(Library{Name: "m", Version: "v1"})
	if err != nil || string(b) != `{"name":"m","version":"v1"}` {
		t.Errorf("%s, %v", b, err)
	}
}
