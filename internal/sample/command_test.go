package sample

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// syncBuffer is a bytes.Buffer safe to read while the command writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestCommandServesUntilCancelled(t *testing.T) {
	urls := filepath.Join(t.TempDir(), "urls.txt")
	var stdout, stderr syncBuffer
	app := cliutil.App("sieve-sample", Command(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.RunContext(ctx, []string{"sieve-sample", "--urls", urls}) }()

	lines := waitForURLs(t, urls)
	if len(lines) != len(Pages()) {
		t.Fatalf("%d URLs, want %d", len(lines), len(Pages()))
	}
	base := strings.TrimSuffix(lines[0], "/")
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("first URL %q", lines[0])
	}
	for i, p := range Pages() {
		if lines[i] != base+p {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], base+p)
		}
	}
	if r := get(t, base, "/docs.html"); r.status != 200 {
		t.Errorf("docs: %d", r.status)
	}
	want := "serving the sieve sample site at " + base + "/\n"
	for deadline := time.Now().Add(5 * time.Second); stdout.String() != want && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}

	cancel()
	select {
	case err := <-done:
		if code := cliutil.Code(io.Discard, err); code != cliutil.ExitOK {
			t.Errorf("exit %d (%v), stderr %s", code, err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop when its context was cancelled")
	}
	if _, err := rawClient().Get(base + "/"); err == nil {
		t.Error("the site still answers after the command stopped")
	}
}

func waitForURLs(t *testing.T, file string) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil {
			return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
	}
	t.Fatal("the URL file never appeared")
	return nil
}

func TestCommandRefusesNonLoopback(t *testing.T) {
	for _, args := range [][]string{
		{"sieve-sample", "--addr", "0.0.0.0:0"},
		{"sieve-sample", "--addr", ":8080"},
		{"sieve-sample", "extra"},
	} {
		var stderr bytes.Buffer
		app := cliutil.App("sieve-sample", Command(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr})
		code := cliutil.Code(&stderr, app.RunContext(context.Background(), args))
		if code != cliutil.ExitUsage || !strings.Contains(stderr.String(), "error (usage)") {
			t.Errorf("%v: exit %d, stderr %q", args[1:], code, stderr.String())
		}
	}
}
