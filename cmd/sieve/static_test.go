package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/testbin"
)

// TestStaticBuild: sieve built with CGO_ENABLED=0, as make build and make
// static build it (internal/testbin; make static adds -trimpath, which
// changes no linking), is a static executable (no ELF interpreter) that
// runs and reads a saved page into Markdown, PDF engine and all.
func TestStaticBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sieve with CGO_ENABLED=0 (minutes on a cold cache)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("checks a Linux ELF")
	}
	dir := t.TempDir()
	bin := testbin.Path(t, "sieve")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("the CGO_ENABLED=0 binary asks for a dynamic loader (PT_INTERP)")
		}
	}
	page := filepath.Join(dir, "page.html")
	if err := os.WriteFile(page, []byte(`<!doctype html><title>Static</title><main><h1>Static</h1><p>Built without cgo, `+strings.Repeat("and it reads pages. ", 20)+`</p></main>`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "distill", "--format", "md", "--quiet", page).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "# Static\n") || !strings.Contains(string(out), "Built without cgo") {
		t.Fatalf("static sieve distill: %v\n%s", err, out)
	}
}
