package capture

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"sort"
	"strings"
	"sync"
	"time"
)

// policyProxy is the browser's only way out. Chromium is started with it as
// its proxy for every scheme, loopback included ("<-loopback>"), and with its
// own name resolution switched off, so each request the browser makes — a
// navigation and each redirect hop, subresources, frames, workers, service
// workers, WebSockets, prefetches, popups — arrives here as a CONNECT tunnel
// or an absolute-form HTTP request, and is dialled with the static tier's
// dialer: resolved here, checked against the address policy, connected to
// the checked address.
//
// Each page read gets a proxy of its own (in its own browser context), so
// what it refused is that page's alone.
type policyProxy struct {
	ln    net.Listener
	srv   *http.Server
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	fwd   *httputil.ReverseProxy
	ctx   context.Context
	stop  context.CancelFunc
	mu    sync.Mutex
	deny  string // non-empty: every request is refused, for this reason (under mu: a spare's is set when a read takes it)
	log   []Refusal
	seen  map[Refusal]bool
	extra int               // refusals past maxLogged, counted only
	conns map[net.Conn]bool // open tunnels, closed with the proxy
}

// refusedHeader marks the proxy's answer to a refused plain-HTTP request,
// so the page's network events can name the resource type.
const refusedHeader = "X-Sieve-Refused"

// startProxy listens on a fresh loopback port. dial is the policy dialer;
// a non-empty deny refuses everything (a local file's read, the browser's
// default context).
func startProxy(dial func(ctx context.Context, network, addr string) (net.Conn, error), deny string) (*policyProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	p := &policyProxy{ln: ln, dial: dial, deny: deny, ctx: ctx, stop: stop, conns: map[net.Conn]bool{}}
	tr := &http.Transport{
		DialContext:           p.dialChecked,
		DisableCompression:    true, // the browser asked for its encodings; pass them through
		ForceAttemptHTTP2:     false,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       10 * time.Second,
		ResponseHeaderTimeout: time.Minute,
	}
	p.fwd = &httputil.ReverseProxy{
		Rewrite:      func(r *httputil.ProxyRequest) { r.Out.URL = r.In.URL; r.Out.Host = r.In.Host },
		Transport:    tr,
		ErrorHandler: p.forwardError,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	go p.srv.Serve(ln)
	return p, nil
}

// setDeny sets the proxy's policy for the read that takes it: a non-empty
// reason refuses everything.
func (p *policyProxy) setDeny(reason string) {
	p.mu.Lock()
	p.deny = reason
	p.mu.Unlock()
}

// Addr is the proxy's host:port.
func (p *policyProxy) Addr() string { return p.ln.Addr().String() }

// Close stops the proxy and cuts every tunnel.
func (p *policyProxy) Close() {
	p.stop()
	p.srv.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	if tr, ok := p.fwd.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
}

// Refused returns what was refused so far, sorted and without repeats.
func (p *policyProxy) Refused() []Refusal {
	p.mu.Lock()
	defer p.mu.Unlock()
	return sortRefusals(p.log)
}

func (p *policyProxy) refuse(url, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := Refusal{URL: url, ResourceType: "Other", Reason: reason}
	if p.seen[r] {
		return
	}
	if len(p.log) >= maxLogged {
		p.extra++
		return
	}
	if p.seen == nil {
		p.seen = map[Refusal]bool{}
	}
	p.seen[r] = true
	p.log = append(p.log, r)
}

// Unlisted counts the distinct refusals past maxLogged.
func (p *policyProxy) Unlisted() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.extra
}

// dialChecked dials through the policy, or refuses everything.
func (p *policyProxy) dialChecked(ctx context.Context, network, addr string) (net.Conn, error) {
	p.mu.Lock()
	deny := p.deny
	p.mu.Unlock()
	if deny != "" {
		return nil, &refusedError{deny}
	}
	conn, err := p.dial(ctx, network, addr)
	var de *deniedError
	if errors.As(err, &de) {
		return nil, &refusedError{de.Error()}
	}
	return conn, err
}

// refusedError is a dial the policy refused (not a network failure).
type refusedError struct{ reason string }

func (e *refusedError) Error() string { return e.reason }

func (p *policyProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		p.tunnel(w, r)
	case r.URL.IsAbs() && r.URL.Scheme == "http":
		p.fwd.ServeHTTP(w, r)
	default:
		p.refuse(r.URL.String(), "not a proxy request: "+r.Method+" "+r.URL.Scheme)
		http.Error(w, "sieve's browser proxy forwards http and CONNECT only", http.StatusForbidden)
	}
}

func (p *policyProxy) forwardError(w http.ResponseWriter, r *http.Request, err error) {
	var re *refusedError
	if errors.As(err, &re) {
		p.refuse(r.URL.String(), re.reason)
		w.Header().Set(refusedHeader, "1")
		http.Error(w, "refused by sieve's address policy: "+re.reason, http.StatusForbidden)
		return
	}
	http.Error(w, "sieve's browser proxy: "+err.Error(), http.StatusBadGateway)
}

// tunnel answers CONNECT host:port (https, wss, and ws through a proxy).
func (p *policyProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	up, err := p.dialChecked(ctx, "tcp", r.Host)
	cancel()
	if err != nil {
		var re *refusedError
		if errors.As(err, &re) {
			p.refuse(r.Host, re.reason)
			http.Error(w, "refused by sieve's address policy: "+re.reason, http.StatusForbidden)
			return
		}
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no hijacking", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !p.track(up, down) {
		return
	}
	_, _ = down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	// buf.Reader may hold bytes the client sent past the CONNECT head
	go pipe(up, buf.Reader, p.untrack(up, down))
	go pipe(down, up, p.untrack(up, down))
}

// track registers a tunnel's two ends; false (both closed) once the proxy
// is closed.
func (p *policyProxy) track(a, b net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		a.Close()
		b.Close()
		return false
	}
	p.conns[a], p.conns[b] = true, true
	return true
}

func (p *policyProxy) untrack(a, b net.Conn) func() {
	return func() {
		a.Close()
		b.Close()
		p.mu.Lock()
		delete(p.conns, a)
		delete(p.conns, b)
		p.mu.Unlock()
	}
}

func pipe(dst net.Conn, src io.Reader, done func()) {
	_, _ = io.Copy(dst, src)
	done()
}

func sortRefusals(in []Refusal) []Refusal {
	out := make([]Refusal, 0, len(in))
	seen := map[Refusal]bool{}
	for _, r := range in {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.TopLevel != b.TopLevel {
			return a.TopLevel
		}
		if a.URL != b.URL {
			return a.URL < b.URL
		}
		if a.ResourceType != b.ResourceType {
			return a.ResourceType < b.ResourceType
		}
		return a.Reason < b.Reason
	})
	return out
}

// hostPort is url's host:port as a CONNECT names it (default ports filled in).
func hostPort(scheme, host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	switch strings.ToLower(scheme) {
	case "https", "wss":
		return net.JoinHostPort(strings.Trim(host, "[]"), "443")
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), "80")
}
