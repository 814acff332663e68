package cliutil

import (
	"reflect"
	"strings"
	"testing"
)

// The run summary reads no further into a line than the members it counts
// by: a capture or normalized record is counted by the kind it starts with,
// any other record once "record", "url" and "outcome" (or "error") are
// found. What follows is not read, so a line broken after them is counted
// as its start says (both lines below were not counted before issue 17's
// passthrough work: the syntax after the members was read).
func TestTallyReadsOnlyTheStart(t *testing.T) {
	body := strings.Repeat(`<p>x\"y\"</p>\n`, 10_000)
	r := &Run{failOn: map[string]bool{"blocked": true}}
	w := tally{w: &strings.Builder{}, r: r}
	for _, l := range []string{
		`{"record":"capture","url":"https://a.test/","body":"` + body + `" "not read"}`,
		`{"record":"normalized","outcome":"blocked","html":"` + body + `"}`,
		`{"record":"graph","schema_version":"1.0","outcome":{"status":"blocked","evidence":["e"]},"url":"https://b.test/","blocks":[` + body + `}`,
		`{"record":"artifact","url":"https://c.test/","outcome":"ok","dir":"` + body,
	} {
		w.Write([]byte(l + "\n"))
	}
	want := map[string]int{"capture": 1, "normalized": 1, "blocked": 1, "ok": 1}
	if !reflect.DeepEqual(r.counts, want) || r.lines != 4 || !reflect.DeepEqual(r.failed, []string{"https://b.test/: blocked: e"}) {
		t.Errorf("counts %v lines %d failed %q", r.counts, r.lines, r.failed)
	}
}

// WriteLine counts a whole line where it is, and still finishes a line
// an earlier Write left cut.
func TestTallyWriteLine(t *testing.T) {
	r := &Run{}
	var out strings.Builder
	w := tally{w: &out, r: r}
	w.WriteLine([]byte(`{"record":"capture","body":"x"}` + "\n"))
	w.Write([]byte(`{"record":"gr`))
	w.WriteLine([]byte(`aph","url":"u","outcome":"ok"}` + "\n"))
	w.WriteLine([]byte(`{"record":"normalized"}` + "\n"))
	if want := map[string]int{"capture": 1, "ok": 1, "normalized": 1}; !reflect.DeepEqual(r.counts, want) || r.lines != 3 {
		t.Errorf("counts %v lines %d", r.counts, r.lines)
	}
	if !strings.HasSuffix(out.String(), `{"record":"normalized"}`+"\n") || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("output %q", out.String())
	}
}
