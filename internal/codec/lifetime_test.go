package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	sj "github.com/segmentio/encoding/json"
)

// Both implementations must write the same bytes for every value: a
// process moves a type from segmentio to sonic in the middle of a stream.
func TestImplementationsWriteSameBytes(t *testing.T) {
	if !haveFast {
		t.Skip("this build has segmentio only")
	}
	vals := sameAsStd()
	vals["backspace"] = "a\bb\fc \\b \\\\f \\\b"
	vals["backspace key"] = map[string]int{"\b": 1, "\f\f": 2}
	for name, v := range vals {
		slow, err := sj.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		slow = shortEscapes(slow)
		fast, err := fastMarshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(slow, fast) {
			t.Errorf("%s: segmentio %s, sonic %s", name, slow, fast)
		}
	}
}

func TestShortEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`"a\bb\fc"`:         `"a\u0008b\u000cc"`,
		`"\\b\\f"`:          `"\\b\\f"`,
		`"\\\b"`:            `"\\\u0008"`,
		`{"\b":"x\n\f"}`:    `{"\u0008":"x\n\u000c"}`,
		`"plain"`:           `"plain"`,
		`"\u0008 \"b\" \\"`: `"\u0008 \"b\" \\"`,
	} {
		if got := string(shortEscapes([]byte(in))); got != want {
			t.Errorf("shortEscapes(%s) = %s, want %s", in, got, want)
		}
		var a, b string
		if json.Unmarshal([]byte(in), &a) == nil && (json.Unmarshal([]byte(want), &b) != nil || a != b) {
			t.Errorf("%s: decodes differently after the rewrite", in)
		}
	}
	if got, _ := Marshal("a\bb"); string(got) != `"a\u0008b"` {
		t.Errorf(`Marshal("a\bb") = %s on every build, want "a\u0008b"`, got)
	}
}

type longStream struct {
	Record string            `json:"record"`
	Text   string            `json:"text"`
	Attrs  map[string]string `json:"attrs"`
	N      []int             `json:"n"`
}

// A process starts a type on segmentio and moves it to sonic only after a
// long stream of it; the bytes and the decoding errors stay the same.
func TestTypeMovesToSonicAfterLongStream(t *testing.T) {
	if !haveFast {
		t.Skip("this build has segmentio only")
	}
	v := longStream{Record: "x", Text: strings.Repeat("<é\b>", 1<<14), Attrs: map[string]string{"b": "1", "a": "\u2028"}, N: []int{3, 1}}
	first, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(`{"record":"x","n":["not a number"]}`)
	var w longStream
	errBefore := Unmarshal(bad, &w)
	if errBefore == nil {
		t.Fatal("no error for a string in an int list")
	}
	st := stateOf(&v)
	if st.enc.fast.Load() || st.dec.fast.Load() {
		t.Fatal("sonic in use for a type seen once")
	}
	deadline := time.Now().Add(30 * time.Second)
	for !st.enc.fast.Load() || !st.dec.fast.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("still segmentio after %d bytes encoded, %d decoded", st.enc.bytes.Load(), st.dec.bytes.Load())
		}
		b, err := Marshal(&v)
		if err != nil || !bytes.Equal(b, first) {
			t.Fatalf("encoding changed before the move: %v", err)
		}
		var back longStream
		if err := Unmarshal(b, &back); err != nil || back.Text != v.Text {
			t.Fatalf("round trip: %v", err)
		}
	}
	if st.enc.bytes.Load() < encodeAfter || st.dec.bytes.Load() < decodeAfter {
		t.Errorf("moved to sonic after %d bytes encoded, %d decoded: before encodeAfter, decodeAfter", st.enc.bytes.Load(), st.dec.bytes.Load())
	}
	after, err := Marshal(v)
	if err != nil || !bytes.Equal(after, first) {
		t.Errorf("sonic wrote other bytes than segmentio: %v", err)
	}
	errAfter := Unmarshal(bad, &w)
	if errAfter == nil || errAfter.Error() != errBefore.Error() {
		t.Errorf("decoding error after the move %v, before %v", errAfter, errBefore)
	}
	var se *sj.UnmarshalTypeError
	if !errors.As(errAfter, &se) {
		t.Errorf("error after the move is not segmentio's: %T", errAfter)
	}
}

type decodedOnly struct {
	Record string `json:"record"`
	Text   string `json:"text"`
}

// A process that only decodes a type compiles only its decoder: the
// encoder stays segmentio's, with nothing compiled for it.
func TestDirectionsMoveApart(t *testing.T) {
	if !haveFast {
		t.Skip("this build has segmentio only")
	}
	line, err := Marshal(decodedOnly{Record: "x", Text: strings.Repeat("a line of text ", 1<<12)})
	if err != nil {
		t.Fatal(err)
	}
	st := stateOf(&decodedOnly{})
	deadline := time.Now().Add(30 * time.Second)
	for !st.dec.fast.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("decoder still segmentio's after %d bytes", st.dec.bytes.Load())
		}
		var v decodedOnly
		if err := Unmarshal(line, &v); err != nil || v.Record != "x" {
			t.Fatal(v, err)
		}
	}
	if st.dec.bytes.Load() < decodeAfter {
		t.Errorf("decoder moved after %d bytes, before decodeAfter", st.dec.bytes.Load())
	}
	if st.enc.started.Load() || st.enc.fast.Load() {
		t.Error("the encoder was compiled for a type this process only decoded")
	}
}
