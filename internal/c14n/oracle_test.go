package c14n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// The implementation before issue 17, kept as the oracle the fuzz tests
// hold the new one to: encoding/json, a full parse, and members sorted by
// decoding both keys to code points at every comparison.

func oracleMarshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return oracleCanonicalize(b)
}

func oracleCanonicalize(in []byte) ([]byte, error) {
	v, err := Parse(in)
	if err != nil {
		return nil, err
	}
	oracleSort(&v)
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes(), nil
}

func oracleSort(v *Value) {
	for i := range v.Items {
		oracleSort(&v.Items[i])
	}
	for i := range v.Members {
		oracleSort(&v.Members[i].Value)
	}
	sort.Slice(v.Members, func(i, j int) bool { return lessCodePoints(v.Members[i].Key, v.Members[j].Key) })
}

func lessCodePoints(a, b string) bool {
	ua, ub := []rune(a), []rune(b)
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}

func oracleCompare(a, b string) int {
	switch {
	case lessCodePoints(a, b):
		return -1
	case lessCodePoints(b, a):
		return 1
	}
	return 0
}

func sign(n int) int { return max(-1, min(1, n)) }

func TestCompareKeysSurrogateRange(t *testing.T) {
	keys := []string{"", "a", "ab", "\u007f", "\u0080", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uefff", "\uf000", "\uffff",
		"\U00010000", "\U0001f600", "\U0010ffff", "a\ue000", "a\U00010000", "\ufb01x", "\U0001d11e"}
	for _, a := range keys {
		for _, b := range keys {
			if got, want := sign(CompareKeys(a, b)), oracleCompare(a, b); got != want {
				t.Errorf("CompareKeys(%+q, %+q) = %d, want %d", a, b, got, want)
			}
		}
	}
	// The one place code point order and RFC 8785's UTF-16 order differ:
	// c14n v1 puts U+FFFF before U+10000.
	if CompareKeys("\uffff", "\U00010000") >= 0 {
		t.Error("U+10000 before U+FFFF")
	}
}

func FuzzCompareKeys(f *testing.F) {
	f.Add("a", "b")
	f.Add("\ue000", "\U00010000")
	f.Add("x\uffffy", "x\U0010ffff")
	f.Add("\u00e9", "e\u0301")
	f.Fuzz(func(t *testing.T, a, b string) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return
		}
		if got, want := sign(CompareKeys(a, b)), oracleCompare(a, b); got != want {
			t.Fatalf("CompareKeys(%+q, %+q) = %d, want %d", a, b, got, want)
		}
	})
}

// fuzzStruct exercises encoding/json's field rules: tags, omitempty,
// embedded structs (by value and pointer, with a conflict), pointers,
// maps with integer and text keys, byte slices, floats, Marshalers.
type fuzzStruct struct {
	Embedded
	*EmbeddedPtr
	Conflict1
	Conflict2
	A int             `json:"a"`
	B string          `json:"b,omitempty"`
	C *string         `json:"c"`
	D []int           `json:"d"`
	E map[string]any  `json:"e,omitempty"`
	F float64         `json:"f"`
	G float32         `json:"g,omitempty"`
	H []byte          `json:"h"`
	I map[int]string  `json:"i"`
	J map[textKey]int `json:"j"`
	K any             `json:"k"`
	L [2]uint8        `json:"l"`
	M marshaled       `json:"m"`
	N *ptrMarshaled   `json:"n"`
	O ptrMarshaled    `json:"o"`
	P textValue       `json:"p"`
	Q json.Number     `json:"q"`
	R json.RawMessage `json:"r,omitempty"`
	S bool            `json:"s,omitempty"`
	T uint64          `json:"\u00e9,omitempty"`
	U string          `json:"\U0001f600"`
	V string          `json:"\uffff"`
	W []fuzzStruct    `json:"w,omitempty"`
	X string          `json:"-"`
	//lint:ignore SA5008 the oracle test feeds encoding/json this odd tag on purpose
	Y string `json:"-,"`
	//lint:ignore SA5008 a malformed tag on purpose: c14n must treat it as encoding/json does
	Z     int               `json:"bad\"tag"`
	Str   int               `json:"str,string,omitempty"`
	Inner map[string][]bool `json:"inner"`
	//lint:ignore U1000 unexported on purpose: never encoded
	hidden int
}

type Embedded struct {
	EA string `json:"ea"`
	A  int    `json:"a"` // shadowed by the outer a
}

type EmbeddedPtr struct {
	EP  int `json:"ep"`
	Dup int // conflicts with Conflict… at a deeper level: loses
}

type Conflict1 struct{ Same int }
type Conflict2 struct{ Same int } // same depth, both untagged: neither appears

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("k:" + string(k)), nil }

type marshaled struct{ V int }

func (m marshaled) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"z": %d, "a": [1, 2]}`, m.V), nil
}

type ptrMarshaled struct{ V string }

func (m *ptrMarshaled) MarshalJSON() ([]byte, error) { return json.Marshal("ptr:" + m.V) }

type textValue struct{ V string }

func (t textValue) MarshalText() ([]byte, error) { return []byte("<" + t.V + ">"), nil }

func checkSame(t *testing.T, v any) {
	t.Helper()
	got, err := Marshal(v)
	want, werr := oracleMarshal(v)
	if (err != nil) != (werr != nil) {
		t.Fatalf("%#v: error %v, oracle %v", v, err, werr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%#v:\ngot  %s\nwant %s", v, got, want)
	}
	if err == nil {
		fp, err := FingerprintOf(v)
		if err != nil || fp != Fingerprint(want) {
			t.Fatalf("FingerprintOf: %s, %v", fp, err)
		}
	}
}

func TestMarshalMatchesOracle(t *testing.T) {
	s := "str"
	for _, v := range []any{
		//lint:ignore SA4026 -0.0 is plain 0.0 in Go; kept as written (json.Number("-0") below is the negative-zero case)
		nil, 0, -0.0, 1.0, 1.5, 1e20, 1e21, 1e-7, math.MaxInt64, uint64(math.MaxUint64), float32(3), float32(1e21),
		"a\x00\x1f\"\\/<>&\u2028\u007f\xff\xfe", []byte(nil), []byte{0, 1, 2},
		map[string]int{"\ue000": 1, "\U00010000": 2, "b": 3, "a": 4, "\xff": 5},
		map[string]int{"\xff": 1, "\xfe": 2}, // both keys become U+FFFD: a duplicate
		map[int]bool{10: true, 9: false, -1: true},
		[]any{nil, true, false, []any{}, map[string]any{}},
		json.Number("12"), json.Number("1.5"), json.Number("-0"), json.Number("x"),
		json.RawMessage(`{"b":1,"a":{"d":[],"c":2}}`),
		fuzzStruct{}, &fuzzStruct{C: &s, EmbeddedPtr: &EmbeddedPtr{EP: 3}, W: []fuzzStruct{{A: 2}}, M: marshaled{4},
			O: ptrMarshaled{"o"}, N: &ptrMarshaled{"n"}, Q: "7", J: map[textKey]int{"x": 1}, I: map[int]string{2: "x"}, K: map[string]any{"z": 1.0}},
		fuzzStruct{Str: 4}, fuzzStruct{F: 0.5}, fuzzStruct{G: 2}, fuzzStruct{K: math.Inf(1)},
		struct{ C chan int }{}, struct{ F func() }{}, map[bool]int{true: 1},
		deepSlice(MaxDepth), deepSlice(MaxDepth + 1), deepSlice(MaxDepth - 1),
	} {
		checkSame(t, v)
	}
}

func deepSlice(n int) any {
	var v any = 1
	for range n {
		v = []any{v}
	}
	return v
}

// FuzzMarshal: arbitrary JSON decoded into generic values and into
// fuzzStruct must encode to the oracle's bytes, and fail where it fails.
func FuzzMarshal(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":"x","e":{"\ue000":1,"\ud800\udc00":2},"f":2,"k":[1.5],"w":[{"a":3}]}`))
	f.Add([]byte(`{"ea":"x","ep":2,"Same":1,"h":"AAEC","i":{"3":"x"},"j":{"q":1},"m":{},"q":"1e3","str":"5"}`))
	f.Add([]byte(`[1,2.5,"\u00e9",null,{"":{}}]`))
	f.Add([]byte(`{"r":{"z":1,"a":2},"inner":{"b":[true],"a":null},"t":5,"\u00e9":3}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var generic any
		if json.Unmarshal(in, &generic) == nil {
			checkSame(t, generic)
		}
		var s fuzzStruct
		if json.Unmarshal(in, &s) == nil {
			checkSame(t, s)
			checkSame(t, &s)
		}
	})
}

// FuzzCanonicalizeMatchesOracle: the parser's new key order is the old one.
func FuzzCanonicalizeMatchesOracle(f *testing.F) {
	f.Add([]byte(`{"\ue000":1,"\ud800\udc00":2,"a":{"\uffff":[],"\U0001f600":0}}`))
	f.Add([]byte(`{"b":1,"a":2}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := Canonicalize(in)
		want, werr := oracleCanonicalize(in)
		if (err != nil) != (werr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("%q: got %q (%v), want %q (%v)", in, got, err, want, werr)
		}
	})
}

func TestMarshalReusing(t *testing.T) {
	type doc struct {
		Z       string       `json:"z"`
		Payload fuzzStruct   `json:"payload"`
		Other   []fuzzStruct `json:"other"`
	}
	d := &doc{Z: "z", Payload: fuzzStruct{A: 1, B: "x"}, Other: []fuzzStruct{{A: 1, B: "x"}}}
	canon, err := Marshal(&d.Payload)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Marshal(d)
	got, err := MarshalReusing(d, &d.Payload, canon)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %s, %v\nwant %s", got, err, want)
	}
	// Only the value at that address is replaced, not equal values elsewhere.
	got, _ = MarshalReusing(d, &d.Payload, []byte(`"X"`))
	if !strings.Contains(string(got), `"payload":"X"`) || strings.Count(string(got), `"X"`) != 1 {
		t.Fatalf("got %s", got)
	}
}

func BenchmarkMarshal(b *testing.B) {
	v := benchValue()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshalOracle(b *testing.B) {
	v := benchValue()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := oracleMarshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

func benchValue() any {
	type el struct {
		ID       string   `json:"element_id"`
		Role     string   `json:"role"`
		Text     string   `json:"text"`
		Page     string   `json:"page_ref"`
		Box      [4]int   `json:"box"`
		Spans    []string `json:"span_ids"`
		Level    *int     `json:"level"`
		Children []string `json:"children,omitempty"`
	}
	els := make([]el, 2000)
	for i := range els {
		els[i] = el{ID: fmt.Sprintf("e%05d", i), Role: "paragraph", Text: strings.Repeat("Some text <b> & \u00e9 ", 5),
			Page: "p0001", Box: [4]int{i, 2 * i, 100, 20}, Spans: []string{fmt.Sprintf("s%05d", i)}}
	}
	return map[string]any{"elements": els, "count": len(els)}
}
