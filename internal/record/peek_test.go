package record

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestPeek(t *testing.T) {
	for line, want := range map[string]string{
		`{"record":"capture"}`: "capture", ` {"record" : "graph" , "a":1} `: "graph", "\t{\"record\":\"x\",\"b\":2}\r": "x",
		// Only the shape is checked: the rest of the line is not read.
		`{"record":"capture","body":"\q"}`: "capture", `{"record":"capture","headers":{"a":"b"}`: "capture",
		`{"record":"capture",}`: "capture",
		// Anything else is left to the whole walk.
		`{"record":"capture","body":"<p>cut`: "", `{"record":"capture","body":"x"`: "", `{"record":"capture"`: "",
		`{"url":"x","record":"capture"}`: "", `{"rec\u006frd":"capture"}`: "", `{"record":"gr\u0061ph"}`: "",
		`{"record":""}`: "", `{"record":null}`: "", `{"record":5}`: "", `{"record":"a" "b":1}`: "",
		`{"record":"capture}`: "", `{"record":"capture"x}`: "", "{\"record\":\"a\tb\"}": "", `[{"record":"capture"}]`: "",
		`"record"`: "", `{}`: "", `{`: "", `}`: "", ``: "", `{"record"}`: "", `{"record":}`: "", `{"record":"`: "",
	} {
		kind, ok := Peek([]byte(line))
		if ok != (want != "") || string(kind) != want {
			t.Errorf("Peek(%q) = %q, %v; want %q", line, kind, ok, want)
		}
	}
}

// checkPeek holds Peek to the whole walk: on a valid object, a kind Peek
// gives is KindOf's; and a line Peek accepts has the shape it promises.
func checkPeek(t *testing.T, in []byte) {
	t.Helper()
	kind, ok := Peek(in)
	if !ok {
		return
	}
	if len(kind) == 0 || bytes.ContainsAny(kind, "\"\\") {
		t.Fatalf("Peek(%q) = %q", in, kind)
	}
	if tr := bytes.TrimSpace(in); tr[0] != '{' || tr[len(tr)-1] != '}' {
		t.Fatalf("Peek(%q) accepted a line that is not {…}", in)
	}
	if ms, valid, object := Walk(in, nil); valid && object && KindOf(ms) != string(kind) {
		t.Fatalf("Peek(%q) = %q, KindOf %q", in, kind, KindOf(ms))
	}
}

func FuzzPeek(f *testing.F) {
	for _, s := range walkSamples {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"record":"capture","body":"x"}`))
	f.Add([]byte(` {"record" :"a","record":"b"} `))
	f.Fuzz(func(t *testing.T, in []byte) { checkPeek(t, in) })
}

// Peek reads the same few bytes whatever follows the kind.
func TestPeekDoesNotReadTheBody(t *testing.T) {
	body := strings.Repeat(`<p>x\"y\"</p>\n`, 100_000)
	line := []byte(`{"record":"capture","body":"` + body + `"}`)
	if n := testing.AllocsPerRun(10, func() { Peek(line) }); n != 0 {
		t.Errorf("Peek allocated %v times", n)
	}
	// Were the body read, a byte that breaks it would be seen.
	broken := bytes.Replace(line, []byte(`\"y`), []byte(`\q `), 1)
	if k, ok := Peek(broken); !ok || string(k) != "capture" {
		t.Errorf("Peek(broken body) = %q, %v", k, ok)
	}
}

// TopEach gives Top's members, and stops when told.
func TestTopEach(t *testing.T) {
	for _, s := range walkSamples {
		in := []byte(s)
		want, wok := Top(in, nil)
		var got []Member
		ok := TopEach(in, func(m Member) bool { got = append(got, m); return true })
		if ok != wok || (ok && !reflect.DeepEqual(got, want)) {
			t.Errorf("TopEach(%q) = %q, %v; Top %q, %v", in, got, ok, want, wok)
		}
	}
	in := []byte(`{"record":"graph","outcome":{"status":"ok"},"url":"u","blocks":[` + "\x00 not read")
	var keys []string
	ok := TopEach(in, func(m Member) bool { keys = append(keys, string(m.Key)); return !m.Is("url") })
	if !ok || !reflect.DeepEqual(keys, []string{`"record"`, `"outcome"`, `"url"`}) {
		t.Errorf("TopEach stopped at %q, %v", keys, ok)
	}
}
