package jsonl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// A line of a kind the stage does not handle is passed on when its shape
// is right (an object that starts with its kind and ends with '}'),
// without its value being read; a line whose shape is wrong is walked
// whole as before and fails when it is not a JSON object. The stage that
// handles the kind reads the whole line, and a malformed one fails there
// (issue 17).
func TestRunPassThroughShape(t *testing.T) {
	tests := []struct {
		name, line, msg string // msg "" means passed through as it came
	}{
		{"cut in a string", `{"record":"other","body":"<p>cut`, "malformed JSON"},
		{"cut after an array", `{"record":"other","n":[1,2]`, "malformed JSON"},
		{"cut after the kind", `{"record":"other"`, "malformed JSON"},
		{"kind not first, cut", `{"n":1,"record":"other","x":`, "malformed JSON"},
		{"trailing garbage", `{"record":"other"} x`, "malformed JSON"},
		{"array", `[{"record":"other"}]`, "not a JSON object"},
		{"escaped kind, cut", `{"record":"oth\u0065r","x":[}`, "malformed JSON"},
		{"bad kind", `{"record":"other" "x":1}`, "malformed JSON"},
		// The shape is right: passed on, checked by the stage that reads it.
		{"cut after a nested object", `{"record":"other","headers":{"a":"b"}`, ""},
		{"bad escape inside", `{"record":"other","body":"\q"}`, ""},
		{"trailing comma", `{"record":"other","n":1,}`, ""},
	}
	reads := Stage{Name: "reads", Accept: []string{"other"}, Concurrency: 2,
		Transform: func(_ context.Context, line []byte) ([]byte, error) { return []byte(`{"record":"read"}`), nil }}
	for _, tt := range tests {
		for _, conc := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, conc), func(t *testing.T) {
				input := in(1) + "\n" + tt.line + "\n" + in(3) + "\n"
				st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert, Concurrency: conc}
				out, stderr, res, err := run(t, input, st)
				if len(out) != 3 || out[0] != outOf(1) || out[2] != outOf(3) {
					t.Fatalf("output: %q", out)
				}
				if tt.msg != "" {
					if e := errorRecord(t, out[1]); e.Stage != "test" || e.Line != 2 || e.Error != tt.msg {
						t.Errorf("error record %+v, want %q", e, tt.msg)
					}
					if !errors.Is(err, ErrFailedLines) || res != (Result{Lines: 3, Failed: 1}) || stderr != "sieve-test: line 2: "+tt.msg+"\n" {
						t.Errorf("res %+v err %v stderr %q", res, err, stderr)
					}
					return
				}
				if out[1] != tt.line || err != nil || stderr != "" || res != (Result{Lines: 3}) {
					t.Fatalf("not passed through as it came: %q (res %+v err %v stderr %q)", out[1], res, err, stderr)
				}
				// The stage that handles the kind finds the line malformed.
				out, _, res, err = run(t, strings.Join(out, "\n")+"\n", reads)
				if e := errorRecord(t, out[1]); e.Stage != "reads" || e.Line != 2 || e.Error != "malformed JSON" {
					t.Errorf("in the reading stage: error record %+v", e)
				}
				if !errors.Is(err, ErrFailedLines) || res != (Result{Lines: 3, Failed: 1}) {
					t.Errorf("in the reading stage: res %+v err %v", res, err)
				}
			})
		}
	}
}

// The handled kind is still checked whole before the transform sees it,
// even when its shape is right.
func TestRunAcceptedKindCheckedWhole(t *testing.T) {
	st := Stage{Name: "test", Accept: []string{"in"}, Transform: func(context.Context, []byte) ([]byte, error) {
		t.Error("transform called on a malformed line")
		return nil, errors.New("no")
	}}
	out, _, res, _ := run(t, `{"record":"in","body":"\q"}`+"\n", st)
	if len(out) != 1 || errorRecord(t, out[0]).Error != "malformed JSON" || res.Failed != 1 {
		t.Errorf("output %q res %+v", out, res)
	}
}

// Lines passed through are written from the chunks they were read into,
// which are reused once written: a stream of 100 KB lines allocates a few
// chunks, not a line's worth per line (each line was allocated, copied,
// zeroed and collected before issue 17).
func TestPassThroughReusesLineBuffers(t *testing.T) {
	line := `{"record":"other","body":"` + strings.Repeat(`<p>x\"y\"</p>\n`, 7_000) + `"}` + "\n"
	const count = 200
	input := []byte(strings.Repeat(line, count))
	for _, conc := range []int{1, 4} {
		st := Stage{Name: "test", Accept: []string{"in"}, Concurrency: conc,
			Transform: func(context.Context, []byte) ([]byte, error) { panic("not called") }}
		got := passAllocs(t, input, st)
		t.Logf("concurrency %d: %.1f MiB allocated for %d lines of %d bytes", conc, float64(got)/(1<<20), count, len(line))
		// The read chunks in flight at once (the lines read ahead of the
		// writer lie in two or three), whatever the number of lines.
		if limit := uint64(6 * chunkSize); got > limit {
			t.Errorf("concurrency %d: passing %d lines of %d bytes allocated %d bytes, want ≤ %d", conc, count, len(line), got, limit)
		}
	}
}

// lineWriter records what Run hands it.
type lineWriter struct {
	bytes.Buffer
	lines []string
}

func (w *lineWriter) WriteLine(p []byte) (int, error) {
	w.lines = append(w.lines, string(p))
	return w.Write(p)
}

// A writer that takes whole lines gets each line passed through alone,
// with its newline, so it need not search for where lines end.
func TestRunWriteLine(t *testing.T) {
	pass := `{"record":"other","n":1}`
	input := pass + "\n" + in(2) + "\n  " + pass + " \n"
	var w lineWriter
	st := Stage{Name: "test", Accept: []string{"in"}, Transform: convert}
	if _, err := Run(context.Background(), strings.NewReader(input), &w, io.Discard, st); err != nil {
		t.Fatal(err)
	}
	if want := pass + "\n" + outOf(2) + "\n" + pass + "\n"; w.String() != want {
		t.Errorf("output %q, want %q", w.String(), want)
	}
	if want := []string{pass + "\n", pass + "\n"}; fmt.Sprint(w.lines) != fmt.Sprint(want) {
		t.Errorf("WriteLine got %q, want %q", w.lines, want)
	}
}
