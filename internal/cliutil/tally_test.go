package cliutil

import (
	"bytes"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// oracleRecord is how a stdout line was counted before issue 17: the whole
// line validated and searched by gjson for each field.
func oracleRecord(r *Run, line []byte) {
	if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
		return
	}
	res := gjson.GetManyBytes(line, "record", "outcome", "outcome.status", "url", "outcome.evidence.0", "error")
	kind := res[0].String()
	if kind == "" {
		return
	}
	switch o := res[1]; {
	case kind == "error":
		r.Target(res[3].String(), "error", res[5].String())
	case o.Type == gjson.String:
		r.Target(res[3].String(), o.String(), "")
	case res[2].Type == gjson.String:
		r.Target(res[3].String(), res[2].String(), res[4].String())
	default:
		r.mu.Lock()
		r.count(kind)
		r.mu.Unlock()
	}
}

var tallyLines = []string{
	`{"record":"capture","url":"https://a.test/","body":"<p class=\"x\">outcome</p>","outcome":null}`,
	`{"record":"artifact","url":"https://b.test/","outcome":"blocked","dir":"x"}`,
	`{"record":"graph","url":"https://c.test/","outcome":{"status":"partial","evidence":["cut \"here\"",2]}}`,
	`{"record":"graph","url":"https://d.test/","outcome":{"status":"ok","evidence":[{"a":1}]}}`,
	`{"record":"error","stage":"graph","url":"https://e.test/","error":"malformed\nJSON"}`,
	`{"record":"normalized","outcome":{"evidence":[]}}`,
	`{"rec\u006frd":"graph","url":"https://f.test/","outcome":"spa_shell"}`,
	`{"record":"graph","outcome":"ok"} trailing`,
	`{"record":""}`, `{"url":"x"}`, `not json`, `[1]`, ``, `{"record":5}`,
	`{"record":"graph","url":"https://g.test/","outcome":"ok","outcome":"blocked"}`,
}

func TestTallyCountsAsBefore(t *testing.T) {
	fail := map[string]bool{"blocked": true, "partial": true, "spa_shell": true, "error": true}
	want := &Run{failOn: fail}
	for _, l := range tallyLines {
		oracleRecord(want, []byte(l))
	}
	all := strings.Join(tallyLines, "\n") + "\n"
	for _, cut := range []int{1, 7, 64, len(all)} { // the stream cut into Writes of cut bytes
		got := &Run{failOn: fail}
		var out bytes.Buffer
		w := tally{w: &out, r: got}
		for p := all; p != ""; {
			n := min(cut, len(p))
			w.Write([]byte(p[:n]))
			p = p[n:]
		}
		if out.String() != all {
			t.Fatal("tally changed the stream")
		}
		if !reflect.DeepEqual(got.counts, want.counts) || got.lines != want.lines || !reflect.DeepEqual(got.failed, want.failed) {
			t.Errorf("writes of %d bytes: counts %v %d %q, want %v %d %q", cut, got.counts, got.lines, got.failed, want.counts, want.lines, want.failed)
		}
	}
}

// A long record written in one Write is counted where it is: not copied
// into the run's buffer (it was, whole, before issue 17).
func TestTallyDoesNotCopyWholeLines(t *testing.T) {
	line := []byte(`{"record":"capture","url":"https://a.test/","body":"` + strings.Repeat(`<p>x\"y\"</p>\n`, 200_000) + `"}` + "\n")
	r := &Run{}
	w := tally{w: io.Discard, r: r}
	w.Write(line)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w.Write(line)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(line))/4 {
		t.Errorf("counting a %d-byte line allocated %d bytes", len(line), got)
	}
	if r.counts["capture"] != 2 {
		t.Errorf("counts %v", r.counts)
	}
}
