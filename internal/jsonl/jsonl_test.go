package jsonl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/record"
)

// in builds an input record of kind "in" numbered n.
func in(n int) string { return fmt.Sprintf(`{"record":"in","n":%d}`, n) }

// outOf is what the test transform writes for in(n).
func outOf(n int) string { return fmt.Sprintf(`{"record":"out","n":%d}`, n) }

// convert is the test transform: in(n) → outOf(n).
func convert(_ context.Context, line []byte) ([]byte, error) {
	return []byte(outOf(int(gjson.GetBytes(line, "n").Int()))), nil
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func run(t *testing.T, input string, st Stage) (out []string, stderr string, res Result, err error) {
	t.Helper()
	var o, e bytes.Buffer
	res, err = Run(context.Background(), strings.NewReader(input), &o, &e, st)
	if o.Len() > 0 && !bytes.HasSuffix(o.Bytes(), []byte("\n")) {
		t.Errorf("output does not end in a newline: %q", o.String())
	}
	return lines(o.String()), e.String(), res, err
}

// errorRecord decodes an error record, failing the test if line is not one.
func errorRecord(t *testing.T, line string) record.Error {
	t.Helper()
	var e record.Error
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil || e.Record != record.KindError || e.SchemaVersion != record.SchemaVersion {
		t.Fatalf("not an error record (%v): %s", err, line)
	}
	return e
}

// mixedStream is an input of many kinds of line, with the output a stage
// named "test" accepting "in" must give for it, and the failure count.
func mixedStream(count int) (input string, want []string, failed int) {
	var b strings.Builder
	for i := 1; i <= count; i++ {
		switch {
		case i%50 == 0: // blank: no output, but it has a line number
			b.WriteString("  \t\n")
			continue
		case i%23 == 0:
			b.WriteString("{not json\n")
			want = append(want, fmt.Sprintf(`{"record":"error","schema_version":"1.0","stage":"test","line":%d,"error":"malformed JSON","input":"{not json"}`, i))
			failed++
			continue
		case i%11 == 0:
			s := fmt.Sprintf(`{"record":"other","n":%d, "x":"\u00e9"}`, i)
			b.WriteString(s + "\n")
			want = append(want, s)
			continue
		case i%13 == 0: // the transform fails these
			failed++
			want = append(want, fmt.Sprintf(`{"record":"error","schema_version":"1.0","stage":"test","line":%d,"error":"odd %d","input":"{\"record\":\"in\",\"n\":%d}"}`, i, i, i))
		default:
			want = append(want, outOf(i))
		}
		b.WriteString(in(i) + "\n")
	}
	return b.String(), want, failed
}

func TestRunOrder(t *testing.T) {
	const count = 300
	rng := rand.New(rand.NewSource(42))
	delays := make([]time.Duration, count+1)
	for i := range delays {
		delays[i] = time.Duration(rng.Intn(1500)) * time.Microsecond
	}
	input, want, failed := mixedStream(count)
	for _, conc := range []int{1, 2, 8} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			var running, maxRunning atomic.Int32
			st := Stage{
				Name:        "test",
				Accept:      []string{"in"},
				Concurrency: conc,
				Transform: func(ctx context.Context, line []byte) ([]byte, error) {
					now := running.Add(1)
					defer running.Add(-1)
					for {
						m := maxRunning.Load()
						if now <= m || maxRunning.CompareAndSwap(m, now) {
							break
						}
					}
					n := int(gjson.GetBytes(line, "n").Int())
					time.Sleep(delays[n])
					if n%13 == 0 {
						return nil, fmt.Errorf("odd %d", n)
					}
					return convert(ctx, line)
				},
			}
			out, stderr, res, err := run(t, input, st)
			if strings.Join(out, "\n") != strings.Join(want, "\n") {
				t.Fatalf("output differs: got %d lines, want %d\n%s", len(out), len(want), firstDiff(out, want))
			}
			if !errors.Is(err, ErrFailedLines) {
				t.Errorf("err = %v, want ErrFailedLines", err)
			}
			if res != (Result{Lines: len(want), Failed: failed}) {
				t.Errorf("res = %+v, want {%d %d}", res, len(want), failed)
			}
			if got := strings.Count(stderr, "\n"); got != failed {
				t.Errorf("%d stderr lines, want %d:\n%s", got, failed, stderr)
			}
			if !strings.HasPrefix(stderr, "sieve-test: line 13: odd 13\nsieve-test: line 23: malformed JSON\n") {
				t.Errorf("stderr not in input order:\n%s", stderr)
			}
			if m := int(maxRunning.Load()); m > conc || (conc > 1 && m < 2) {
				t.Errorf("at most %d transforms ran at once, Concurrency %d", m, conc)
			}
		})
	}
}

func firstDiff(got, want []string) string {
	for i := range want {
		if i >= len(got) {
			return fmt.Sprintf("line %d missing, want %s", i+1, want[i])
		}
		if got[i] != want[i] {
			return fmt.Sprintf("line %d:\ngot  %s\nwant %s", i+1, got[i], want[i])
		}
	}
	return fmt.Sprintf("extra line %s", got[len(want)])
}

func TestRunLongLines(t *testing.T) {
	// One record larger than any buffer, passed to the transform and
	// passed through; the 5 MB run also has a malformed giant, and runs
	// in parallel. (The race detector makes each byte scanned costly.)
	tests := []struct {
		size   int
		broken bool
		conc   []int
	}{
		{5 << 20, true, []int{1, 3}},
		{20 << 20, false, []int{2}},
	}
	for _, tt := range tests {
		blob := strings.Repeat("abcdefghij\\\"é", tt.size/14)
		accepted := `{"record":"in","blob":"` + blob + `"}`
		other := `{"record":"other","blob":"` + blob + `"}`
		input := accepted + "\n" + other + "\r\n"
		want := []string{accepted, other}
		if tt.broken {
			input += `{"record":"in","blob":"` + blob + "\n" // truncated: malformed
			want = append(want, "")
		}
		input += in(9) // no final newline
		want = append(want, in(9))
		for _, conc := range tt.conc {
			t.Run(fmt.Sprintf("%dMB/%d", tt.size>>20, conc), func(t *testing.T) {
				var saw atomic.Int64
				st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
					Transform: func(_ context.Context, line []byte) ([]byte, error) {
						saw.Add(int64(len(line)))
						return line, nil // identity: the line must come back intact
					}}
				var o bytes.Buffer
				res, err := Run(context.Background(), strings.NewReader(input), &o, nil, st)
				got := bytes.Split(bytes.TrimSuffix(o.Bytes(), []byte("\n")), []byte("\n"))
				if len(got) != len(want) {
					t.Fatalf("%d output lines, want %d", len(got), len(want))
				}
				for i, w := range want {
					if w != "" && string(got[i]) != w {
						t.Errorf("line %d not intact (%d bytes, want %d)", i+1, len(got[i]), len(w))
					}
				}
				if saw.Load() != int64(len(accepted)+len(in(9))) {
					t.Errorf("transform saw %d bytes", saw.Load())
				}
				if !tt.broken {
					if err != nil || res != (Result{Lines: 3}) {
						t.Errorf("res %+v err %v", res, err)
					}
					return
				}
				if !errors.Is(err, ErrFailedLines) || res != (Result{Lines: 4, Failed: 1}) {
					t.Errorf("res %+v err %v", res, err)
				}
				e := errorRecord(t, string(got[2]))
				if e.Line != 3 || len(e.Input) > 200 || !strings.HasPrefix(input[len(accepted)+len(other)+3:], e.Input) {
					t.Errorf("error record line %d input %q", e.Line, e.Input)
				}
			})
		}
	}
}

func TestRunMalformed(t *testing.T) {
	tests := []struct {
		name, line, msg string
	}{
		{"truncated object", `{"record":"in","n":1`, "malformed JSON"},
		{"bare text", `hello world`, "malformed JSON"},
		{"array", `[1,2]`, "not a JSON object"},
		{"JSON string", `"{\"record\":\"in\"}"`, "not a JSON object"},
		{"number", `42`, "not a JSON object"},
		{"null", `null`, "not a JSON object"},
		{"two objects", `{"record":"in"}{"record":"in"}`, "malformed JSON"},
		{"trailing garbage", `{"record":"in"} x`, "malformed JSON"},
		{"no record field", `{"n":1,"url":"https://example.test/"}`, `no "record" field: not a sieve record`},
		{"record nested", `{"a":{"record":"in"}}`, `no "record" field: not a sieve record`},
		{"record null", `{"record":null}`, `no "record" field: not a sieve record`},
		{"record empty", `{"record":""}`, `no "record" field: not a sieve record`},
		{"invalid UTF-8 text", "\xff\xfe{", "malformed JSON"},
	}
	for _, tt := range tests {
		for _, conc := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, conc), func(t *testing.T) {
				input := in(1) + "\n\n" + tt.line + "\n" + in(4) + "\n"
				st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert, Concurrency: conc}
				out, stderr, res, err := run(t, input, st)
				if len(out) != 3 || out[0] != outOf(1) || out[2] != outOf(4) {
					t.Fatalf("output: %q", out)
				}
				e := errorRecord(t, out[1])
				if e.Stage != "test" || e.Line != 3 || e.Error != tt.msg {
					t.Errorf("error record %+v", e)
				}
				if want := record.Excerpt([]byte(tt.line), 200); e.Input != want {
					t.Errorf("input %q, want %q", e.Input, want)
				}
				if wantURL := gjson.Get(tt.line, "url").String(); e.URL != wantURL {
					t.Errorf("url %q, want %q", e.URL, wantURL)
				}
				if stderr != "sieve-test: line 3: "+tt.msg+"\n" {
					t.Errorf("stderr %q", stderr)
				}
				if !errors.Is(err, ErrFailedLines) || res != (Result{Lines: 3, Failed: 1}) {
					t.Errorf("res %+v err %v", res, err)
				}
				if err != nil && err.Error() != "sieve-test: 1 of 3 lines failed: some input lines failed" {
					t.Errorf("error message %q", err)
				}
			})
		}
	}
}

func TestRunPassThrough(t *testing.T) {
	pass := []string{
		`{"record":"error","schema_version":"1.0","stage":"capture","line":4,"error":"x \u00e9 <b>","input":"é"}`,
		`{ "record" : "other" , "x":[1, 2 ],"y":{"z":"\ud83d\ude00"} }`,
		`{"n":1,"record":"capture"}`,
		`{"record":5}`,
	}
	st := Stage{Name: "test", Accept: []string{"in"},
		Transform: func(context.Context, []byte) ([]byte, error) {
			t.Error("transform called for a kind not accepted")
			return nil, errors.New("no")
		}}
	var input strings.Builder
	for _, p := range pass {
		input.WriteString("  " + p + " \r\n")
	}
	out, stderr, res, err := run(t, input.String(), st)
	if err != nil || stderr != "" || res != (Result{Lines: len(pass)}) {
		t.Errorf("err %v stderr %q res %+v", err, stderr, res)
	}
	if strings.Join(out, "\n") != strings.Join(pass, "\n") {
		t.Errorf("not passed through byte for byte:\n%s", firstDiff(out, pass))
	}
}

func TestRunPanic(t *testing.T) {
	for _, conc := range []int{1, 4} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
				Transform: func(ctx context.Context, line []byte) ([]byte, error) {
					if gjson.GetBytes(line, "n").Int() == 2 {
						var m map[string]int
						//lint:ignore SA5000 the panic is the point of the test
						m["boom"] = 1
					}
					return convert(ctx, line)
				}}
			out, stderr, res, err := run(t, in(1)+"\n"+in(2)+"\n"+in(3)+"\n", st)
			if len(out) != 3 || out[0] != outOf(1) || out[2] != outOf(3) {
				t.Fatalf("output %q", out)
			}
			e := errorRecord(t, out[1])
			if e.Line != 2 || !strings.HasPrefix(e.Error, "internal error: ") || !strings.Contains(e.Error, "nil map") {
				t.Errorf("error record %+v", e)
			}
			if !strings.HasPrefix(stderr, "sieve-test: line 2: internal error: ") {
				t.Errorf("stderr %q", stderr)
			}
			if !errors.Is(err, ErrFailedLines) || res != (Result{Lines: 3, Failed: 1}) {
				t.Errorf("res %+v err %v", res, err)
			}
		})
	}
}

func TestRunBadTransformOutput(t *testing.T) {
	outputs := map[int]string{1: "", 2: "{\"a\":1}\n{\"b\":2}", 3: `{"ok":true}`}
	st := Stage{Name: "test", Accept: []string{"in"},
		Transform: func(_ context.Context, line []byte) ([]byte, error) {
			return []byte(outputs[int(gjson.GetBytes(line, "n").Int())]), nil
		}}
	out, _, res, err := run(t, in(1)+"\n"+in(2)+"\n"+in(3)+"\n", st)
	if len(out) != 3 || out[2] != `{"ok":true}` {
		t.Fatalf("output %q", out)
	}
	for i := 0; i < 2; i++ {
		if e := errorRecord(t, out[i]); e.Line != i+1 || !strings.HasPrefix(e.Error, "internal error: ") {
			t.Errorf("line %d: %+v", i+1, e)
		}
	}
	if !errors.Is(err, ErrFailedLines) || res.Failed != 2 {
		t.Errorf("res %+v err %v", res, err)
	}
}

func TestRunRaw(t *testing.T) {
	input := "https://example.test/a\r\n\n   \nnot json {\n[1]\n" + `{"record":"x"}` + "\n\"s\"\r\n  /tmp/file.pdf  "
	var seen []string
	st := Stage{Name: "capture", Raw: true, Accept: []string{"never"},
		Transform: func(_ context.Context, line []byte) ([]byte, error) {
			seen = append(seen, string(line))
			if string(line) == "[1]" {
				return nil, errors.New("refused")
			}
			b, _ := json.Marshal(map[string]string{"record": "capture", "input": string(line)})
			return b, nil
		}}
	out, stderr, res, err := run(t, input, st)
	wantSeen := []string{"https://example.test/a", "not json {", "[1]", `{"record":"x"}`, `"s"`, "/tmp/file.pdf"}
	if strings.Join(seen, "|") != strings.Join(wantSeen, "|") {
		t.Errorf("transform saw %q, want %q", seen, wantSeen)
	}
	if len(out) != len(wantSeen) {
		t.Fatalf("output %q", out)
	}
	if e := errorRecord(t, out[2]); e.Line != 5 || e.Stage != "capture" || e.Input != "[1]" {
		t.Errorf("error record %+v", e)
	}
	if stderr != "sieve-capture: line 5: refused\n" || res != (Result{Lines: 6, Failed: 1}) || !errors.Is(err, ErrFailedLines) {
		t.Errorf("stderr %q res %+v err %v", stderr, res, err)
	}
}

func TestRunLineNumbers(t *testing.T) {
	// Physical line numbers: blank, whitespace-only and CRLF lines count.
	input := "\r\n" + in(1) + "\r\n \t \r\n\n" + "bad\r\n" + in(2) + "\r\n" + "worse"
	st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert}
	out, stderr, res, err := run(t, input, st)
	if len(out) != 4 || out[0] != outOf(1) || out[2] != outOf(2) {
		t.Fatalf("output %q", out)
	}
	if a, b := errorRecord(t, out[1]), errorRecord(t, out[3]); a.Line != 5 || b.Line != 7 || a.Input != "bad" || b.Input != "worse" {
		t.Errorf("error records %+v %+v", a, b)
	}
	if stderr != "sieve-test: line 5: malformed JSON\nsieve-test: line 7: malformed JSON\n" {
		t.Errorf("stderr %q", stderr)
	}
	if res != (Result{Lines: 4, Failed: 2}) || !errors.Is(err, ErrFailedLines) {
		t.Errorf("res %+v err %v", res, err)
	}
}

func TestRunLastLineWithoutNewline(t *testing.T) {
	for _, conc := range []int{1, 2} {
		st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert, Concurrency: conc}
		out, _, res, err := run(t, in(1)+"\n"+in(2), st)
		if err != nil || res != (Result{Lines: 2}) || strings.Join(out, ",") != outOf(1)+","+outOf(2) {
			t.Errorf("concurrency %d: out %q res %+v err %v", conc, out, res, err)
		}
	}
}

func TestRunBlankInput(t *testing.T) {
	for _, input := range []string{"", "\n", "\n\n\n", " \t \n\r\n   ", "\r\n\r\n"} {
		for _, conc := range []int{0, 1, 3} {
			st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
				Transform: func(context.Context, []byte) ([]byte, error) {
					t.Error("transform called")
					return nil, nil
				}}
			out, stderr, res, err := run(t, input, st)
			if len(out) != 0 || stderr != "" || res != (Result{}) || err != nil {
				t.Errorf("%q/%d: out %q stderr %q res %+v err %v", input, conc, out, stderr, res, err)
			}
		}
	}
}

// lineReader hands out one line per Read call and counts the lines read.
type lineReader struct {
	mu    sync.Mutex
	lines []string
	read  int
	err   error // returned after the last line (io.EOF when nil)
}

func newLineReader(n int) *lineReader {
	r := &lineReader{}
	for i := 1; i <= n; i++ {
		r.lines = append(r.lines, in(i)+"\n")
	}
	return r
}

func (r *lineReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.read == len(r.lines) {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	n := copy(p, r.lines[r.read])
	if n < len(r.lines[r.read]) {
		panic("line longer than the read buffer")
	}
	r.read++
	return n, nil
}

func (r *lineReader) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.read
}

// failWriter fails on the write after ok successful ones.
type failWriter struct {
	ok     int
	writes int
	buf    bytes.Buffer
}

var errDiskFull = errors.New("disk full")

func (w *failWriter) Write(p []byte) (int, error) {
	if w.writes == w.ok {
		return 0, errDiskFull
	}
	w.writes++
	return w.buf.Write(p)
}

func TestRunWriteError(t *testing.T) {
	for _, conc := range []int{1, 2, 8} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			r := newLineReader(5000)
			w := &failWriter{ok: 3}
			var calls atomic.Int32
			st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
				Transform: func(ctx context.Context, line []byte) ([]byte, error) {
					calls.Add(1)
					return convert(ctx, line)
				}}
			_, err := Run(context.Background(), r, w, io.Discard, st)
			if !errors.Is(err, errDiskFull) {
				t.Fatalf("err = %v, want %v", err, errDiskFull)
			}
			if got := w.buf.String(); got != outOf(1)+"\n"+outOf(2)+"\n"+outOf(3)+"\n" {
				t.Errorf("written before the failure: %q", got)
			}
			// Reading stops soon after the failure: no more than the
			// lines already in flight.
			if n := r.count(); n > 3*conc+8 {
				t.Errorf("read %d lines after the writer failed on line 4", n)
			}
			if c := int(calls.Load()); c > 3*conc+8 {
				t.Errorf("%d lines transformed after the writer failed on line 4", c)
			}
		})
	}
}

func TestRunReadError(t *testing.T) {
	errBroken := errors.New("broken pipe")
	for _, conc := range []int{1, 2, 8} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			r := newLineReader(3)
			r.err = errBroken
			st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert, Concurrency: conc}
			var o bytes.Buffer
			res, err := Run(context.Background(), r, &o, io.Discard, st)
			if !errors.Is(err, errBroken) {
				t.Errorf("err = %v, want %v", err, errBroken)
			}
			if o.String() != outOf(1)+"\n"+outOf(2)+"\n"+outOf(3)+"\n" || res != (Result{Lines: 3}) {
				t.Errorf("lines before the error: %q, res %+v", o.String(), res)
			}
		})
	}
}

func TestRunReadErrorWinsOverFailedLines(t *testing.T) {
	errBroken := errors.New("broken pipe")
	r := &lineReader{lines: []string{"bad\n", in(2) + "\n"}, err: errBroken}
	st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert}
	res, err := Run(context.Background(), r, io.Discard, io.Discard, st)
	if !errors.Is(err, errBroken) || res != (Result{Lines: 2, Failed: 1}) {
		t.Errorf("res %+v err %v", res, err)
	}
}

func TestRunBoundedReadAhead(t *testing.T) {
	for _, conc := range []int{2, 8} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			const total = 1000
			r := newLineReader(total)
			release := make(chan struct{})
			started := make(chan struct{}, total)
			st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
				Transform: func(ctx context.Context, line []byte) ([]byte, error) {
					started <- struct{}{}
					<-release
					return convert(ctx, line)
				}}
			var o bytes.Buffer
			done := make(chan error, 1)
			go func() {
				_, err := Run(context.Background(), r, &o, io.Discard, st)
				done <- err
			}()
			for i := 0; i < conc; i++ {
				<-started
			}
			time.Sleep(50 * time.Millisecond) // let the reader run ahead if it would
			if n := r.count(); n > 3*conc+1 {
				t.Errorf("read %d lines while %d transforms were blocked", n, conc)
			}
			close(release)
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			out := lines(o.String())
			if len(out) != total || out[0] != outOf(1) || out[total-1] != outOf(total) {
				t.Errorf("%d output lines", len(out))
			}
		})
	}
}

func TestRunSlowFirstLine(t *testing.T) {
	// While line 1 is slow, later lines finish and wait their turn; the
	// queue of finished lines stays bounded and order is kept.
	const conc, total = 4, 200
	r := newLineReader(total)
	release := make(chan struct{})
	var finished atomic.Int32
	st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
		Transform: func(ctx context.Context, line []byte) ([]byte, error) {
			if gjson.GetBytes(line, "n").Int() == 1 {
				<-release
			} else {
				finished.Add(1)
			}
			return convert(ctx, line)
		}}
	var o bytes.Buffer
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), r, &o, io.Discard, st)
		done <- err
	}()
	deadline := time.Now().Add(2 * time.Second)
	for finished.Load() < 2*conc && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(30 * time.Millisecond)
	if n := r.count(); n > 3*conc+2 {
		t.Errorf("read %d lines while line 1 was blocked", n)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := lines(o.String())
	for i, l := range out {
		if l != outOf(i+1) {
			t.Fatalf("line %d = %s", i+1, l)
		}
	}
	if len(out) != total {
		t.Errorf("%d lines", len(out))
	}
}

func TestRunCancel(t *testing.T) {
	for _, conc := range []int{1, 4} {
		t.Run(strconv.Itoa(conc), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := newLineReader(5000)
			st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
				Transform: func(ctx context.Context, line []byte) ([]byte, error) {
					if gjson.GetBytes(line, "n").Int() == 5 {
						cancel()
					}
					if err := ctx.Err(); err != nil {
						return nil, err
					}
					return convert(ctx, line)
				}}
			var o bytes.Buffer
			_, err := Run(ctx, r, &o, io.Discard, st)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			if n := r.count(); n > 5+3*conc+1 {
				t.Errorf("read %d lines after cancel at line 5", n)
			}
			out := lines(o.String())
			if len(out) < 4 || len(out) > r.count() {
				t.Fatalf("%d output lines for %d read", len(out), r.count())
			}
			// Lines in flight when ctx was cancelled may have failed.
			for i, l := range out {
				if l != outOf(i+1) && errorRecord(t, l).Line != i+1 {
					t.Errorf("line %d = %s", i+1, l)
				}
			}
			if conc == 1 && strings.Join(out[:4], ",") != strings.Join([]string{outOf(1), outOf(2), outOf(3), outOf(4)}, ",") {
				t.Errorf("serial: lines before the cancel failed: %q", out)
			}
		})
	}
}

func TestRunNilStderr(t *testing.T) {
	st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert}
	var o bytes.Buffer
	res, err := Run(context.Background(), strings.NewReader("bad\n"+in(2)), &o, nil, st)
	if !errors.Is(err, ErrFailedLines) || res != (Result{Lines: 2, Failed: 1}) {
		t.Errorf("res %+v err %v", res, err)
	}
}

func BenchmarkRunPassThrough(b *testing.B) {
	line := `{"record":"graph","schema_version":"1.0","blocks":[` + strings.Repeat(`{"text":"some words here"},`, 500) + `{}]}` + "\n"
	input := strings.Repeat(line, 100)
	st := Stage{Name: "bench", Accept: []string{"in"}, Transform: convert}
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		if _, err := Run(context.Background(), strings.NewReader(input), io.Discard, nil, st); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLineSplitter: whole lines however the writes split them, and a last
// line without its newline handed on by Flush with one.
func TestLineSplitter(t *testing.T) {
	var got []string
	w := &LineSplitter{Line: func(l []byte) error { got = append(got, string(l)); return nil }}
	for _, p := range []string{"a", "b\nc", "\n\nd\ne", "f"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"ab\n", "c\n", "\n", "d\n", "ef\n"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
}
