package capture

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

func TestRedirectChain(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/a", http.RedirectHandler("/b", http.StatusMovedPermanently))
	mux.Handle("/b", http.RedirectHandler("/c", http.StatusFound))
	mux.HandleFunc("/c", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<p>arrived</p>")
	})
	srv := serve(t, mux)
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/a")
	wantOK(t, rec)
	want := []Redirect{{URL: srv.URL + "/a", Status: 301}, {URL: srv.URL + "/b", Status: 302}}
	if fmt.Sprint(rec.Redirects) != fmt.Sprint(want) {
		t.Errorf("redirects = %v, want %v", rec.Redirects, want)
	}
	if rec.URL != srv.URL+"/a" || rec.FinalURL != srv.URL+"/c" || rec.Status != 200 {
		t.Errorf("url %q final %q status %d", rec.URL, rec.FinalURL, rec.Status)
	}
	if rec.Body != "<p>arrived</p>" || rec.ContentType != "text/html" {
		t.Errorf("body %q type %q", rec.Body, rec.ContentType)
	}
	if rec.Timing.Attempts != 1 || rec.Timing.StartedAt == "" {
		t.Errorf("timing = %+v", rec.Timing)
	}
}

func TestRedirectLoop(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/x", http.RedirectHandler("/y", http.StatusFound))
	mux.Handle("/y", http.RedirectHandler("/x#again", http.StatusFound))
	srv := serve(t, mux)
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/x")
	wantError(t, rec, ErrRedirectLoop)
	if len(rec.Redirects) != 2 || rec.Status != 0 {
		t.Errorf("redirects %v status %d", rec.Redirects, rec.Status)
	}
}

func TestTooManyRedirects(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		http.Redirect(w, r, fmt.Sprintf("/hop%d", n), http.StatusFound)
	}))
	c := newCapturer(t, testOptions())
	c.opts.IgnoreRobots = true
	rec := captureURL(t, c, srv.URL+"/start")
	wantError(t, rec, ErrTooManyRedirects)
	if len(rec.Redirects) != maxRedirects+1 || hits.Load() != maxRedirects+1 {
		t.Errorf("%d redirects recorded, %d requests", len(rec.Redirects), hits.Load())
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	rec := captureURL(t, newCapturer(t, testOptions()), "http://"+addr+"/")
	wantError(t, rec, ErrConnect)
	if rec.Status != 0 || rec.Trace.UserAgent == "" || len(rec.Trace.Libraries) != 4 || rec.Timing.StartedAt == "" {
		t.Errorf("a failed capture lacks status/trace/timing: %+v", rec)
	}
}

func TestTotalTimeout(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		<-r.Context().Done()
	}))
	o := testOptions()
	o.Timeout = 300 * time.Millisecond
	start := time.Now()
	rec := captureURL(t, newCapturer(t, o), srv.URL+"/hang")
	wantError(t, rec, ErrTimeout)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("timeout took %v", d)
	}
}

func TestTimeoutWhileReadingBody(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "first part")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	o := testOptions()
	o.Timeout = 300 * time.Millisecond
	o.IgnoreRobots = true
	rec := captureURL(t, newCapturer(t, o), srv.URL+"/slow")
	wantError(t, rec, ErrTimeout)
	if rec.Status != 200 || rec.Body != "first part" {
		t.Errorf("status %d body %q: what arrived should be kept", rec.Status, rec.Body)
	}
}

func TestOversizedBodyTruncated(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, strings.Repeat("é", 3000)) // 6000 bytes
	}))
	o := testOptions()
	o.MaxBytes = 1001 // cuts "é" in half
	rec := captureURL(t, newCapturer(t, o), srv.URL+"/big")
	wantOK(t, rec)
	if !rec.Truncated || rec.BodyBytes != 1001 {
		t.Errorf("truncated %v body_bytes %d", rec.Truncated, rec.BodyBytes)
	}
	if rec.Body != strings.Repeat("é", 500) || rec.Charset.Name != "utf-8" {
		t.Errorf("body of %d bytes, charset %+v: the half rune should be dropped", len(rec.Body), rec.Charset)
	}
}

func TestContentEncodings(t *testing.T) {
	page := []byte("<html><body><p>" + strings.Repeat("compressed text ", 200) + "</p></body></html>")
	encoded := map[string][]byte{
		"gzip":         compress(t, func(w *bytes.Buffer) writeCloser { return gzip.NewWriter(w) }, page),
		"deflate":      compress(t, func(w *bytes.Buffer) writeCloser { return zlib.NewWriter(w) }, page),
		"deflate-raw":  compress(t, func(w *bytes.Buffer) writeCloser { fw, _ := flate.NewWriter(w, 5); return fw }, page),
		"br":           compress(t, func(w *bytes.Buffer) writeCloser { return brotli.NewWriter(w) }, page),
		"gzip-broken":  compress(t, func(w *bytes.Buffer) writeCloser { return gzip.NewWriter(w) }, page)[:60],
		"gzip-garbage": []byte("this is not gzip at all"),
	}
	var acceptSeen atomic.Value
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		acceptSeen.Store(r.Header.Get("Accept-Encoding"))
		name := strings.TrimPrefix(r.URL.Path, "/")
		coding, _, _ := strings.Cut(name, "-")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", coding)
		w.Write(encoded[name])
	}))
	o := testOptions()
	o.IgnoreRobots = true
	c := newCapturer(t, o)
	for _, name := range []string{"gzip", "deflate", "deflate-raw", "br"} {
		rec := captureURL(t, c, srv.URL+"/"+name)
		if rec.Error != nil || rec.Body != string(page) || rec.BodyBytes != int64(len(page)) {
			t.Errorf("%s: error %v, body %d bytes (want %d)", name, rec.Error, len(rec.Body), len(page))
		}
	}
	if got := acceptSeen.Load(); got != "gzip, deflate, br" {
		t.Errorf("Accept-Encoding sent = %v", got)
	}
	for _, name := range []string{"gzip-broken", "gzip-garbage"} {
		rec := captureURL(t, c, srv.URL+"/"+name)
		if rec.Error == nil || rec.Error.Kind != ErrRead || !strings.Contains(rec.Error.Message, "gzip") {
			t.Errorf("%s: error = %+v, want a read error naming gzip", name, rec.Error)
		}
	}
}

type writeCloser interface {
	Write([]byte) (int, error)
	Close() error
}

func compress(t *testing.T, mk func(*bytes.Buffer) writeCloser, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := mk(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBinaryBodyOmitted(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(png)
	}))
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/pixel")
	wantOK(t, rec)
	if rec.Body != "" || rec.BodyOmitted != "binary content type image/png" || rec.BodyBytes != int64(len(png)) || rec.ContentType != "image/png" {
		t.Errorf("body %q omitted %q bytes %d type %q", rec.Body, rec.BodyOmitted, rec.BodyBytes, rec.ContentType)
	}
}

func TestSniffedHTMLWithoutContentType(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // stop net/http from sniffing it for us
		fmt.Fprint(w, "<!DOCTYPE html><html><body>sniffed</body></html>")
	}))
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/")
	wantOK(t, rec)
	if rec.ContentType != "text/html" || !strings.Contains(rec.Body, "sniffed") {
		t.Errorf("type %q body %q", rec.ContentType, rec.Body)
	}
	if _, ok := rec.Headers["content-type"]; ok {
		t.Errorf("headers %v claim a content-type the server never sent", rec.Headers)
	}
}

func TestHeadersKept(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html")
		h.Set("Content-Language", "de")
		h.Add("X-Robots-Tag", "noindex")
		h.Add("X-Robots-Tag", "nofollow")
		h.Set("Content-Security-Policy", strings.Repeat("a", 1500))
		h.Set("Set-Cookie", "secret=1")
		h.Set("X-Unrelated", "1")
		fmt.Fprint(w, "<p>x</p>")
	}))
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/")
	wantOK(t, rec)
	h := rec.Headers
	if h["content-language"] != "de" || h["x-robots-tag"] != "noindex, nofollow" || len(h["content-security-policy"]) != maxHeaderValue {
		t.Errorf("headers = %v", h)
	}
	if _, ok := h["set-cookie"]; ok {
		t.Errorf("set-cookie kept: %v", h)
	}
	if _, ok := h["x-unrelated"]; ok {
		t.Errorf("x-unrelated kept: %v", h)
	}
}

func TestTLSFailure(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	t.Cleanup(srv.Close)
	rec := captureURL(t, newCapturer(t, testOptions()), srv.URL+"/")
	wantError(t, rec, ErrTLS)
}

func TestDNSFailure(t *testing.T) {
	c := newCapturer(t, testOptions())
	c.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	rec := captureURL(t, c, "http://no-such-host.test/")
	wantError(t, rec, ErrDNS)
	if rec.Robots == nil || !rec.Robots.Allowed || rec.Robots.Status != 0 {
		t.Errorf("robots = %+v, want an unreachable robots.txt counted as allowing", rec.Robots)
	}
}
