package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

func TestKind(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{`{"record":"capture","url":"u"}`, KindCapture},
		{`{"url":"u","record":"graph"}`, KindGraph},
		{` { "record" : "error" } `, KindError},
		{`{"url":"u"}`, ""},
		{`{"a":{"record":"capture"}}`, ""},
		{`not json`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := Kind([]byte(tt.line)); got != tt.want {
			t.Errorf("Kind(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestPassthrough(t *testing.T) {
	tests := []struct {
		name    string
		out, in string
		known   func(string) bool
		want    string
	}{
		{
			name:  "unknown fields keep order and bytes",
			out:   `{"record":"normalized","schema_version":"1.0"}`,
			in:    `{"record":"capture","id":"x-1","meta":{"b": [1, 2 ],"a":"é\u00e9"},"z\"k":1.50,"ü":null}`,
			known: Keys("record"),
			want:  `{"record":"normalized","schema_version":"1.0","id":"x-1","meta":{"b": [1, 2 ],"a":"é\u00e9"},"z\"k":1.50,"ü":null}`,
		},
		{
			name: "keys out has win, in its order",
			out:  `{"record":"graph","id":"mine"}`,
			in:   `{"id":"theirs","job":7,"record":"normalized"}`,
			want: `{"record":"graph","id":"mine","job":7}`,
		},
		{
			name:  "known keys are dropped",
			out:   `{"record":"graph"}`,
			in:    `{"record":"normalized","blocks":[1],"html":"<p>","id":1}`,
			known: Keys("blocks", "html"),
			want:  `{"record":"graph","id":1}`,
		},
		{
			name: "escaped key matching an out key is skipped",
			out:  `{"id":1}`,
			in:   `{"\u0069d":2,"\u006Aob":3}`,
			want: `{"id":1,"\u006Aob":3}`,
		},
		{
			name: "duplicate input keys: the first wins",
			out:  `{"a":1}`,
			in:   `{"b":1,"b":2}`,
			want: `{"a":1,"b":1}`,
		},
		{
			name: "empty out object",
			out:  `{}`,
			in:   `{"id":1,"x":[true]}`,
			want: `{"id":1,"x":[true]}`,
		},
		{
			name: "empty out object with spaces",
			out:  `{ }`,
			in:   `{"id":1}`,
			want: `{"id":1}`,
		},
		{
			name: "white space in input between tokens",
			out:  `{"a":1}`,
			in:   "{ \"id\" :\t\"x\" ,\n \"n\" : 2 }",
			want: `{"a":1,"id":"x","n":2}`,
		},
		{
			name: "nothing to add returns out unchanged",
			out:  `{"a":1}`,
			in:   `{"a":2}`,
			want: `{"a":1}`,
		},
		{name: "input array", out: `{"a":1}`, in: `[1,2]`, want: `{"a":1}`},
		{name: "input string", out: `{"a":1}`, in: `"s"`, want: `{"a":1}`},
		{name: "input null", out: `{"a":1}`, in: `null`, want: `{"a":1}`},
		{name: "input empty", out: `{"a":1}`, in: ``, want: `{"a":1}`},
		{name: "input empty object", out: `{"a":1}`, in: `{}`, want: `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Passthrough([]byte(tt.out), []byte(tt.in), tt.known)
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("result is not valid JSON: %s", got)
			}
		})
	}
}

func TestPassthroughBig(t *testing.T) {
	big := strings.Repeat("ab\\\"cé", 1<<20) // ~7 MB of string with escapes
	in := `{"record":"capture","html":"` + big + `","id":"k","tail":{"n":[1,2,3]}}`
	got := Passthrough([]byte(`{"record":"normalized"}`), []byte(in), Keys("record"))
	want := `{"record":"normalized","html":"` + big + `","id":"k","tail":{"n":[1,2,3]}}`
	if string(got) != want {
		t.Fatalf("big passthrough differs (len %d, want %d)", len(got), len(want))
	}
}

func TestPassthroughDoesNotAliasOut(t *testing.T) {
	out := []byte(`{"a":1}`)
	out = append(out, make([]byte, 64)...)[:7] // spare capacity
	got := Passthrough(out, []byte(`{"b":2}`), nil)
	if string(out) != `{"a":1}` {
		t.Errorf("out was modified: %s", out)
	}
	if string(got) != `{"a":1,"b":2}` {
		t.Errorf("got %s", got)
	}
}

func TestKeys(t *testing.T) {
	k := Keys("a", "b")
	if !k("a") || !k("b") || k("c") || k("") {
		t.Error("Keys membership wrong")
	}
	if Keys()("a") {
		t.Error("empty Keys claims a key")
	}
}

func TestNewError(t *testing.T) {
	in := []byte(`{"record":"capture","url":"https://example.test/a"}`)
	e := NewError("normalize", 7, in, errors.New("boom"))
	want := Error{
		Record:        KindError,
		SchemaVersion: SchemaVersion,
		Stage:         "normalize",
		Line:          7,
		Error:         "boom",
		URL:           "https://example.test/a",
		Input:         string(in),
	}
	if e != want {
		t.Errorf("got  %+v\nwant %+v", e, want)
	}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(`{"record":"error","schema_version":"1.0",`)) {
		t.Errorf("record must lead with record and schema_version: %s", b)
	}
}

func TestNewErrorNotJSON(t *testing.T) {
	e := NewError("capture", 1, []byte("https://example.test/ not json"), errors.New("x"))
	if e.URL != "" {
		t.Errorf("URL taken from non-JSON input: %q", e.URL)
	}
	if e.Input != "https://example.test/ not json" {
		t.Errorf("Input = %q", e.Input)
	}
	b, _ := json.Marshal(NewError("s", 1, nil, errors.New("x")))
	if bytes.Contains(b, []byte(`"input"`)) || bytes.Contains(b, []byte(`"url"`)) {
		t.Errorf("empty input and url must be omitted: %s", b)
	}
}

func TestNewErrorExcerpt(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // "" means: only check the invariants
	}{
		{"short kept whole", "abc", "abc"},
		{"exactly 200", strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{"cut at 200", strings.Repeat("a", 300), strings.Repeat("a", 200)},
		{"rune straddles the cut", strings.Repeat("a", 199) + "é", strings.Repeat("a", 199)},
		{"4-byte rune straddles", strings.Repeat("a", 198) + "😀", strings.Repeat("a", 198)},
		{"invalid byte first", "\xff" + strings.Repeat("a", 300), "\uFFFD" + strings.Repeat("a", 197)},
		{"invalid bytes expand", strings.Repeat("a\xff", 150), ""},
		{"all invalid", strings.Repeat("\xfe", 500), ""},
		{"truncated rune at the end", "ab\xe2\x82", "ab\uFFFD\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewError("s", 1, []byte(tt.in), errors.New("x")).Input
			checkExcerpt(t, []byte(tt.in), got, 200)
			if tt.want != "" && got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExcerptRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	alphabet := []string{"a", "é", "€", "😀", "\xff", "\xe2\x82", "\x80", " "}
	for i := 0; i < 2000; i++ {
		var b []byte
		for n := rng.Intn(120); n > 0; n-- {
			b = append(b, alphabet[rng.Intn(len(alphabet))]...)
		}
		max := rng.Intn(210)
		checkExcerpt(t, b, Excerpt(b, max), max)
	}
}

// checkExcerpt checks what Excerpt promises: at most max bytes, valid UTF-8,
// and, for valid input, a prefix of it that stops on a rune boundary.
func checkExcerpt(t *testing.T, in []byte, got string, max int) {
	t.Helper()
	if len(got) > max {
		t.Errorf("excerpt of %q is %d bytes, max %d", in, len(got), max)
	}
	if !utf8.ValidString(got) {
		t.Errorf("excerpt %q is not valid UTF-8", got)
	}
	if utf8.Valid(in) {
		if !strings.HasPrefix(string(in), got) {
			t.Errorf("excerpt %q is not a prefix of %q", got, in)
		}
		if len(got) < len(in) && !utf8.RuneStart(in[len(got)]) {
			t.Errorf("excerpt of %q not cut on a rune boundary", in)
		}
		// As long as possible: the next rune would not have fit.
		if len(got) < len(in) {
			_, size := utf8.DecodeRune(in[len(got):])
			if len(got)+size <= max {
				t.Errorf("excerpt %q stops early (max %d)", got, max)
			}
		}
	}
}

func FuzzPassthrough(f *testing.F) {
	f.Add([]byte(`{"record":"capture","id":"a","meta":{"x":[1,{"y":"\u00e9"}]}}`), []byte(`{"record":"normalized"}`))
	f.Add([]byte(`{"a":1,"a":2,"_k":3}`), []byte(`{}`))
	f.Add([]byte(`{"\u0061":"\"}","b":"}"}`), []byte(`{"a" : "}" }`))
	f.Add([]byte(`{ }`), []byte(`{"x":null}`))
	f.Add([]byte(`{"k":"\ud800"}`), []byte(`{"o":[]}`)) // a lone surrogate, escaped: valid JSON
	f.Fuzz(func(t *testing.T, in, out []byte) {
		if !isObject(in) || !isObject(out) {
			t.Skip()
		}
		known := func(k string) bool { return strings.HasPrefix(k, "_") }
		got := Passthrough(out, in, known)
		if !gjson.ValidBytes(got) || !json.Valid(got) {
			t.Fatalf("invalid JSON\nin  %q\nout %q\ngot %q", in, out, got)
		}
		have := keySet(got)
		for k := range keySet(out) {
			if !have[k] {
				t.Errorf("key %q of out missing from %q", k, got)
			}
		}
		outKeys := keySet(out)
		for k := range keySet(in) {
			switch {
			case outKeys[k]:
			case known(k):
				if have[k] {
					t.Errorf("known key %q passed through: %q", k, got)
				}
			case !have[k]:
				t.Errorf("unknown key %q of in missing from %q", k, got)
			}
		}
		body := bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(out), []byte("}")))
		if !bytes.Equal(got, out) && !bytes.HasPrefix(got, body) {
			t.Errorf("out's own bytes changed: out %q got %q", out, got)
		}
	})
}

func isObject(b []byte) bool {
	return json.Valid(b) && gjson.ValidBytes(b) && gjson.ParseBytes(b).IsObject()
}

func keySet(b []byte) map[string]bool {
	m := map[string]bool{}
	gjson.ParseBytes(b).ForEach(func(k, _ gjson.Result) bool {
		m[k.Str] = true
		return true
	})
	return m
}
