package capture

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
)

// runCommand runs sieve-capture in-process and returns stdout lines,
// stderr and the exit code.
func runCommand(t *testing.T, stdin string, args ...string) ([]string, string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := cliutil.App("sieve-capture", Command(), cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	code := cliutil.Code(&errOut, app.RunContext(context.Background(), append([]string{"sieve-capture"}, args...)))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		lines = nil
	}
	return lines, errOut.String(), code
}

// outLine holds what the tests read of an output line: a capture record or
// an error record, plus a passed-through id.
type outLine struct {
	Record string `json:"record"`
	URL    string `json:"url"`
	Tier   string `json:"tier"`
	Status int    `json:"status"`
	Body   string `json:"body"`
	Stage  string `json:"stage"`
	Line   int    `json:"line"`
	ID     *int   `json:"id"`
}

func decodeLine(t *testing.T, s string) outLine {
	t.Helper()
	var o outLine
	if err := codec.Unmarshal([]byte(s), &o); err != nil {
		t.Fatalf("output line is not JSON: %v: %s", err, s)
	}
	validateLine(t, o.Record, []byte(s))
	return o
}

func TestCommandStreamGoesOnAfterBadLines(t *testing.T) {
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>hello</p>")
	}))
	in := strings.Join([]string{
		srv.URL + "/one",
		`{"url": "` + srv.URL + `/two",`,
		"this is not a target",
		`{"id": 42, "url": "` + srv.URL + `/three"}`,
		"",
		"testdata/no-such-file.html",
		"testdata/page.html",
	}, "\n")
	lines, stderr, code := runCommand(t, in, "--allow-private", "--concurrency", "3")
	if len(lines) != 6 {
		t.Fatalf("%d output lines for 6 non-blank input lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	kinds := []string{"capture", "error", "error", "capture", "error", "capture"}
	for i, l := range lines {
		if o := decodeLine(t, l); o.Record != kinds[i] {
			t.Errorf("line %d: record %q, want %q: %s", i+1, o.Record, kinds[i], l)
		}
	}
	if o := decodeLine(t, lines[1]); o.Stage != "capture" || o.Line != 2 {
		t.Errorf("error record for malformed JSON: %s", lines[1])
	}
	third := decodeLine(t, lines[3])
	if third.ID == nil || *third.ID != 42 || third.URL != srv.URL+"/three" || third.Body != "<p>hello</p>" {
		t.Errorf("passthrough or capture wrong: %s", lines[3])
	}
	if !strings.HasSuffix(lines[3], `,"id":42}`) {
		t.Errorf("id not passed through after the record's own fields: %s", lines[3])
	}
	if local := decodeLine(t, lines[5]); !strings.HasPrefix(local.URL, "file:///") || local.Status != 0 || local.Tier != "static" {
		t.Errorf("local file record: %s", lines[5])
	}
	if code != cliutil.ExitFailed || !strings.Contains(stderr, "line 2") {
		t.Errorf("exit code %d (want %d), stderr %q", code, cliutil.ExitFailed, stderr)
	}
}

func TestCommandKeepsInputOrder(t *testing.T) {
	var g gauge
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.enter()
		defer g.leave()
		var ms int
		fmt.Sscan(r.URL.Query().Get("ms"), &ms)
		time.Sleep(time.Duration(ms) * time.Millisecond)
		fmt.Fprint(w, r.URL.RawQuery)
	}))
	delays := []int{250, 10, 150, 0, 200, 5, 100, 50}
	var in strings.Builder
	for _, ms := range delays {
		fmt.Fprintf(&in, "%s/?ms=%d\n", srv.URL, ms)
	}
	lines, stderr, code := runCommand(t, in.String(), "--allow-private", "--ignore-robots", "--concurrency", "4", "--per-host", "4")
	if code != cliutil.ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(lines) != len(delays) {
		t.Fatalf("%d lines for %d inputs", len(lines), len(delays))
	}
	for i, l := range lines {
		if o := decodeLine(t, l); o.URL != fmt.Sprintf("%s/?ms=%d", srv.URL, delays[i]) || o.Body != fmt.Sprintf("ms=%d", delays[i]) {
			t.Errorf("line %d is %s, want the capture of input line %d", i+1, o.URL, i+1)
		}
	}
	if most, _ := g.snapshot(); most < 2 || most > 4 {
		t.Errorf("%d captures ran at once, want 2 to 4 (--concurrency 4)", most)
	}
}

func TestCommandUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--concurrency", "0"},
		{"--per-host", "-1"},
		{"--max-bytes", "0"},
		{"--timeout", "0s"},
		{"--no-such-flag"},
		{"https://example.com/"},
	} {
		if _, _, code := runCommand(t, "", args...); code != cliutil.ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, cliutil.ExitUsage)
		}
	}
}

func TestLocalFiles(t *testing.T) {
	c := newCapturer(t, testOptions())
	rec := captureURL(t, c, "testdata/page.html")
	wantOK(t, rec)
	abs, _ := filepath.Abs("testdata/page.html")
	raw, _ := os.ReadFile("testdata/page.html")
	if rec.URL != "file://"+abs || rec.FinalURL != rec.URL || rec.Status != 0 || rec.Robots != nil || rec.Timing.Attempts != 0 {
		t.Errorf("url %q final %q status %d robots %+v", rec.URL, rec.FinalURL, rec.Status, rec.Robots)
	}
	if rec.ContentType != "text/html" || rec.Body != string(raw) || rec.Charset.Source != "utf8-valid" {
		t.Errorf("type %q charset %+v body %q", rec.ContentType, rec.Charset, rec.Body)
	}

	rec = captureURL(t, c, "testdata/pixel.png")
	wantOK(t, rec)
	if rec.ContentType != "image/png" || rec.Body != "" || rec.BodyOmitted == "" {
		t.Errorf("png: type %q omitted %q", rec.ContentType, rec.BodyOmitted)
	}

	rec = captureURL(t, c, "testdata") // a directory exists but cannot be read as a file
	wantError(t, rec, ErrFile)

	o := testOptions()
	o.MaxBytes = 20
	rec = captureURL(t, newCapturer(t, o), "testdata/page.html")
	if !rec.Truncated || rec.BodyBytes != 20 {
		t.Errorf("local file over the cap: truncated %v bytes %d", rec.Truncated, rec.BodyBytes)
	}
}
