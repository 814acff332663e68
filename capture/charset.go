package capture

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// mediaType returns the lower-case media type of a Content-Type value and
// its charset parameter. With no Content-Type the body is sniffed.
func mediaType(contentType string, body []byte) (mt, charset string) {
	if strings.TrimSpace(contentType) == "" {
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(body))
		return mt, ""
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
		return strings.ToLower(strings.TrimSpace(mt)), ""
	}
	return mt, params["charset"]
}

// isText reports the media types whose body capture keeps as text.
func isText(mt string) bool {
	return strings.HasPrefix(mt, "text/") || mt == "application/xhtml+xml" ||
		mt == "application/xml" || strings.HasSuffix(mt, "+xml") ||
		mt == "application/json" || strings.HasSuffix(mt, "+json")
}

func isHTML(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

// declaration is a charset label a header or the document itself gave.
type declaration struct {
	label  string // as written, lower case
	name   string // canonical WHATWG name; "" when the label is unknown
	source string // "header" or "meta"
}

func declare(label, source string) declaration {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	d := declaration{label: label, source: source}
	if label == "" {
		return d
	}
	if e, err := htmlindex.Get(label); err == nil {
		d.name, _ = htmlindex.Name(e)
	}
	return d
}

var boms = []struct {
	bom  []byte
	name string
}{
	{[]byte{0xEF, 0xBB, 0xBF}, "utf-8"},
	{[]byte{0xFF, 0xFE}, "utf-16le"},
	{[]byte{0xFE, 0xFF}, "utf-16be"},
}

// decodeText decides the body's encoding and returns it as UTF-8. The order
// is: BOM, a body that is valid UTF-8 as a whole, the Content-Type charset,
// the document's own declaration (<meta> in the first 1024 bytes of HTML, or
// the XML declaration), and windows-1252 as the last resort.
func decodeText(body []byte, mt, headerLabel string, truncated bool) (string, Charset) {
	decls := []declaration{declare(headerLabel, "header"), declare(documentLabel(body, mt), "meta")}
	for _, b := range boms {
		if bytes.HasPrefix(body, b.bom) {
			return transcode(body[len(b.bom):], b.name, truncated), decided(b.name, "bom", decls)
		}
	}
	if utf8.Valid(completeRunes(body, truncated)) && !sevenBitLegacy(body, decls) {
		return transcode(body, "utf-8", truncated), decided("utf-8", "utf8-valid", decls)
	}
	for _, d := range decls {
		if d.name != "" {
			return transcode(body, d.name, truncated), decided(d.name, d.source, decls)
		}
	}
	return transcode(body, "windows-1252", truncated), decided("windows-1252", "default", decls)
}

// decided records the decision, with the first declaration that named
// something else.
func decided(name, source string, decls []declaration) Charset {
	cs := Charset{Name: name, Source: source}
	for _, d := range decls {
		if d.label != "" && d.name != name {
			cs.Declared = d.label
			break
		}
	}
	return cs
}

// sevenBitLegacy reports a body declared as ISO-2022-JP that uses its escape
// sequences: such a body is all ASCII bytes, so UTF-8 validity says nothing.
func sevenBitLegacy(body []byte, decls []declaration) bool {
	for _, d := range decls {
		if d.name == "iso-2022-jp" {
			return bytes.IndexByte(body, 0x1B) >= 0
		}
	}
	return false
}

// completeRunes drops a rune the size cap cut in half.
func completeRunes(b []byte, truncated bool) []byte {
	if !truncated {
		return b
	}
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		if c := b[len(b)-i]; utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// transcode decodes b from the named encoding to UTF-8; bytes the encoding
// cannot map become U+FFFD.
func transcode(b []byte, name string, truncated bool) string {
	if name == "utf-8" {
		return strings.ToValidUTF8(string(completeRunes(b, truncated)), "\uFFFD")
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		e = encoding.Nop
	}
	out, err := e.NewDecoder().Bytes(b)
	if err != nil {
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

// documentLabel returns the charset the document declares about itself: the
// XML declaration's encoding, or for HTML a <meta charset> or http-equiv
// Content-Type in the first 1024 bytes.
func documentLabel(body []byte, mt string) string {
	if len(body) > 1024 {
		body = body[:1024]
	}
	if bytes.HasPrefix(body, []byte("<?xml")) {
		return xmlEncoding(body)
	}
	if !isHTML(mt) {
		return ""
	}
	return metaCharset(body)
}

func xmlEncoding(b []byte) string {
	end := bytes.Index(b, []byte("?>"))
	if end < 0 {
		return ""
	}
	return attrValue(string(b[:end]), "encoding")
}

// metaCharset prescans HTML for a charset declaration, as the HTML standard
// does before parsing. A declared UTF-16 means UTF-8 there.
func metaCharset(b []byte) string {
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return ""
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		if name, hasAttr := z.TagName(); string(name) == "meta" && hasAttr {
			if label := metaTagCharset(z); label != "" {
				if strings.HasPrefix(strings.ToLower(label), "utf-16") {
					return "utf-8"
				}
				return label
			}
		}
	}
}

func metaTagCharset(z *html.Tokenizer) string {
	var charset, content string
	pragma := false
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) {
		case "charset":
			charset = string(v)
		case "content":
			content = string(v)
		case "http-equiv":
			pragma = strings.EqualFold(string(v), "content-type")
		}
	}
	if charset != "" {
		return charset
	}
	if pragma {
		return attrValue(content, "charset")
	}
	return ""
}

// attrValue finds name=value (value quoted or bare) in s, case-insensitively.
func attrValue(s, name string) string {
	lower := asciiLower(s)
	for i := 0; ; {
		j := strings.Index(lower[i:], name)
		if j < 0 {
			return ""
		}
		rest := strings.TrimLeft(s[i+j+len(name):], " \t\r\n\f")
		i += j + len(name)
		if !strings.HasPrefix(rest, "=") {
			continue
		}
		rest = strings.TrimLeft(rest[1:], " \t\r\n\f")
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			if v, _, ok := strings.Cut(rest[1:], rest[:1]); ok {
				return v
			}
			return ""
		}
		v, _, _ := strings.Cut(rest, ";")
		if f := strings.Fields(v); len(f) > 0 {
			return f[0]
		}
		return ""
	}
}

// asciiLower lower-cases A-Z only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
