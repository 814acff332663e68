package testbin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fatalTB records Fatalf instead of stopping the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) { f.msg = fmt.Sprintf(format, args...) }

func TestDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sieve"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sieve-graph"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, dir)
	if got := Path(t, "sieve"); got != filepath.Join(dir, "sieve") {
		t.Errorf("Path(sieve) = %s, want the prebuilt one in %s", got, dir)
	}
	for _, name := range []string{"sieve-capture", "sieve-graph"} { // missing; not executable
		tb := &fatalTB{TB: t}
		Dir(tb, "sieve", name)
		if !strings.Contains(tb.msg, "holds no program "+name) {
			t.Errorf("Dir(sieve, %s) with a directory lacking it: %q, want a failure naming it", name, tb.msg)
		}
	}
	if built.dir != "" {
		t.Errorf("Dir built into %s although $%s names a directory", built.dir, Env)
	}
}
