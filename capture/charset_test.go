package capture

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/unicode"
)

func encode(t *testing.T, e encoding.Encoding, s string) string {
	t.Helper()
	b, err := e.NewEncoder().String(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCharsets(t *testing.T) {
	cases := []struct {
		name, contentType, body string
		want                    Charset
		text                    string
	}{
		{"windows-1252 header", "text/html; charset=windows-1252", "\x93quoted\x94 caf\xe9",
			Charset{Name: "windows-1252", Source: "header"}, "“quoted” café"},
		{"latin-1 header means windows-1252", "text/plain; charset=ISO-8859-1", "caf\xe9 \x80",
			Charset{Name: "windows-1252", Source: "header"}, "café €"},
		{"meta charset", "text/html", `<html><head><meta charset="euc-kr"></head><body>` + encode(t, korean.EUCKR, "한국어 문서") + `</body></html>`,
			Charset{Name: "euc-kr", Source: "meta"}, `<html><head><meta charset="euc-kr"></head><body>한국어 문서</body></html>`},
		{"meta http-equiv", "text/html", `<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>` + encode(t, japanese.ShiftJIS, "日本語のページ"),
			Charset{Name: "shift_jis", Source: "meta"}, `<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><p>日本語のページ`},
		{"Shift_JIS header", "text/plain; charset=Shift_JIS", encode(t, japanese.ShiftJIS, "日本語のテキスト"),
			Charset{Name: "shift_jis", Source: "header"}, "日本語のテキスト"},
		{"header wins over meta", "text/html; charset=windows-1252", "<meta charset=\"shift_jis\">caf\xe9",
			Charset{Name: "windows-1252", Source: "header", Declared: "shift_jis"}, "<meta charset=\"shift_jis\">café"},
		{"UTF-8 BOM", "text/html; charset=windows-1252", "\xef\xbb\xbfcafé",
			Charset{Name: "utf-8", Source: "bom", Declared: "windows-1252"}, "café"},
		{"UTF-16LE BOM", "text/plain", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "wide café"),
			Charset{Name: "utf-16le", Source: "bom"}, "wide café"},
		{"valid UTF-8 despite latin-1", "text/html; charset=iso-8859-1", "<p>café — naïve</p>",
			Charset{Name: "utf-8", Source: "utf8-valid", Declared: "iso-8859-1"}, "<p>café — naïve</p>"},
		{"plain ASCII", "text/html", "<p>plain</p>",
			Charset{Name: "utf-8", Source: "utf8-valid"}, "<p>plain</p>"},
		{"default windows-1252", "text/html", "<p>caf\xe9</p>",
			Charset{Name: "windows-1252", Source: "default"}, "<p>café</p>"},
		{"unknown label", "text/html; charset=x-no-such", "caf\xe9",
			Charset{Name: "windows-1252", Source: "default", Declared: "x-no-such"}, "café"},
		{"XML declaration", "application/xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf\xe9</a>",
			Charset{Name: "windows-1252", Source: "meta"}, "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>café</a>"},
		{"invalid UTF-8 declared UTF-8", "text/plain; charset=utf-8", "ok \xff ok",
			Charset{Name: "utf-8", Source: "header"}, "ok \ufffd ok"},
		{"ISO-2022-JP is not taken for UTF-8", "text/plain; charset=iso-2022-jp", encode(t, japanese.ISO2022JP, "日本"),
			Charset{Name: "iso-2022-jp", Source: "header"}, "日本"},
	}
	bodies := map[string]string{}
	types := map[string]string{}
	for i, c := range cases {
		bodies[fmt.Sprint(i)], types[fmt.Sprint(i)] = c.body, c.contentType
	}
	srv := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Path[1:]
		w.Header().Set("Content-Type", types[id])
		fmt.Fprint(w, bodies[id])
	}))
	o := testOptions()
	o.IgnoreRobots = true
	c := newCapturer(t, o)
	for i, tc := range cases {
		rec := captureURL(t, c, fmt.Sprintf("%s/%d", srv.URL, i))
		if rec.Error != nil {
			t.Errorf("%s: error %+v", tc.name, rec.Error)
			continue
		}
		if rec.Charset != tc.want {
			t.Errorf("%s: charset %+v, want %+v", tc.name, rec.Charset, tc.want)
		}
		if rec.Body != tc.text {
			t.Errorf("%s: body %q, want %q", tc.name, rec.Body, tc.text)
		}
	}
}

func TestMetaCharsetOnlyInFirst1024Bytes(t *testing.T) {
	body := []byte("<html><head><!--" + strings.Repeat("x", 1100) + "--><meta charset=\"euc-kr\"></head>caf\xe9")
	_, cs := decodeText(body, "text/html", "", false)
	if cs.Source != "default" {
		t.Errorf("a <meta> after byte 1024 was used: %+v", cs)
	}
}

func TestAttrValue(t *testing.T) {
	cases := map[string]string{
		"text/html; charset=UTF-8":     "UTF-8",
		"text/html;charset='koi8-r' x": "koi8-r",
		`version="1.0" encoding="x"`:   "x",
		"text/html; charset=":          "",
		"text/html; charset = \"a b\"": "a b",
		"no declaration":               "",
		"charsetx=1; charset=big5":     "big5",
	}
	for in, want := range cases {
		name := "charset"
		if want == "x" {
			name = "encoding"
		}
		if got := attrValue(in, name); got != want {
			t.Errorf("attrValue(%q) = %q, want %q", in, got, want)
		}
	}
}
