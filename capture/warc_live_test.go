package capture_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
	"github.com/sieve-dev/sieve/internal/warctest"
	"github.com/sieve-dev/sieve/normalize"
)

// site is a small web site whose pages take every path of capture's body
// handling: a charset in the header, one only in the document, a gzip
// Content-Encoding, a chunked transfer coding, a PDF, and a picture.
func site(t *testing.T) *httptest.Server {
	t.Helper()
	pdf, _, err := pdftest.Sample()
	if err != nil {
		t.Fatal(err)
	}
	big := "<!doctype html><title>Big</title>" + strings.Repeat("<p>A paragraph long enough to be sent in chunks.</p>\n", 200)
	mux := http.NewServeMux()
	page := func(path, ctype string, body []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.Write(body)
		})
	}
	page("/index.html", "text/html; charset=utf-8", []byte(`<!doctype html><title>Index</title><h1>Index</h1>
<p>See <a href="latin.html">latin</a>, <a href="meta.html">meta</a>, <a href="gz.html">gz</a>,
<a href="big.html">big</a>, <a href="doc.pdf">the PDF</a>. <img src="pixel.png" alt="a pixel"></p>`))
	page("/latin.html", "text/html; charset=windows-1252", []byte("<!doctype html><title>Latin</title><p>Caf\xe9, na\xefve, \x93quoted\x94.</p>"))
	page("/meta.html", "text/html", []byte("<!doctype html><meta charset=iso-8859-1><title>Meta</title><p>Gr\xfc\xdfe aus K\xf6ln.</p>"))
	page("/big.html", "text/html; charset=utf-8", []byte(big)) // over the server's buffer: chunked
	page("/doc.pdf", "application/pdf", pdf)
	page("/pixel.png", "image/png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	mux.HandleFunc("/gz.html", func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte("<!doctype html><title>Gz</title><p>Sent compressed, whatever was asked.</p>"))
		zw.Close()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(b.Bytes())
	})
	srv := httptest.NewServer(mux) // 127.0.0.1
	t.Cleanup(srv.Close)
	return srv
}

func needWget(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("wget")
	if err == nil {
		return bin
	}
	msg := "WGET WARC TEST NOT RUN: wget is not installed (apt-get install wget)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func liveCapturer(t *testing.T) *capture.Capturer {
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	o.AllowPrivate = true
	o.Timeout = 10 * time.Second
	cp := capture.New(o)
	t.Cleanup(cp.Close)
	return cp
}

// contentHash is a capture record's graph content_hash.
func contentHash(t *testing.T, rec capture.Record) string {
	t.Helper()
	n, err := normalize.Normalize(&rec)
	if err != nil {
		t.Fatalf("%s: normalize: %v", rec.URL, err)
	}
	return graph.Build(n).ContentHash
}

// warcPages reads a WARC file into its pages by URL.
func warcPages(t *testing.T, cp *capture.Capturer, path string) (map[string]capture.Record, capture.WARCStats) {
	t.Helper()
	got := map[string]capture.Record{}
	stats, err := cp.ReadWARC(context.Background(), path, func(p capture.WARCPage) error {
		if p.Err != nil {
			t.Errorf("record %d (%s): %v", p.No, p.URI, p.Err)
			return nil
		}
		got[p.Record.URL] = p.Record
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, stats
}

// sameRead checks that a page read from a WARC file is the page read live:
// the same body, charset, fingerprint and content_hash.
func sameRead(t *testing.T, live, archived capture.Record) {
	t.Helper()
	if live.Error != nil || archived.Error != nil {
		t.Fatalf("%s: live error %+v, archived error %+v", live.URL, live.Error, archived.Error)
	}
	if live.Body != archived.Body || live.Charset != archived.Charset || live.SourceFingerprint != archived.SourceFingerprint ||
		live.ContentType != archived.ContentType || live.Status != archived.Status || (live.PDF == nil) != (archived.PDF == nil) {
		t.Errorf("%s: the archived read differs:\n live     %s %s %+v %s\n archived %s %s %+v %s", live.URL,
			live.ContentType, live.SourceFingerprint, live.Charset, live.Body, archived.ContentType, archived.SourceFingerprint, archived.Charset, archived.Body)
	}
	if lh, ah := contentHash(t, live), contentHash(t, archived); lh != ah {
		t.Errorf("%s: content_hash live %s, from the WARC file %s", live.URL, lh, ah)
	}
}

// A site mirrored by `wget --warc-file` reads from the WARC file as it
// reads live: every page, the same content_hash.
func TestWARCFromWget(t *testing.T) {
	bin := needWget(t)
	srv := site(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "--no-verbose", "--recursive", "--level=1", "--no-parent", "-e", "robots=off",
		"--directory-prefix", filepath.Join(dir, "mirror"), "--warc-file", filepath.Join(dir, "site"), srv.URL+"/index.html")
	cmd.Env = append(os.Environ(), "no_proxy=*", "http_proxy=", "https_proxy=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wget: %v\n%s", err, out)
	}
	cp := liveCapturer(t)
	pages, stats := warcPages(t, cp, filepath.Join(dir, "site.warc.gz"))
	paths := []string{"/index.html", "/latin.html", "/meta.html", "/gz.html", "/big.html", "/doc.pdf"}
	if len(pages) != len(paths) || stats.Skipped["responses of other types"] != 1 {
		t.Errorf("pages %d, want %d; %s", len(pages), len(paths), stats)
	}
	for _, p := range paths {
		u := srv.URL + p
		archived, ok := pages[u]
		if !ok {
			t.Errorf("%s is not among the WARC file's pages", u)
			continue
		}
		tg, err := capture.ParseTarget([]byte(u))
		if err != nil {
			t.Fatal(err)
		}
		sameRead(t, cp.Capture(context.Background(), tg), archived)
	}
}

// The hand-made Common Crawl-style file: its page A, served live with the
// same headers and bytes, has the same content_hash.
func TestWARCHandMadeMatchesLive(t *testing.T) {
	body := []byte("<!doctype html><title>A</title><h1>Caf\xe9</h1><p>One <a href=\"/b\">link</a>.</p>")
	u := warctest.Site(t, "text/html; charset=windows-1252", body).URL + "/a"
	block := warctest.HTTPBlock(200, []string{"Content-Type: text/html; charset=windows-1252"}, body)
	file := warctest.File(true,
		warctest.Rec{Type: "warcinfo", Block: []byte("software: test\r\n")},
		warctest.Rec{Type: "response", URI: u, Block: block},
		warctest.Rec{Type: "revisit", URI: u, PayloadDigest: warctest.PayloadDigestOf(block),
			Fields: []string{"WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"}})
	path := filepath.Join(t.TempDir(), "a.warc.gz")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	cp := liveCapturer(t)
	var archived []capture.Record
	if _, err := cp.ReadWARC(context.Background(), path, func(p capture.WARCPage) error {
		if p.Err != nil {
			t.Fatal(p.Err)
		}
		archived = append(archived, p.Record)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(archived) != 2 {
		t.Fatalf("%d pages, want the response and its revisit", len(archived))
	}
	tg, _ := capture.ParseTarget([]byte(u))
	live := cp.Capture(context.Background(), tg)
	sameRead(t, live, archived[0])
	sameRead(t, live, archived[1])
}
