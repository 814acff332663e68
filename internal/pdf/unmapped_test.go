package pdf

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// cidPDF is a one-page PDF whose text is n two-byte codes (GBK for 关,
// drawn one Tj each, as OCR layers place glyphs) in font: "cjk" is a
// Type0 font with the predefined GBK-EUC-H CMap, a CIDFontType2 not
// embedded and no ToUnicode (pr-136-example's OCR layer); "identity" the
// same with Identity-H and the Identity ordering (codes that name no
// character); "outside" the cjk font with the code <FF>, outside its
// CMap's code space; "latin" the two letters "ok" in Helvetica.
func cidPDF(font string, n int) []byte {
	var content bytes.Buffer
	for i := range n {
		code := map[string]string{"latin": "(ok)", "outside": "<FF>"}[font]
		if code == "" {
			code = "<B9D8>"
		}
		fmt.Fprintf(&content, "BT /F1 12 Tf %d %d Td %s Tj ET\n", 50+(i%20)*25, 700-(i/20)*20, code)
	}
	fonts := map[string][]string{
		"cjk": {
			"<</Type/Font/Subtype/Type0/BaseFont/SimSun-GBK-EUC-H/Encoding/GBK-EUC-H/DescendantFonts[6 0 R]>>",
			"<</Type/Font/Subtype/CIDFontType2/BaseFont/SimSun/DW 1000/CIDSystemInfo<</Ordering(GB1)/Registry(Adobe)/Supplement 2>>/FontDescriptor 7 0 R>>",
			"<</Type/FontDescriptor/FontBBox[-8 -145 1000 859]/FontName/SimSun/Flags 32/StemV 88/CapHeight 684/Ascent 859/Descent -141/ItalicAngle 0>>",
		},
		"identity": {
			"<</Type/Font/Subtype/Type0/BaseFont/SimSun/Encoding/Identity-H/DescendantFonts[6 0 R]>>",
			"<</Type/Font/Subtype/CIDFontType2/BaseFont/SimSun/DW 1000/CIDSystemInfo<</Ordering(Identity)/Registry(Adobe)/Supplement 0>>/FontDescriptor 7 0 R>>",
			"<</Type/FontDescriptor/FontBBox[-8 -145 1000 859]/FontName/SimSun/Flags 32/StemV 88/CapHeight 684/Ascent 859/Descent -141/ItalicAngle 0>>",
		},
		"latin": {"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>", "<<>>", "<<>>"},
	}[strings.Replace(font, "outside", "cjk", 1)]
	objs := []string{
		"<</Type/Catalog/Pages 2 0 R>>",
		"<</Type/Pages/Kids[3 0 R]/Count 1>>",
		"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>",
		fmt.Sprintf("<</Length %d>>\nstream\n%sendstream", content.Len(), content.String()),
	}
	objs = append(objs, fonts...)
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, x)
	return b.Bytes()
}

// TestUnmappedText: one-glyph text objects in a font not embedded, whose
// glyphs have no outline here, are points PDFium's text page leaves out;
// they are read again (revive) and give their characters when the font's
// CMap names them (GBK-EUC-H), with boxes a glyph tall. Codes that name
// no character (Identity-H with the Identity ordering, a code outside the
// CMap's code space) give none and are counted; a few such runs, or a font PDFium reads, count nothing.
func TestUnmappedText(t *testing.T) {
	for _, c := range []struct {
		font     string
		n        int
		unmapped int
		text     string // the page's characters, generated spaces left out
	}{
		{"cjk", 60, 0, strings.Repeat("关", 60)},
		{"identity", 60, 60, ""},
		{"identity", unmappedMin - 1, 0, ""},
		{"outside", 60, 60, ""},
		{"latin", 60, 0, strings.Repeat("ok", 60)},
	} {
		doc, err := Parse(cidPDF(c.font, c.n))
		if err != nil {
			t.Fatal(err)
		}
		p := doc.Pages[0]
		var text strings.Builder
		for _, ch := range p.Chars {
			if !ch.Generated && ch.Rune != ' ' {
				text.WriteRune(ch.Rune)
			}
			if c.font == "cjk" && !ch.Generated && ch.Box.Y1-ch.Box.Y0 < 10 {
				t.Errorf("cjk: %q box %+v is not a 12 pt glyph tall", ch.Rune, ch.Box)
			}
		}
		if p.Unmapped != c.unmapped || text.String() != c.text {
			t.Errorf("%s font, %d runs: Unmapped = %d, text %q; want %d, %q", c.font, c.n, p.Unmapped, text.String(), c.unmapped, c.text)
		}
	}
}

// TestReviveRawSameAsRequests: the second read of revived text objects
// (and the loose boxes and Unicode errors it reads) gives the same page
// through the direct calls as through go-pdfium's requests.
func TestReviveRawSameAsRequests(t *testing.T) {
	for _, font := range []string{"cjk", "outside"} {
		raw, rawErr := parseVia(t, cidPDF(font, 60), true)
		req, reqErr := parseVia(t, cidPDF(font, 60), false)
		if rawErr != nil || reqErr != nil {
			t.Fatal(rawErr, reqErr)
		}
		if !reflect.DeepEqual(raw, req) {
			t.Errorf("%s: the direct calls and the requests read different pages:\n%+v\n%+v", font, raw.Pages[0], req.Pages[0])
		}
	}
}
