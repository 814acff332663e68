package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/testbin"
	"github.com/sieve-dev/sieve/schemas"
)

// exitInterrupted is the documented exit code of a run stopped by SIGINT or
// SIGTERM (README, "Exit codes"): the number users script against, so the
// tests spell it out rather than import it.
const exitInterrupted = 130

// buildSignalBins returns a directory holding sieve-capture and sieve: the
// signal tests need real processes to send signals to.
func buildSignalBins(t *testing.T) string {
	t.Helper()
	return testbin.Dir(t, "sieve-capture", "sieve")
}

// TestSignals sends SIGTERM to sieve-capture and sieve distill while lines
// are in flight.
func TestSignals(t *testing.T) {
	dir := buildSignalBins(t)
	capture, sieve := filepath.Join(dir, "sieve-capture"), filepath.Join(dir, "sieve")
	t.Run("CaptureAllInputRead", func(t *testing.T) { signalCaptureAllInputRead(t, capture) })
	t.Run("CaptureRestNotStarted", func(t *testing.T) { signalCaptureRestNotStarted(t, capture) })
	t.Run("CaptureStdinOpen", func(t *testing.T) { signalCaptureStdinOpen(t, capture) })
	t.Run("CaptureStdoutGone", func(t *testing.T) { signalCaptureStdoutGone(t, capture) })
	t.Run("Distill", func(t *testing.T) { signalDistill(t, sieve) })
	t.Run("DistillStdin", func(t *testing.T) { signalDistillStdin(t, sieve) })
	t.Run("CaptureRender", func(t *testing.T) { signalCaptureRender(t, capture) })
	t.Run("CaptureRenderTwoSignals", func(t *testing.T) { signalCaptureRenderTwice(t, capture) })
}

// slowServer answers robots.txt at once and holds every /slow/N request
// until the client goes away (or the test ends): a line fetching it is in
// flight for as long as the test wants. /page/N is a page, answered at once,
// whose image is /slow/N: a browser reading it is held. The server records
// which /slow/ paths it saw.
type slowServer struct {
	*httptest.Server
	release chan struct{}
	mu      sync.Mutex
	seen    []string
	hit     chan struct{}
}

func newSlowServer(t *testing.T) *slowServer {
	s := &slowServer{release: make(chan struct{}), hit: make(chan struct{}, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		close(s.release)
		s.Close()
	})
	return s
}

func (s *slowServer) serve(w http.ResponseWriter, r *http.Request) {
	if n, ok := strings.CutPrefix(r.URL.Path, "/page/"); ok {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Page %s</title></head><body><div id="root"></div><img src="/slow/%s" alt=""></body></html>`, n, n)
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/slow/") {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	s.seen = append(s.seen, r.URL.Path)
	s.mu.Unlock()
	s.hit <- struct{}{}
	select {
	case <-r.Context().Done():
	case <-s.release:
	case <-time.After(2 * time.Minute):
	}
}

// waitHits waits until n held requests have arrived.
func (s *slowServer) waitHits(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-s.hit:
		case <-time.After(60 * time.Second):
			t.Fatalf("only %d of %d requests reached the server within a minute", i, n)
		}
	}
}

// started returns the line numbers (the N of /slow/N) the server saw.
func (s *slowServer) started() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for _, p := range s.seen {
		n, _ := strconv.Atoi(strings.TrimPrefix(p, "/slow/"))
		out = append(out, n)
	}
	sort.Ints(out)
	return out
}

// urls are the URLs of n held lines: /slow/N, or /page/N for a browser.
func (s *slowServer) urls(n int, dir string) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("%s/%s/%d", s.URL, dir, i))
	}
	return out
}

// interruptRun is one run stopped by SIGTERM.
type interruptRun struct {
	code           int
	stdout, stderr string
	pid            int
	took           time.Duration // from the signal to the exit
	sent           int           // signals delivered (a later one finds the process gone when the first ended it)
}

// runAndTerm starts cmd, waits for hits held requests, sends SIGTERM and
// waits for the exit.
func runAndTerm(t *testing.T, cmd *exec.Cmd, srv *slowServer, hits int) interruptRun {
	t.Helper()
	return runAndSignal(t, cmd, srv, hits, 1, nil)
}

// runAndSignal is runAndTerm with signals SIGTERMs sent one after another;
// started, if not nil, gets the command's pid once it runs.
func runAndSignal(t *testing.T, cmd *exec.Cmd, srv *slowServer, hits, signals int, started func(pid int)) interruptRun {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if started != nil {
		started(cmd.Process.Pid)
	}
	srv.waitHits(t, hits)
	time.Sleep(100 * time.Millisecond) // let the lines settle into their fetches
	sent := time.Now()
	delivered := 0
	for i := 0; i < signals; i++ {
		if i > 0 {
			// Apart, or the kernel merges them into one pending signal
			// (on a loaded machine the process may not run for a while).
			time.Sleep(200 * time.Millisecond)
		}
		err := cmd.Process.Signal(syscall.SIGTERM)
		if errors.Is(err, os.ErrProcessDone) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		delivered++
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 30 s after SIGTERM\nstderr: %s", stderr.String())
	}
	run := interruptRun{code: 0, stdout: stdout.String(), stderr: stderr.String(), pid: cmd.Process.Pid, took: time.Since(sent), sent: delivered}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		run.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("wait: %v", err)
	}
	return run
}

// checkInterrupted: the run exited with the interrupt code, wrote exactly
// one record per started line (those the server saw), in input order, each
// an error record that says it was interrupted and validates, and left no
// Chromium profile behind.
func checkInterrupted(t *testing.T, run interruptRun, srv *slowServer, total int) {
	t.Helper()
	t.Logf("exit %d %v after SIGTERM; stderr:\n%s", run.code, run.took, run.stderr)
	if run.code != exitInterrupted {
		t.Errorf("exit code %d, want %d", run.code, exitInterrupted)
	}
	if run.took > 10*time.Second {
		t.Errorf("took %v to exit after SIGTERM", run.took)
	}
	started := srv.started()
	if len(started) == 0 || len(started) >= total {
		t.Fatalf("started lines %v: the test wants some, not all, of %d lines in flight", started, total)
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(run.stdout))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if len(out) != len(started) {
		t.Fatalf("%d output records for %d started lines %v:\n%s", len(out), len(started), started, run.stdout)
	}
	for i, line := range out {
		if err := schemas.ValidateRecord([]byte(line)); err != nil {
			t.Errorf("record %d does not validate: %v", i+1, err)
		}
		if kind := gjsonGet(line, "record"); kind != "error" {
			t.Errorf("record %d is a %q record, want an error record: %s", i+1, kind, line)
		}
		if msg := gjsonGet(line, "error"); !strings.HasPrefix(msg, "interrupted") {
			t.Errorf("record %d does not say it was interrupted: %s", i+1, line)
		}
		if no := gjsonGet(line, "line"); no != strconv.Itoa(started[i]) {
			t.Errorf("record %d is for line %s, want line %d", i+1, no, started[i])
		}
	}
	if !strings.Contains(run.stderr, "interrupted") {
		t.Errorf("stderr does not say the run was interrupted")
	}
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("sieve-chromium-%d-*", run.pid)))
	if len(left) > 0 {
		t.Errorf("Chromium profiles left behind: %v", left)
	}
}

// SIGTERM while every line is in flight and the whole input has been read
// (stdin at EOF): each line becomes an interrupted error record, and the
// command exits with the interrupt code (it used to exit 0, the lines
// written as capture records with a read failure).
func signalCaptureAllInputRead(t *testing.T, bin string) {
	srv := newSlowServer(t)
	urls := srv.urls(3, "slow")
	cmd := exec.Command(bin, "--tier", "static", "--allow-private", "--concurrency", "4", "--per-host", "4", "--retries", "0")
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	run := runAndTerm(t, cmd, srv, 3)
	// All three lines were started: checkInterrupted wants fewer than
	// total started, so count a fourth, never-written line.
	checkInterrupted(t, run, srv, 4)
}

// SIGTERM with two lines in flight and four more waiting: the two become
// interrupted records, the other four are not started (no request, no
// record).
func signalCaptureRestNotStarted(t *testing.T, bin string) {
	srv := newSlowServer(t)
	urls := srv.urls(6, "slow")
	cmd := exec.Command(bin, "--tier", "static", "--allow-private", "--concurrency", "2", "--per-host", "2", "--retries", "0")
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	run := runAndTerm(t, cmd, srv, 2)
	checkInterrupted(t, run, srv, len(urls))
	if got := srv.started(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("lines started %v, want [1 2]", got)
	}
}

// The same with stdin left open, as a terminal or an upstream stage that
// is still running would leave it: the run must not wait for more input.
func signalCaptureStdinOpen(t *testing.T, bin string) {
	srv := newSlowServer(t)
	cmd := exec.Command(bin, "--tier", "static", "--allow-private", "--concurrency", "4", "--per-host", "4", "--retries", "0")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	go fmt.Fprintln(stdin, strings.Join(srv.urls(2, "slow"), "\n"))
	run := runAndTerm(t, cmd, srv, 2)
	checkInterrupted(t, run, srv, 3)
}

// Ctrl-C in a terminal signals every stage of a pipe, so the next stage
// may be gone when this one writes its interrupted lines: the write fails
// (no SIGPIPE death) and the exit code is still the interrupt code.
func signalCaptureStdoutGone(t *testing.T, bin string) {
	srv := newSlowServer(t)
	cmd := exec.Command(bin, "--tier", "static", "--allow-private", "--concurrency", "2", "--per-host", "2", "--retries", "0")
	cmd.Stdin = strings.NewReader(strings.Join(srv.urls(2, "slow"), "\n") + "\n")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = pw, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	pw.Close()
	srv.waitHits(t, 2)
	pr.Close() // the reader is gone
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("exit %v, want code %d\nstderr: %s", err, exitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted (SIGTERM)") || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("stderr does not say the run was interrupted and stdout was gone: %s", stderr.String())
	}
}

// sieve distill: the lines in flight are interrupted error records on
// stdout (where the artifact lines go), no artifact is written, and the
// exit code is the interrupt code (it used to be 1).
func signalDistill(t *testing.T, bin string) {
	srv := newSlowServer(t)
	urls := srv.urls(5, "slow")
	out := t.TempDir()
	args := append([]string{"distill", "--tier", "static", "--allow-private", "--concurrency", "2", "--per-host", "2", "--retries", "0", "--out", out}, urls...)
	cmd := exec.Command(bin, args...)
	run := runAndTerm(t, cmd, srv, 2)
	checkInterrupted(t, run, srv, len(urls))
	for _, l := range strings.Split(strings.TrimSpace(run.stdout), "\n") {
		if stage := gjsonGet(l, "stage"); stage != "capture" {
			t.Errorf("interrupted in stage %q, want capture (the stage that was running): %s", stage, l)
		}
	}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		t.Errorf("%s written under --out by an interrupted run", e.Name())
	}
}

// The same from stdin, all of it read.
func signalDistillStdin(t *testing.T, bin string) {
	srv := newSlowServer(t)
	urls := srv.urls(2, "slow")
	cmd := exec.Command(bin, "distill", "--tier", "static", "--allow-private", "--concurrency", "4", "--per-host", "4", "--retries", "0", "--out", t.TempDir())
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	run := runAndTerm(t, cmd, srv, 2)
	checkInterrupted(t, run, srv, 3)
}

// In the render tier Chromium is running (and reading the page) when the
// signal comes: it is killed and its profile removed before the exit.
func signalCaptureRender(t *testing.T, bin string) {
	needChromium(t)
	// The page is answered; the image Chromium then asks for is held.
	srv := newSlowServer(t)
	urls := srv.urls(3, "page")
	cmd := exec.Command(bin, "--tier", "render", "--allow-private", "--concurrency", "1", "--retries", "0", "--render-timeout", "60s", "--settle", "30s")
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	var browser <-chan int
	run := runAndSignal(t, cmd, srv, 1, 1, func(pid int) { browser = watchChromium(pid) })
	checkInterrupted(t, run, srv, len(urls))
	checkChromiumGone(t, browser)
}

// watchChromium notes the pid of the Chromium that process pid starts.
func watchChromium(pid int) <-chan int {
	browser := make(chan int, 1)
	started := time.Now()
	go func() {
		for time.Since(started) < time.Minute {
			if p := chromiumUnder(pid); p != 0 {
				browser <- p
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		browser <- 0
	}()
	return browser
}

func checkChromiumGone(t *testing.T, browser <-chan int) {
	t.Helper()
	if p := <-browser; p == 0 {
		t.Error("saw no Chromium under the capture command")
	} else if syscall.Kill(p, 0) == nil && !zombie(p) {
		t.Errorf("Chromium %d outlived the interrupted command", p)
	}
}

// Two signals at once: the second does not wait for the lines in flight,
// and the process still exits with the interrupt code, promptly, with
// Chromium killed and its profile removed.
func signalCaptureRenderTwice(t *testing.T, bin string) {
	needChromium(t)
	srv := newSlowServer(t)
	urls := srv.urls(2, "page")
	cmd := exec.Command(bin, "--tier", "render", "--allow-private", "--concurrency", "1", "--retries", "0", "--render-timeout", "60s", "--settle", "30s")
	cmd.Stdin = strings.NewReader(strings.Join(urls, "\n") + "\n")
	var browser <-chan int
	run := runAndSignal(t, cmd, srv, 1, 2, func(pid int) { browser = watchChromium(pid) })
	t.Logf("exit %d %v after two SIGTERMs; stderr:\n%s", run.code, run.took, run.stderr)
	if run.code != exitInterrupted {
		t.Errorf("exit code %d, want %d", run.code, exitInterrupted)
	}
	if run.took > 5*time.Second {
		t.Errorf("took %v to exit after the second SIGTERM", run.took)
	}
	// The first signal's own path (cancel, write the line in flight, kill
	// Chromium) can end the process before the second arrives: then it
	// must have ended as an interruption. cliutil's TestMainSecondSignalExits
	// holds the first path open to test the second deterministically.
	again := strings.Contains(run.stderr, "SIGTERM again: exiting at once")
	firstDone := strings.Contains(run.stderr, "the rest of the input was not started")
	if run.sent < 2 || (!again && firstDone) {
		t.Logf("the first SIGTERM ended the run before the second was taken")
	} else if !again {
		t.Errorf("the second SIGTERM was not seen as one")
	}
	for _, l := range strings.Split(strings.TrimSpace(run.stdout), "\n") {
		if l != "" && !strings.HasPrefix(gjsonGet(l, "error"), "interrupted") {
			t.Errorf("a record that is not an interrupted one: %s", l)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("sieve-chromium-%d-*", run.pid))); len(left) > 0 {
		t.Errorf("Chromium profiles left behind: %v", left)
	}
	checkChromiumGone(t, browser)
}

func needChromium(t *testing.T) {
	t.Helper()
	if ok, err := condition("chromium"); err != nil {
		t.Fatal(err)
	} else if !ok {
		t.Skip("Chromium is unavailable")
	}
}

// chromiumUnder returns the Chromium browser process among the descendants
// of pid, or 0.
func chromiumUnder(pid int) int {
	parent := map[int]int{}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		id, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if len(f) > 1 {
			parent[id], _ = strconv.Atoi(f[1])
		}
	}
	for id := range parent {
		under := false
		for p := parent[id]; p > 1 && !under; p = parent[p] {
			under = p == pid
		}
		if !under {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", id))
		if strings.Contains(string(cmd), "--remote-debugging-port") && !strings.Contains(string(cmd), "--type=") {
			return id
		}
	}
	return 0
}

func zombie(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && (s[i+2] == 'Z' || s[i+2] == 'X')
}
