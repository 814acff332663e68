package sample

import (
	"net/http"
	"path"
	"strconv"
	"sync/atomic"
	"time"
)

// route serves one embedded file with a fixed status and extra headers.
type route struct {
	pattern string
	file    string // under site/
	status  int
	headers []string // name, value pairs
}

var routes = []route{
	{"/{$}", "index.html", http.StatusOK, nil},
	{"/article.html", "article.html", http.StatusOK, nil},
	{"/docs.html", "docs.html", http.StatusOK, nil},
	{"/hidden.html", "hidden.html", http.StatusOK, nil},
	{"/login", "login.html", http.StatusOK, nil},
	{"/app", "app.html", http.StatusOK, nil},
	{"/empty.html", "empty.html", http.StatusOK, nil},
	{"/private/report.html", "private/report.html", http.StatusOK, nil},
	{"/robots.txt", "robots.txt", http.StatusOK, nil},
	{"/text.txt", "text.txt", http.StatusOK, nil},
	{"/static/site.css", "static/site.css", http.StatusOK, nil},
	{"/static/app.js", "static/app.js", http.StatusOK, nil},
	{"/static/runtime.js", "static/runtime.js", http.StatusOK, nil},
	{"/forbidden", "forbidden.html", http.StatusForbidden, []string{"Server", "gatekeeper-proxy/2.4"}},
	{"/members", "members.html", http.StatusUnauthorized, []string{"WWW-Authenticate", `Basic realm="members"`}},
	{"/challenge", "challenge.html", http.StatusServiceUnavailable, []string{
		"cf-mitigated", "challenge",
		"Cache-Control", "private, max-age=0, no-store, no-cache, must-revalidate",
	}},
}

var redirects = []struct{ from, to string }{
	{"/account", "/login?next=/account"},
	{"/loop", "/loop2"},
	{"/loop2", "/loop"},
}

var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
}

// Handler returns the site. Each Handler has its own state: /ratelimited
// answers 429 to the first request a Handler sees and 200 after.
func Handler() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range routes {
		mux.Handle(rt.pattern, rt)
	}
	for _, rd := range redirects {
		mux.Handle(rd.from, http.RedirectHandler(rd.to, http.StatusFound))
	}
	mux.HandleFunc("/cdn-cgi/challenge-platform/", emptyScript)
	mux.HandleFunc("/latin1.html", latin1)
	mux.HandleFunc("/gzip.html", gzipped)
	mux.HandleFunc("/big.html", big)
	mux.HandleFunc("/image.png", picture)
	mux.HandleFunc("/slow", slow)
	mux.Handle("/ratelimited", &rateLimited{})
	mux.Handle("/", route{file: "notfound.html", status: http.StatusNotFound})
	return mux
}

func (rt route) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := site.ReadFile("site/" + rt.file)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	for i := 0; i+1 < len(rt.headers); i += 2 {
		w.Header().Set(rt.headers[i], rt.headers[i+1])
	}
	write(w, rt.status, contentTypes[path.Ext(rt.file)], b)
}

// write sends a complete response with its length.
func write(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write(body) //nolint:errcheck // the client went away
}

// emptyScript stands in for a challenge vendor's script.
func emptyScript(w http.ResponseWriter, _ *http.Request) {
	write(w, http.StatusOK, "application/javascript", nil)
}

func latin1(w http.ResponseWriter, _ *http.Request) {
	b, err := latin1Page()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, http.StatusOK, "text/html; charset=windows-1252", b)
}

func gzipped(w http.ResponseWriter, _ *http.Request) {
	b, err := gzipPage()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Set("Vary", "Accept-Encoding")
	write(w, http.StatusOK, contentTypes[".html"], b)
}

func big(w http.ResponseWriter, _ *http.Request) {
	write(w, http.StatusOK, contentTypes[".html"], bigPage())
}

func picture(w http.ResponseWriter, _ *http.Request) {
	b, err := pngImage()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, http.StatusOK, "image/png", b)
}

// slow answers after SlowDelay, or not at all when the request is
// cancelled first (the client timed out or the server shut down).
func slow(w http.ResponseWriter, r *http.Request) {
	t := time.NewTimer(SlowDelay)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		return
	case <-t.C:
	}
	write(w, http.StatusOK, contentTypes[".txt"], []byte("Sorry for the wait.\n"))
}

// rateLimited answers 429 with Retry-After: 1 to its first request, and the
// page to every later one.
type rateLimited struct{ seen atomic.Bool }

func (rl *rateLimited) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	if !rl.seen.Swap(true) {
		w.Header().Set("Retry-After", "1")
		write(w, http.StatusTooManyRequests, contentTypes[".txt"], []byte("Too many requests: the packing shed is busy. Try again in a second.\n"))
		return
	}
	write(w, http.StatusOK, contentTypes[".html"], []byte(ratePage))
}

const ratePage = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>The shed is open</title></head>
<body><main><h1>The shed is open</h1><p>Thank you for waiting. Baskets are being weighed again.</p></main></body>
</html>
`
