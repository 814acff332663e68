package record

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

var walkSamples = []string{
	`{}`, ` { } `, `{"a":1}`, `{"record":"capture","body":"<p class=\"x\">caf\u00e9 \\ \/ \b\f\n\r\t</p>","n":[1,-2.5e+3,{"x":null}],"t":true,"f":false}`,
	`{"a":1,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{,}`, `{"a":1 "b":2}`, `{"a":[1,]}`, `{"a":[,1]}`, `{"a":{"b":1,}}`,
	`[1,2]`, `"x"`, `42`, `-0`, `null`, `true`, `nul`, `tru`, `01`, `1.`, `.5`, `1e`, `1e+`, `-`, `--1`, `1.5E-07`,
	`{"a":"\u12g4"}`, `{"a":"\x"}`, "{\"a\":\"tab\there\"}", "{\"a\":\"\x7f\xff\xfe\"}", `{"a":"unterminated}`, `{"a":1}}`,
	`{"a":1} {"b":2}`, `{"a":1} x`, `{"a":[[[[{"b":[]}]]]]}`, strings.Repeat("[", 100) + strings.Repeat("]", 100),
	strings.Repeat("[", 100) + strings.Repeat("]", 99), `{"k\"ey":"v","k\u0065y":2}`, `{"a":"` + strings.Repeat(`abcdefg\"`, 20) + `"}`,
	"{\"a\":\"abcdefgh\x01\"}", `{"a":"12345678\\"}`, `{"a":"1234567\\\\"}`, `{"a":"` + strings.Repeat("é", 30) + `"}`,
	"{\"a\":1}\n", "\t{\"a\":1}\r", `{"a":truex}`, `{"a":1x}`, `{"a":"x"y}`,
}

func TestWalkValidity(t *testing.T) {
	for _, s := range walkSamples {
		checkWalk(t, []byte(s))
	}
}

// checkWalk holds Walk to encoding/json's and gjson's verdict on the same
// bytes, and its members to gjson's raw keys and values.
func checkWalk(t *testing.T, in []byte) {
	t.Helper()
	ms, valid, object := Walk(in, nil)
	if want := json.Valid(in); valid != want {
		t.Fatalf("Walk(%q) valid %v, encoding/json %v", in, valid, want)
	}
	if want := gjson.ValidBytes(in); valid != want {
		t.Fatalf("Walk(%q) valid %v, gjson %v", in, valid, want)
	}
	if !valid {
		return
	}
	trimmed := bytes.TrimLeft(in, " \t\r\n")
	if want := trimmed[0] == '{'; object != want {
		t.Fatalf("Walk(%q) object %v", in, object)
	}
	if !object {
		return
	}
	var want []Member
	var names []string
	gjson.ParseBytes(in).ForEach(func(k, v gjson.Result) bool {
		want = append(want, Member{[]byte(k.Raw), []byte(v.Raw)})
		names = append(names, k.Str)
		return true
	})
	if len(ms) != len(want) {
		t.Fatalf("Walk(%q): %d members, gjson %d", in, len(ms), len(want))
	}
	if top, ok := Top(in, nil); !ok || !reflect.DeepEqual(top, ms) {
		t.Fatalf("Top(%q) = %q, %v; Walk gives %q", in, top, ok, ms)
	}
	for i := range ms {
		if !bytes.Equal(ms[i].Key, want[i].Key) || !bytes.Equal(ms[i].Value, want[i].Value) {
			t.Fatalf("Walk(%q) member %d: %q:%q, gjson %q:%q", in, i, ms[i].Key, ms[i].Value, want[i].Key, want[i].Value)
		}
		// The name Passthrough compared before: gjson's unescaped key
		// (invalid UTF-8 kept as it is when the key has no escape).
		if name := ms[i].Name(); name != names[i] && bytes.IndexByte(ms[i].Key, '\\') < 0 {
			t.Fatalf("Walk(%q) member %d: Name %q, want %q", in, i, name, names[i])
		}
	}
	if got, want := KindOf(ms), Kind(in); got != want && !(want == "" && got == "null") {
		if len(ms) > 0 && gjson.GetBytes(in, "record").Type == gjson.String || got == "" || want == "" {
			t.Fatalf("KindOf(%q) = %q, Kind %q", in, got, want)
		}
	}
}

func FuzzWalk(f *testing.F) {
	for _, s := range walkSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkWalk(t, in) })
}

func TestKindOf(t *testing.T) {
	for line, want := range map[string]string{
		`{"record":"capture"}`: "capture", `{"n":1,"record":"gr\u0061ph"}`: "graph", `{"rec\u006frd":"x"}`: "x",
		`{"record":null}`: "", `{"record":""}`: "", `{"a":{"record":"in"}}`: "", `{"record":5}`: "5",
		`{"record":"a","record":"b"}`: "a",
	} {
		ms, valid, object := Walk([]byte(line), nil)
		if got := KindOf(ms); !valid || !object || got != want {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}

func BenchmarkWalk(b *testing.B) {
	line := []byte(`{"record":"capture","url":"https://example.test/","body":"` +
		strings.Repeat(`<p class=\"x\">Some text, caf\u00e9 \u003cb\u003e&amp;\n</p>`, 4000) + `","n":[1,2,{"a":null}]}`)
	b.SetBytes(int64(len(line)))
	var ms []Member
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			ms, _, _ = Walk(line, ms[:0])
		}
	})
	b.Run("gjson.ValidBytes", func(b *testing.B) {
		for b.Loop() {
			gjson.ValidBytes(line)
		}
	})
}
