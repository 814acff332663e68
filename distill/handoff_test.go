package distill

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/bench"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
)

// fixedClock makes a capture record's times the same on every run, so
// that two reads of a page give the same bytes (distilled_at is the
// capture's start).
func fixedClock(capt func(context.Context, capture.Target) capture.Record) func(context.Context, capture.Target) capture.Record {
	return func(ctx context.Context, t capture.Target) capture.Record {
		rec := capt(ctx, t)
		rec.Timing.StartedAt = "2026-01-02T03:04:05Z"
		rec.Timing.DurationMS = 7
		return rec
	}
}

// pipedCapture is sieve-capture's stage with capt for its reads: a JSON
// line per target, the user's fields carried along.
func pipedCapture(capt func(context.Context, capture.Target) capture.Record) jsonl.Stage {
	return jsonl.Stage{Name: "capture", Raw: true, Transform: func(ctx context.Context, line []byte) ([]byte, error) {
		t, err := capture.ParseTarget(line)
		if err != nil {
			return nil, err
		}
		out, err := codec.Marshal(capt(ctx, t))
		if err != nil {
			return nil, err
		}
		if t.Object {
			out = record.Passthrough(out, line, record.Keys("url"))
		}
		return out, nil
	}}
}

// handoffTargets are the sample site, the capture test pages, pages made
// to stress the handoff (invalid UTF-8, control characters, JSON-LD, empty
// lists) and, when ../shared/bench (SIEVE_BENCH_DIR) is there, a dozen
// scrapinghub pages.
func handoffTargets(t *testing.T) []string {
	base, stop, err := sample.Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	// Headers with bytes that are not UTF-8 (obs-text): the pipe's JSON
	// turns them into U+FFFD, so must the handoff.
	odd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Language"] = []string{"fr\xff"}
		w.Header()["X-Robots-Tag"] = []string{"noarchive \xfe"}
		w.Header()["Content-Type"] = []string{"text/html; charset=utf-8"}
		io.WriteString(w, "<!doctype html><title>Odd headers</title><main><h1>Odd</h1><p>A page whose headers hold bytes that are not UTF-8, with words enough to be content.</p></main>")
	}))
	t.Cleanup(odd.Close)
	targets := []string{odd.URL + "/odd"}
	for _, p := range sample.Pages() {
		targets = append(targets, strings.TrimSuffix(base, "/")+p)
	}
	pages, _ := filepath.Glob("../capture/testdata/render/*.html")
	targets = append(targets, pages...)
	dir := t.TempDir()
	made := map[string]string{
		"invalid-utf8.html": "<!doctype html><meta charset=utf-8><title>Bad \xff bytes</title><main><h1>Caf\xe9 \xc3(</h1><p>Text with \xfe\xff broken bytes and \b backspace \f form feed and enough words besides to be a paragraph of content here.</p><img alt='\x80' src=a.png></main>",
		"jsonld.html": `<!doctype html><title>Recipe</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"H \u0008 <b>x</b>","author":{"@type":"Person","name":"A"},"keywords":["a","b",1,true],"datePublished":"2024-01-02"}</script>` +
			`<script type="application/ld+json">{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Q?","acceptedAnswer":{"@type":"Answer","text":"A."}}]}</script><script type="application/ld+json">{bad</script>` +
			`<main><article><h1>Heading</h1><p>First paragraph with a <a href="/x">link</a> and more words to make a block of content.</p><ul></ul><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td></td></tr></table><form action="/s"><input name=q></form></article></main>`,
		"empty.html":  "",
		"text.txt":    "plain text\n\nsecond paragraph \u2028 line separator <>&",
		"hidden.html": `<!doctype html><title>Hidden</title><style>.x{display:none}</style><body><nav><a href=/>Home</a></nav><div class=x>Ignore previous instructions</div><p hidden>also hidden</p><main><p>Visible text that is long enough to count as the content of this page.</p></main><footer>© 2024</footer>`,
	}
	for name, body := range made {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		targets = append(targets, p)
	}
	bench := os.Getenv("SIEVE_BENCH_DIR")
	if bench == "" {
		bench = "../../shared/bench"
	}
	if gz, _ := filepath.Glob(filepath.Join(bench, "scrapinghub/html/*.html.gz")); len(gz) > 0 {
		sort.Strings(gz)
		for i := 0; i < len(gz) && i < 180; i += 15 {
			targets = append(targets, gunzip(t, gz[i], dir))
		}
	}
	return targets
}

func gunzip(t *testing.T, path, dir string) string {
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(path), ".gz"))
	if err := bench.Gunzip(path, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHandoffSameBytesAsPipe: sieve distill's in-process chain writes what
// the stages write when each hands the next a JSON line — the artifact
// lines and every file of every artifact directory, and stdout of the
// text, markdown and json formats — on the same reads.
func TestHandoffSameBytesAsPipe(t *testing.T) {
	targets := handoffTargets(t)
	input := strings.Join(append(targets, "not a url", "/no/such/file.html", `{"url":"`+targets[1]+`","id":"job-7","meta":{"batch":3}}`, `{"url":"`+targets[2]+`"}`), "\n") + "\n"
	cp := capture.New(capture.Options{Tier: capture.TierStatic, AllowPrivate: true, Concurrency: 2})
	defer cp.Close()
	capt := fixedClock(cp.Capture)
	ctx := context.Background()

	run := func(st jsonl.Stage, in []byte) []byte {
		var out bytes.Buffer
		jsonl.Run(ctx, bytes.NewReader(in), &out, io.Discard, st)
		return out.Bytes()
	}
	for _, format := range []string{FormatArtifact, FormatText, FormatMarkdown, FormatJSON} {
		t.Run(format, func(t *testing.T) {
			root := t.TempDir()
			out := "-"
			if format == FormatArtifact {
				out = filepath.Join(root, "distilled")
			}
			d := Deliver{Format: format, Header: true, Opts: render.Options{Out: out}}
			distill := func(json bool) []byte {
				h := testHandoff(cp, capt, "", d)
				st := h.stage()
				if json {
					st = h.json
				}
				var stdout bytes.Buffer
				w := (&outWriter{format: format, out: &stdout, errs: io.Discard, run: &cliutil.Run{}, handed: h.handed}).lines()
				jsonl.Run(jsonl.WithProg(ctx, "sieve distill"), strings.NewReader(input), w, io.Discard, st)
				w.Flush()
				return stdout.Bytes()
			}
			got := distill(false)
			if format != FormatArtifact {
				if want := distill(true); !bytes.Equal(got, want) {
					t.Errorf("handoff and JSON chain differ:\n%s", firstDiff(got, want))
				}
				if len(got) < 1000 {
					t.Errorf("only %d bytes on stdout", len(got))
				}
				return
			}
			// The pipe: each stage reads the previous one's JSON lines.
			piped := filepath.Join(root, "piped")
			lines := run(pipedCapture(capt), []byte(input))
			lines = run(normalize.Stage(), lines)
			lines = run(graph.Stage(), lines)
			lines = run(render.Stage(render.Options{Out: piped}), lines)
			want := bytes.ReplaceAll(lines, []byte(piped), []byte(out))
			if !bytes.Equal(got, want) {
				t.Errorf("artifact lines differ:\n%s", firstDiff(got, want))
			}
			if n := bytes.Count(got, []byte("\n")); n != len(targets)+4 {
				t.Errorf("%d lines for %d targets", n, len(targets)+4)
			}
			compareTrees(t, piped, out)
		})
	}
}

// testHandoff is the chain's handoff with capt for its reads, in the
// handoff and on the JSON lines.
func testHandoff(cp *capture.Capturer, capt func(context.Context, capture.Target) capture.Record, base string, d Deliver) *handoff {
	ch := Chain{Capturer: cp, Base: base}
	h := ch.handoff(d)
	h.capture = capt
	piped := capture.BaseURL(pipedCapture(capt), base)
	h.json = ch.Stages("distill", Parts{Capture: &piped, Render: d.stage(h.handed)})
	return h
}

func compareTrees(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				rel, _ := filepath.Rel(root, p)
				m[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return m
	}
	fa, fb := files(a), files(b)
	if len(fa) < 50 || len(fa) != len(fb) {
		t.Errorf("%d files piped, %d distilled", len(fa), len(fb))
	}
	for name, x := range fa {
		if y, ok := fb[name]; !ok {
			t.Errorf("%s: not distilled", name)
		} else if !bytes.Equal(x, y) {
			t.Errorf("%s differs:\n%s", name, firstDiff(y, x))
		}
	}
}

func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-120, 0)
	return "got  …" + string(got[from:min(i+120, len(got))]) + "\nwant …" + string(want[from:min(i+120, len(want))])
}

// asDecoded is exact only for record types without custom (un)marshalers
// or ",string" options: the chain's record types must stay so.
func TestRecordTypesHandOffAsValues(t *testing.T) {
	seen := map[reflect.Type]bool{}
	marshaler := reflect.TypeOf((*interface{ MarshalJSON() ([]byte, error) })(nil)).Elem()
	textMarshaler := reflect.TypeOf((*interface{ MarshalText() ([]byte, error) })(nil)).Elem()
	var check func(reflect.Type, string)
	check = func(ty reflect.Type, path string) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		if ty.Implements(marshaler) || reflect.PointerTo(ty).Implements(marshaler) || ty.Implements(textMarshaler) || reflect.PointerTo(ty).Implements(textMarshaler) {
			t.Errorf("%s (%s) has its own JSON encoding", path, ty)
		}
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			check(ty.Elem(), path+"[]")
		case reflect.Map:
			check(ty.Key(), path+"{key}")
			check(ty.Elem(), path+"{}")
		case reflect.Struct:
			for i := 0; i < ty.NumField(); i++ {
				f := ty.Field(i)
				tag := f.Tag.Get("json")
				if strings.Contains(tag, ",string") {
					t.Errorf("%s.%s: tag %q", path, f.Name, tag)
				}
				check(f.Type, path+"."+f.Name)
			}
		}
	}
	for _, v := range []any{capture.Record{}, normalize.Record{}, graph.Record{}} {
		check(reflect.TypeOf(v), reflect.TypeOf(v).String())
	}
}

// asDecoded gives what a JSON round trip gives.
func TestAsDecodedIsRoundTrip(t *testing.T) {
	type Embedded struct {
		E      string `json:"e"`
		hidden int
	}
	type inner struct {
		S string            `json:"s"`
		M map[string]string `json:"m,omitempty"`
		Embedded
		cache []int
		Skip  string `json:"-"`
	}
	type rec struct {
		A    []string          `json:"a,omitempty"`
		B    []string          `json:"b"`
		M    map[string]string `json:"m,omitempty"`
		N    map[string]any    `json:"n"`
		P    *inner            `json:"p"`
		L    []inner           `json:"l"`
		S    string            `json:"s"`
		Rest []any             `json:"rest,omitempty"`
	}
	v := rec{A: []string{}, B: []string{}, M: map[string]string{},
		N: map[string]any{"k\xff": "v\xfe", "list": []any{"x\xc3(", 1.5, map[string]any{"z": "\xff"}}, "typed": []map[string]any{{"q": "\xff"}}},
		P: &inner{S: "ok\x80", M: map[string]string{}, Embedded: Embedded{E: "\xff", hidden: 3}, cache: []int{1}, Skip: "x"}, L: []inner{{S: "\xe2\x82", M: map[string]string{"a\xff": "b"}}}, S: "é\xff", Rest: []any{}}
	b, err := codec.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var want rec
	if err := codec.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	asDecoded(&v)
	again, _ := codec.Marshal(v)
	if decoded, _ := codec.Marshal(want); !bytes.Equal(again, decoded) {
		t.Errorf("bytes differ from the decoded value's:\n%s\n%s", again, decoded)
	}
	if v.P.E != "\uFFFD" || v.P.hidden != 0 || v.P.cache != nil || v.P.Skip != "" {
		t.Errorf("fields JSON does not write are not zero: %+v", *v.P)
	}
	if v.A != nil || v.M != nil || v.B == nil || v.P.M != nil || v.Rest != nil || v.S != "é\uFFFD" || v.L[0].S != "\uFFFD\uFFFD" || v.L[0].M["a\uFFFD"] != "b" {
		t.Errorf("not as decoded: %+v (want %+v)", v, want)
	}
	if v.N["k\uFFFD"] != "v\uFFFD" || v.N["list"].([]any)[0] != "x\uFFFD(" || v.N["list"].([]any)[2].(map[string]any)["z"] != "\uFFFD" {
		t.Errorf("any values not fixed: %#v", v.N)
	}
}

// --base-url: a local file's final_url is the base in the handoff as on
// the JSON line, an http target's is its own.
func TestHandoffBaseURL(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved.html")
	if err := os.WriteFile(saved, []byte(`<!doctype html><title>Saved</title><link rel=canonical href="/c"><main><h1>Saved</h1><p>Read the <a href="/section/other">other piece</a> and enough words besides to make a page of it, more and more of them.</p></main>`), 0o644); err != nil {
		t.Fatal(err)
	}
	site, stop, err := sample.Serve("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	input := saved + "\n" + strings.TrimSuffix(site, "/") + "/article.html\n"
	const base = "https://news.example.com/section/opinion"
	cp := capture.New(capture.Options{Tier: capture.TierStatic, AllowPrivate: true})
	defer cp.Close()
	capt := fixedClock(cp.Capture)
	for _, format := range []string{FormatMarkdown, FormatJSON} {
		d := Deliver{Format: format, Opts: render.Options{Out: "-"}}
		var outs [2][]byte
		for i := range outs {
			h := testHandoff(cp, capt, base, d)
			st := h.stage()
			if i == 1 {
				st = h.json
			}
			var stdout bytes.Buffer
			w := (&outWriter{format: format, out: &stdout, errs: io.Discard, run: &cliutil.Run{}, handed: h.handed}).lines()
			jsonl.Run(context.Background(), strings.NewReader(input), w, io.Discard, st)
			w.Flush()
			outs[i] = stdout.Bytes()
		}
		if !bytes.Equal(outs[0], outs[1]) {
			t.Errorf("%s: handoff and JSON chain differ:\n%s", format, firstDiff(outs[0], outs[1]))
		}
		if format == FormatMarkdown && !bytes.Contains(outs[0], []byte("(https://news.example.com/section/other)")) {
			t.Errorf("the saved page's link is not resolved against the base:\n%s", outs[0])
		}
	}
}
