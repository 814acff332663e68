package c14n

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestVectors(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/vectors.txtar")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]txtar.File{}
	for _, f := range ar.Files {
		want[f.Name] = f
	}
	n := 0
	for _, f := range ar.Files {
		name, ok := strings.CutSuffix(f.Name, ".in")
		if !ok {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			got, err := Canonicalize(f.Data)
			if out, ok := want[name+".out"]; ok {
				if err != nil {
					t.Fatalf("error %v, want %q", err, out.Data)
				}
				if exp := bytes.TrimSuffix(out.Data, []byte("\n")); !bytes.Equal(got, exp) {
					t.Fatalf("got  %q\nwant %q", got, exp)
				}
				return
			}
			code := strings.TrimSpace(string(want[name+".err"].Data))
			var e *Error
			if !errors.As(err, &e) || e.Code != code {
				t.Fatalf("got %q, %v; want error %s", got, err, code)
			}
		})
	}
	if n < 30 {
		t.Errorf("only %d vectors", n)
	}
}

func TestMarshalRejectsFloats(t *testing.T) {
	if _, err := Marshal(map[string]any{"x": 1.5}); err == nil {
		t.Error("a float field canonicalized")
	}
	b, err := Marshal(struct {
		B string `json:"b"`
		A int    `json:"a"`
	}{"<&>", 3})
	if err != nil || string(b) != `{"a":3,"b":"<&>"}` {
		t.Errorf("got %s, %v", b, err)
	}
}

// c14n v1 sorts keys by code point; RFC 8785's UTF-16 order would give
// z, 😀, U+E000, ﬁ. Every way into the canonical bytes is checked.
func TestKeyOrderCodePoint(t *testing.T) {
	const want = "{\"z\":4,\"\ue000\":3,\"ﬁ\":2,\"😀\":1}"
	check := func(how string, got []byte, err error) {
		t.Helper()
		if err != nil || string(got) != want {
			t.Errorf("%s: got %+q, %v; want %+q", how, got, err, want)
		}
	}
	got, err := Canonicalize([]byte(`{"😀":1,"ﬁ":2,"\ue000":3,"z":4}`))
	check("Canonicalize", got, err)
	m := map[string]int{"😀": 1, "ﬁ": 2, "\ue000": 3, "z": 4}
	got, err = Marshal(m)
	check("Marshal map", got, err)
	// A struct tag must be letters: U+1D400 and U+FF21 stand in for 😀 and U+E000.
	s := struct {
		Bold      int `json:"𝐀"`
		Ligature  int `json:"ﬁ"`
		FullWidth int `json:"Ａ"`
		Z         int `json:"z"`
	}{1, 2, 3, 4}
	got, err = Marshal(s)
	if want := `{"z":4,"ﬁ":2,"Ａ":3,"𝐀":1}`; err != nil || string(got) != want {
		t.Errorf("Marshal struct: got %+q, %v; want %+q", got, err, want)
	}
	var b bytes.Buffer
	err = Encode(&b, m)
	check("Encode", b.Bytes(), err)
}

func TestFingerprint(t *testing.T) {
	got := Fingerprint([]byte("abc"))
	if got != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" || !IsFingerprint(got) {
		t.Errorf("got %s", got)
	}
	for _, bad := range []string{"", "sha256:", "sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", "md5:" + strings.Repeat("0", 64)} {
		if IsFingerprint(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestProfile(t *testing.T) {
	p := Profile()
	again, err := Canonicalize(p)
	if err != nil || !bytes.Equal(again, p) {
		t.Fatalf("profile is not canonical: %v", err)
	}
	var doc struct {
		Profile string `json:"profile"`
		Coord   struct {
			Name string `json:"name"`
		} `json:"coordinate_profile"`
		Text struct {
			Name string `json:"name"`
		} `json:"text_normalization"`
		Canon struct {
			Name      string `json:"name"`
			KeyOrder  string `json:"key_order"`
			MaxDigits int    `json:"max_integer_digits"`
			MaxDepth  int    `json:"max_depth"`
		} `json:"canonicalization"`
	}
	if err := json.Unmarshal(p, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Profile != ProfileName || doc.Coord.Name != CoordinateProfile || doc.Text.Name != TextNormalization ||
		doc.Canon.Name != Version || doc.Canon.KeyOrder != KeyOrder || doc.Canon.MaxDigits != MaxDigits || doc.Canon.MaxDepth != MaxDepth {
		t.Errorf("profile disagrees with the code: %+v", doc)
	}
	if !IsFingerprint(ProfileSHA256()) {
		t.Error(ProfileSHA256())
	}
}

func FuzzCanonicalize(f *testing.F) {
	ar, err := txtar.ParseFile("testdata/vectors.txtar")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range ar.Files {
		f.Add(file.Data)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Canonicalize(in)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("canonical output is not JSON: %q", out)
		}
		again, err := Canonicalize(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q → %q (%v)", out, again, err)
		}
	})
}
