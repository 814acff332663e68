package mcp

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sieve-test","version":"0"}}}`

// httpServer serves a fresh server's handler on 127.0.0.1.
func httpServer(t *testing.T, o Options) (*Server, string) {
	t.Helper()
	o.Capture, o.Store = capture.DefaultOptions(), t.TempDir()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler(""))
	t.Cleanup(func() {
		ts.Close()
		s.Close()
	})
	return s, ts.URL + "/mcp"
}

// noKeepAlive is a client that keeps no connection (nor its buffers) open.
var noKeepAlive = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// mcpRequest sends one JSON-RPC message (or, with body "", a DELETE) in
// session id ("" for none) and returns the response, its body read.
func mcpRequest(t *testing.T, endpoint, id, body string) (*http.Response, string) {
	t.Helper()
	method := http.MethodPost
	if body == "" {
		method = http.MethodDelete
	}
	req, err := http.NewRequest(method, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if id != "" {
		req.Header.Set(sessionHeader, id)
	}
	resp, err := noKeepAlive.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// openSessions initializes n sessions and never ends them, as a client that
// forgets them does; it returns their ids.
func openSessions(t *testing.T, endpoint string, n int) []string {
	t.Helper()
	ids := make([]string, 0, n)
	for range n {
		resp, body := mcpRequest(t, endpoint, "", initializeBody)
		id := resp.Header.Get(sessionHeader)
		if resp.StatusCode != http.StatusOK || id == "" {
			t.Fatalf("initialize: HTTP %d, session %q: %s", resp.StatusCode, id, body)
		}
		ids = append(ids, id)
	}
	return ids
}

// TestSessionCap: past --max-sessions a new session is refused with 503 and
// a reason, while the open sessions go on; ending one makes room.
func TestSessionCap(t *testing.T) {
	s, endpoint := httpServer(t, Options{MaxSessions: 3, SessionIdle: time.Hour})
	ids := openSessions(t, endpoint, 3)
	resp, body := mcpRequest(t, endpoint, "", initializeBody)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "too many sessions: 3 are open") || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a 4th session: HTTP %d %q", resp.StatusCode, body)
	}
	if resp, body := mcpRequest(t, endpoint, ids[0], `{"jsonrpc":"2.0","id":2,"method":"ping"}`); resp.StatusCode != http.StatusOK {
		t.Errorf("a ping in an open session at the cap: HTTP %d %q", resp.StatusCode, body)
	}
	if resp, body := mcpRequest(t, endpoint, ids[1], ""); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: HTTP %d %q", resp.StatusCode, body)
	}
	openSessions(t, endpoint, 1)
	if n := s.liveSessions(); n != 3 {
		t.Errorf("%d sessions open, want 3", n)
	}
}

// TestSessionsExpire: sessions a client never ends close after
// --session-idle, and the memory they held comes back. The cost of a
// session is measured first on a server whose sessions do not expire
// (ended by DELETE, which frees them too); the same number left idle on a
// server with a short idle time must all close and leave the heap within a
// quarter of that cost of where it was.
func TestSessionsExpire(t *testing.T) {
	const n = 300
	_, endpoint := httpServer(t, Options{MaxSessions: 2 * n, SessionIdle: time.Hour})
	base := heapInUse()
	ids := openSessions(t, endpoint, n)
	cost := int64(heapInUse()) - int64(base)
	if cost < n*1024 {
		t.Fatalf("%d sessions hold %d bytes: too little to measure what comes back", n, cost)
	}
	for _, id := range ids {
		if resp, body := mcpRequest(t, endpoint, id, ""); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("DELETE: HTTP %d %q", resp.StatusCode, body)
		}
	}

	s, endpoint := httpServer(t, Options{MaxSessions: 2 * n, SessionIdle: 50 * time.Millisecond})
	base = heapInUse()
	openSessions(t, endpoint, n)
	left, after := n, int64(0)
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		left = s.liveSessions()
		if left > 0 {
			continue
		}
		if after = int64(heapInUse()) - int64(base); after < cost/4 {
			break
		}
	}
	t.Logf("%d idle sessions: %d bytes open, %d bytes after they closed", n, cost, after)
	if left != 0 {
		t.Fatalf("%d of %d idle sessions still open after 15s (idle time 50ms)", left, n)
	}
	if after >= cost/4 {
		t.Errorf("the heap is %d bytes above where it was after %d sessions closed; they held %d", after, n, cost)
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSessionFlags: --session-idle and --max-sessions are read, and a value
// that would turn a limit off is bad usage.
func TestSessionFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"--session-idle", "90s", "--max-sessions", "5"}, 0},
		{[]string{"--session-idle", "0"}, 2},
		{[]string{"--max-sessions", "0"}, 2},
		{[]string{"--max-sessions", "-1"}, 2},
	} {
		var stderr bytes.Buffer
		app := cliutil.App("sieve-mcp", Command(), cliutil.IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr})
		args := append([]string{"sieve-mcp", "--store", t.TempDir()}, c.args...)
		if code := cliutil.Main(app, args); code != c.code || c.code == 2 && !strings.Contains(stderr.String(), "--session-idle and --max-sessions must be above 0") {
			t.Errorf("%v: exit %d, want %d: %s", c.args, code, c.code, stderr.String())
		}
	}
}
