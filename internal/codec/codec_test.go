package codec

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"
)

type inner struct {
	B    bool              `json:"b"`
	List []int             `json:"list"`
	M    map[string]string `json:"m,omitempty"`
}

type outer struct {
	Record  string          `json:"record"`
	Name    string          `json:"name,omitempty"`
	N       int             `json:"n"`
	F       float64         `json:"f"`
	Ptr     *inner          `json:"ptr"`
	NilPtr  *inner          `json:"nil_ptr"`
	OmitPtr *inner          `json:"omit_ptr,omitempty"`
	Inner   inner           `json:"inner"`
	Slice   []inner         `json:"slice"`
	NilList []string        `json:"nil_list"`
	Empty   []string        `json:"empty,omitempty"`
	Raw     json.RawMessage `json:"raw,omitempty"`
	Any     any             `json:"any"`
	Counts  map[string]int  `json:"counts"`
	ByID    map[int]string  `json:"by_id"`
	//lint:ignore U1000 unexported on purpose: never encoded
	skipped string
	Ignored string            `json:"-"`
	Tags    map[string]*inner `json:"tags,omitempty"`
}

// sameAsStd lists values whose encoding must equal encoding/json's.
func sameAsStd() map[string]any {
	return map[string]any{
		"html":          "<a href=\"x\">&amp;</a>",
		"line sep":      "a\u2028b\u2029c",
		"invalid utf8":  "ok\xffbad\xc3(",
		"controls":      "\x00\x01\x1f\t\n\r\"\\/",
		"unicode":       "é 😀 \u00a0 \ufeff",
		"empty string":  "",
		"half":          0.5,
		"1e21":          1e21,
		"1e20":          1e20,
		"1e-7":          1e-7,
		"1e-6":          1e-6,
		"neg zero":      math.Copysign(0, -1),
		"max float":     math.MaxFloat64,
		"small float":   math.SmallestNonzeroFloat64,
		"third":         1.0 / 3,
		"float32":       float32(0.1),
		"int64 max":     int64(math.MaxInt64),
		"uint64 max":    uint64(math.MaxUint64),
		"int min":       int64(math.MinInt64),
		"nil":           nil,
		"true":          true,
		"bytes":         []byte("hello\x00"),
		"nil slice":     []int(nil),
		"empty slice":   []int{},
		"nested slices": [][]string{{"a"}, {}, nil},
		"map sorted": map[string]int{
			"zeta": 1, "alpha": 2, "Beta": 3, "beta": 4, "": 5, "ä": 6, "10": 7, "9": 8,
		},
		"map html keys": map[string]string{"<k>": "&", "a&b": ">"},
		"map int keys":  map[int]string{10: "a", 9: "b", -1: "c"},
		"nil map":       map[string]int(nil),
		"pointer":       &inner{B: true, List: []int{1, 2}},
		"struct": outer{
			Record: "capture",
			N:      -3,
			F:      2.5e-8,
			Ptr:    &inner{M: map[string]string{"y": "1", "x": "2"}},
			Inner:  inner{List: []int{}},
			Slice:  []inner{{B: true}, {}},
			Raw:    json.RawMessage(`{"k":[1,2]}`),
			Any:    map[string]any{"b": []any{1.5, "s", nil}, "a": false},
			Counts: map[string]int{"p": 3, "h1": 1},
			ByID:   map[int]string{2: "two", 1: "one"},
			Tags:   map[string]*inner{"t": nil},
		},
		"empty struct": outer{},
		"any slice":    []any{"<", 1, 2.25, map[string]any{"z": 1, "a": 2}},
	}
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	for name, v := range sameAsStd() {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Marshal(v)
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from encoding/json\ngot  %s\nwant %s", Name(), got, want)
			}
		})
	}
}

// The one documented difference (FACTS.md): sonic writes \b and \f as
// \u0008 and \u000c; encoding/json writes the short escapes. Both decode
// to the same string.
func TestMarshalBackspaceFormFeed(t *testing.T) {
	s := "a\bb\fc"
	got, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(s)
	short := `"a\bb\fc"`
	long := `"a\u0008b\u000cc"`
	if string(got) != short && string(got) != long {
		t.Errorf("Marshal(%q) = %s, want %s or %s", s, got, short, long)
	}
	if string(got) != string(want) {
		t.Logf("%s writes %s, encoding/json %s (documented difference)", Name(), got, want)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil || back != s {
		t.Errorf("round trip: %q, %v", back, err)
	}
}

func TestMarshalNoTrailingNewline(t *testing.T) {
	b, err := Marshal(map[string]string{"a": "b"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(b, "\n ") {
		t.Errorf("Marshal output is not compact: %q", b)
	}
}

func TestMarshalErrors(t *testing.T) {
	for name, v := range map[string]any{
		"NaN":     math.NaN(),
		"+Inf":    math.Inf(1),
		"chan":    make(chan int),
		"func":    func() {},
		"bad raw": json.RawMessage(`{"a":`),
	} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("Marshal(%s) gave no error", name)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	in := outer{
		Record: "graph",
		Name:   "<名前> & \u2028",
		N:      42,
		F:      0.1,
		Ptr:    &inner{B: true, List: []int{3, 1, 2}, M: map[string]string{"k": "v"}},
		Inner:  inner{List: []int{}},
		Slice:  []inner{{B: true, List: []int{1}}},
		Raw:    json.RawMessage(`{"k":[1,2]}`),
		Any:    map[string]any{"a": []any{1.5, "s", nil, true}},
		Counts: map[string]int{"x": 1},
		ByID:   map[int]string{-7: "neg"},
	}
	b, err := Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out outer
	if err := Unmarshal(b, &out); err != nil {
		t.Fatalf("Unmarshal: %v", err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip differs\nin  %+v\nout %+v", in, out)
	}
	again, err := Marshal(out)
	if err != nil || !bytes.Equal(again, b) {
		t.Errorf("second encoding differs: %v\n%s\n%s", err, b, again)
	}
}

func TestUnmarshalLikeEncodingJSON(t *testing.T) {
	docs := []string{
		`{"record":"capture","n":1,"f":1e21,"any":{"x":[1,"a",null]},"unknown":{"deep":[1]}}`,
		`{"name":"\u00e9\ud83d\ude00\u2028","by_id":{"3":"c"}}`,
		`{"ptr":null,"slice":[],"counts":{}}`,
		`{"name":"a\u0008b\u000cc\b\f"}`,
		` {"n" : -0 , "f":-0.0} `,
	}
	for _, d := range docs {
		var got, want outer
		errGot := Unmarshal([]byte(d), &got)
		errWant := json.Unmarshal([]byte(d), &want)
		if (errGot == nil) != (errWant == nil) {
			t.Errorf("%s: error %v, encoding/json %v", d, errGot, errWant)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %+v\nwant %+v", d, got, want)
		}
	}
}

func TestUnmarshalErrors(t *testing.T) {
	for _, d := range []string{``, `{`, `{"n":"x"}`, `[1,2]`, `{"n":1}x`, `nul`} {
		var v outer
		if err := Unmarshal([]byte(d), &v); err == nil {
			t.Errorf("Unmarshal(%q) gave no error", d)
		}
	}
}

func TestMarshalDeterministic(t *testing.T) {
	m := map[string]any{}
	for i := 0; i < 200; i++ {
		m["k"+strconv.Itoa(i*7919%1000)] = map[string]int{"b" + strconv.Itoa(i): i, "a": -i}
	}
	first, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		b, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, first) {
			t.Fatalf("run %d gave different bytes", i)
		}
	}
	want, _ := json.Marshal(m)
	if !bytes.Equal(first, want) {
		t.Errorf("map encoding differs from encoding/json")
	}
}

func TestName(t *testing.T) {
	if n := Name(); n != "sonic" && n != "segmentio" {
		t.Errorf("Name() = %q", n)
	}
}
