// Package sample is the sieve sample site: a small web site about a
// fictional tea-growing cooperative, written for this project and embedded
// in the build. The tests serve it on 127.0.0.1 and `make demo` distills it.
//
// Each page shows one thing a web page can be: a long article with chrome
// around it, documentation with duplicate headings and a table, a page that
// hides text in every static way, a 403 block page, a login wall, a bot
// challenge, an unhydrated app shell, an empty page, a robots-disallowed
// page, a windows-1252 page, a gzip-encoded page, an oversized page, a
// redirect loop, an image, a slow page and a rate-limited one.
package sample

import (
	"context"
	"embed"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

//go:embed site
var site embed.FS

// HiddenMarkers are the unique words in the hidden texts of /hidden.html,
// one per way of hiding text. None appears in the page's visible text, so
// finding one in a rendering that must not carry hidden text is a leak.
var HiddenMarkers = []string{
	"LATENT-HIDDEN-ATTR",       // the hidden attribute
	"LATENT-DISPLAY-NONE",      // inline display:none
	"LATENT-VISIBILITY-HIDDEN", // inline visibility:hidden
	"LATENT-OPACITY-ZERO",      // inline opacity:0
	"LATENT-OFFSCREEN",         // position:absolute; left:-9999px
	"LATENT-CLIP-RECT",         // clip: rect(0 0 0 0)
	"LATENT-FONT-SIZE-ZERO",    // font-size:0
	"LATENT-SR-ONLY",           // the sr-only class
	"LATENT-STYLE-RULE",        // .promo-note { display: none } in a <style> block
	"LATENT-INJECTION",         // a prompt-injection-looking string, display:none
}

// Pages returns the paths `make demo` distills: the HTML pages and each
// page that stands in front of content.
func Pages() []string {
	return []string{
		"/",
		"/article.html",
		"/docs.html",
		"/hidden.html",
		"/gzip.html",
		"/latin1.html",
		"/forbidden",
		"/account",
		"/members",
		"/challenge",
		"/app",
		"/empty.html",
		"/private/report.html",
		"/text.txt",
	}
}

// SlowDelay is how long /slow waits when the request is not cancelled first.
const SlowDelay = 30 * time.Second

// CheckAddr refuses a listen address that is not on a loopback interface:
// the sample site carries pages built to trip crawlers and has no business
// on a network.
func CheckAddr(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("sample: listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("sample: listen address %q is not a loopback address; the sample site listens on 127.0.0.1 or ::1 only", addr)
}

// Serve starts the site on addr (default "127.0.0.1:0") and returns its
// base URL without a trailing slash ("http://127.0.0.1:PORT") and a function
// that stops it. Requests still waiting in /slow are cancelled by shutdown.
func Serve(addr string) (url string, shutdown func(), err error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := CheckAddr(addr); err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("sample: %w", err)
	}
	base, cancel := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler:           Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return base },
	}
	go srv.Serve(ln) //nolint:errcheck // ends with http.ErrServerClosed
	var once sync.Once
	shutdown = func() {
		once.Do(func() {
			cancel()
			ctx, done := context.WithTimeout(context.Background(), 5*time.Second)
			defer done()
			if srv.Shutdown(ctx) != nil {
				srv.Close()
			}
		})
	}
	return "http://" + ln.Addr().String(), shutdown, nil
}
