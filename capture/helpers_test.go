package capture

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/schemas"
)

// testOptions are fast, permissive options for servers on 127.0.0.1.
func testOptions() Options {
	o := DefaultOptions()
	o.AllowPrivate = true
	o.Timeout = 5 * time.Second
	o.ConnectTimeout = 2 * time.Second
	o.MaxRetryWait = 2 * time.Second
	return o
}

func newCapturer(t *testing.T, o Options) *Capturer {
	t.Helper()
	c := New(o)
	t.Cleanup(c.Close)
	return c
}

func serve(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// serveOn serves h on a given loopback address, skipping when it cannot.
func serveOn(t *testing.T, addr string, h http.Handler) *httptest.Server {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func captureURL(t *testing.T, c *Capturer, raw string) Record {
	t.Helper()
	tg, err := ParseTarget([]byte(raw))
	if err != nil {
		t.Fatalf("ParseTarget(%q): %v", raw, err)
	}
	rec := c.Capture(context.Background(), tg)
	validateRecord(t, "capture", rec)
	return rec
}

// validateRecord checks a record against its schema in schemas/.
func validateRecord(t *testing.T, kind string, v any) {
	t.Helper()
	b, err := codec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	validateLine(t, kind, b)
}

func validateLine(t *testing.T, kind string, line []byte) {
	t.Helper()
	if err := schemas.Validate(kind, line); err != nil {
		t.Errorf("record does not validate: %v\n%s", err, line)
	}
}

func wantError(t *testing.T, rec Record, kind string) {
	t.Helper()
	if rec.Error == nil {
		t.Fatalf("error = nil, want kind %q (status %d)", kind, rec.Status)
	}
	if rec.Error.Kind != kind {
		t.Fatalf("error = %+v, want kind %q", *rec.Error, kind)
	}
	if rec.Error.Message == "" {
		t.Fatalf("error kind %q has no message", kind)
	}
}

func wantOK(t *testing.T, rec Record) {
	t.Helper()
	if rec.Error != nil {
		t.Fatalf("unexpected error %+v", *rec.Error)
	}
}

// gauge counts handlers running at once and remembers the most.
type gauge struct {
	mu       sync.Mutex
	cur, max int
	starts   []time.Time
}

func (g *gauge) enter() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cur++
	g.max = max(g.max, g.cur)
	g.starts = append(g.starts, time.Now())
}

func (g *gauge) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.cur--
}

func (g *gauge) snapshot() (int, []time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.max, append([]time.Time(nil), g.starts...)
}
