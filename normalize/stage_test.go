package normalize

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
)

func captureLine(t testing.TB, c *capture.Record) []byte {
	t.Helper()
	b, err := codec.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPlainText(t *testing.T) {
	c := htmlCapture("line one\r\n  <b>not markup</b>\n")
	c.ContentType = "text/plain"
	r, err := Normalize(c)
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, r)
	if len(r.Nodes) != 2 || r.Nodes[0].Tag != "pre" || r.Nodes[0].Path != "pre" || !r.Nodes[1].Pre ||
		r.Nodes[1].Text != "line one\n  <b>not markup</b>\n" {
		t.Errorf("nodes = %+v", r.Nodes)
	}
	if r.Stats.Elements != 1 || r.Stats.TextNodes != 1 {
		t.Errorf("stats = %+v", r.Stats)
	}
}

func TestContentTypes(t *testing.T) {
	tests := []struct {
		ct, body, omitted string
		err               string // substring; "" means no error
		nodes             bool
	}{
		{"text/html", "<p>x</p>", "", "", true},
		{"application/xhtml+xml", `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>`, "", "", true},
		{"", "<!doctype html><p>x</p>", "", "", true},
		{"application/octet-stream", "<html><p>x</p>", "", "", true},
		{"", "just words", "", "", true},
		{"application/json", `{"a":1}`, "", "unsupported content type application/json: sieve reads HTML, plain text and PDF", false},
		{"application/xml", `<a/>`, "", "unsupported content type application/xml", false},
		{"application/pdf", "", "binary content type", "unsupported content type application/pdf", false},
		{"image/png", "", "binary content type", "unsupported content type image/png", false},
		{"", "\x00\x01\x02binary", "", "unsupported content type (none)", false},
		{"text/html", "", "", "", false},
	}
	for _, tc := range tests {
		c := htmlCapture(tc.body)
		c.ContentType, c.BodyOmitted = tc.ct, tc.omitted
		r, err := Normalize(c)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s %q: err = %v, want %q", tc.ct, tc.body, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s %q: %v", tc.ct, tc.body, err)
		case (len(r.Nodes) > 0) != tc.nodes:
			t.Errorf("%s %q: %d nodes", tc.ct, tc.body, len(r.Nodes))
		}
	}
}

func TestFetchErrorGivesEmptyRecord(t *testing.T) {
	c := htmlCapture("")
	c.Status = 0
	c.ContentType = ""
	c.Error = &capture.Error{Kind: capture.ErrConnect, Message: "connection refused"}
	c.Redirects = nil
	line, err := Transform(t.Context(), captureLine(t, c))
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(line, "nodes").Raw; got != "[]" {
		t.Errorf("nodes = %s", got)
	}
	if got := gjson.GetBytes(line, "capture.error.kind").String(); got != "connect" {
		t.Errorf("capture.error.kind = %q", got)
	}
	if got := gjson.GetBytes(line, "capture.redirects").Raw; got != "[]" {
		t.Errorf("redirects = %s", got)
	}
	for _, k := range []string{"record", "schema_version", "url", "final_url", "normalizer_version"} {
		if !gjson.GetBytes(line, k).Exists() {
			t.Errorf("%s missing", k)
		}
	}
	if gjson.GetBytes(line, "record").String() != "normalized" || gjson.GetBytes(line, "capture.body").Exists() {
		t.Errorf("bad envelope: %s", line)
	}
}

func TestCaptureCarriedOver(t *testing.T) {
	c := htmlCapture("<p>x</p>")
	c.Redirects = []capture.Redirect{{URL: "http://example.test/", Status: 301}}
	c.Truncated = true
	c.Charset = capture.Charset{Name: "windows-1252", Source: "meta"}
	c.Timing = capture.Timing{StartedAt: "2024-01-01T00:00:00Z", DurationMS: 12, Attempts: 1}
	c.Robots = &capture.Robots{URL: "https://example.test/robots.txt", Status: 200, Allowed: true}
	r, err := Normalize(c)
	if err != nil {
		t.Fatal(err)
	}
	ci := r.Capture
	if ci.Status != 200 || len(ci.Redirects) != 1 || !ci.Truncated || ci.Charset.Name != "windows-1252" ||
		ci.Timing.DurationMS != 12 || ci.Robots == nil || ci.Tier != "static" || ci.BodyBytes != int64(len(c.Body)) {
		t.Errorf("capture info = %+v", ci)
	}
	if r.URL != testURL || r.FinalURL != testURL || r.NormalizerVersion == "" || r.Record != "normalized" || r.SchemaVersion != "1.0" {
		t.Errorf("envelope = %+v", r)
	}
}

func TestDeterministic(t *testing.T) {
	body := `<html><head><style>.a{display:none}</style><meta name=description content=d><meta property="og:x" content=y></head>` +
		`<body><p class=a id=x title=t lang=en dir=ltr>a</p><p style="opacity:0" class="b c" data-x=1 role=note>b</p></body></html>`
	line := captureLine(t, htmlCapture(body))
	first, err := Transform(t.Context(), line)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, err := Transform(t.Context(), line)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, again) {
			t.Fatalf("run %d differs:\n%s\n%s", i, first, again)
		}
	}
}

func TestPassthroughUnknownField(t *testing.T) {
	line := captureLine(t, htmlCapture("<p>x</p>"))
	line = append([]byte(`{"id":"job-7","meta":{"k":[1,2]},`), line[1:]...)
	out, err := Transform(t.Context(), line)
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(out, "id").Raw; got != `"job-7"` {
		t.Errorf("id = %s", got)
	}
	if got := gjson.GetBytes(out, "meta").Raw; got != `{"k":[1,2]}` {
		t.Errorf("meta = %s", got)
	}
	for _, k := range []string{"body", "body_bytes", "tier", "status", "timing", "trace"} {
		if gjson.GetBytes(out, k).Exists() {
			t.Errorf("capture key %q passed through", k)
		}
	}
}

func TestStagePassesOtherKinds(t *testing.T) {
	graph := `{"record":"graph","schema_version":"1.0","url":"u","x":1}`
	errRec := `{"record":"error","schema_version":"1.0","stage":"capture","line":1,"error":"boom"}`
	in := graph + "\n" + string(captureLine(t, htmlCapture("<p>hi</p>"))) + "\n" + errRec + "\nnot json\n"
	var out, stderr bytes.Buffer
	res, err := jsonl.Run(t.Context(), strings.NewReader(in), &out, &stderr, Stage())
	if !errors.Is(err, jsonl.ErrFailedLines) || res.Failed != 1 || res.Lines != 4 {
		t.Fatalf("res %+v err %v", res, err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != graph || lines[2] != errRec {
		t.Fatalf("output:\n%s", out.String())
	}
	if gjson.Get(lines[1], "record").String() != "normalized" || gjson.Get(lines[3], "record").String() != "error" {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestUnsupportedBecomesErrorRecord(t *testing.T) {
	c := htmlCapture(`{"a":1}`)
	c.ContentType = "application/json"
	var out, stderr bytes.Buffer
	_, err := jsonl.Run(t.Context(), bytes.NewReader(captureLine(t, c)), &out, &stderr, Stage())
	if !errors.Is(err, jsonl.ErrFailedLines) {
		t.Fatalf("err = %v", err)
	}
	if got := gjson.Get(out.String(), "error").String(); !strings.Contains(got, "unsupported content type application/json") {
		t.Errorf("error record: %s", out.String())
	}
	if gjson.Get(out.String(), "url").String() != testURL {
		t.Errorf("error record lacks url: %s", out.String())
	}
}

func TestCommand(t *testing.T) {
	run := func(args []string, stdin string) (int, string, string) {
		var out, errb bytes.Buffer
		app := cliutil.App("sieve-normalize", Command(), cliutil.IO{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
		code := cliutil.Code(app.ErrWriter, app.RunContext(t.Context(), args))
		return code, out.String(), errb.String()
	}
	code, out, _ := run([]string{"sieve-normalize"}, string(captureLine(t, htmlCapture("<p>x</p>")))+"\n")
	if code != cliutil.ExitOK || gjson.Get(out, "record").String() != "normalized" {
		t.Errorf("code %d out %s", code, out)
	}
	if code, _, stderr := run([]string{"sieve-normalize", "file.jsonl"}, ""); code != cliutil.ExitUsage || !strings.Contains(stderr, "no arguments") {
		t.Errorf("extra argument: code %d stderr %q", code, stderr)
	}
	if code, out, _ := run([]string{"sieve-normalize", "--help"}, ""); code != cliutil.ExitOK || !strings.Contains(out, "sieve-capture < urls.txt | sieve-normalize | sieve-graph") {
		t.Errorf("help: code %d out %q", code, out)
	}
	if code, _, _ := run([]string{"sieve-normalize"}, "{broken\n"); code != cliutil.ExitFailed {
		t.Errorf("malformed line: code %d", code)
	}
}
