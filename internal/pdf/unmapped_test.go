package pdf

import (
	"bytes"
	"fmt"
	"testing"
)

// cidPDF is a one-page PDF whose text is n two-byte codes (GBK for 关于,
// drawn one Tj each, as OCR layers place glyphs) in font: "cjk" is a
// Type0 font with the predefined GBK-EUC-H CMap, a CIDFontType2 not
// embedded and no ToUnicode (pr-136-example's OCR layer), "latin" the
// same two letters "ok" in Helvetica.
func cidPDF(font string, n int) []byte {
	var content bytes.Buffer
	for i := range n {
		code := "<B9D8>"
		if font == "latin" {
			code = "(ok)"
		}
		fmt.Fprintf(&content, "BT /F1 12 Tf %d %d Td %s Tj ET\n", 50+(i%20)*25, 700-(i/20)*20, code)
	}
	fonts := map[string][]string{
		"cjk": {
			"<</Type/Font/Subtype/Type0/BaseFont/SimSun-GBK-EUC-H/Encoding/GBK-EUC-H/DescendantFonts[6 0 R]>>",
			"<</Type/Font/Subtype/CIDFontType2/BaseFont/SimSun/DW 1000/CIDSystemInfo<</Ordering(GB1)/Registry(Adobe)/Supplement 2>>/FontDescriptor 7 0 R>>",
			"<</Type/FontDescriptor/FontBBox[-8 -145 1000 859]/FontName/SimSun/Flags 32/StemV 88/CapHeight 684/Ascent 859/Descent -141/ItalicAngle 0>>",
		},
		"latin": {"<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>", "<<>>", "<<>>"},
	}[font]
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

// TestUnmappedText: text drawn in a font whose glyphs PDFium cannot map
// to Unicode gives no characters, and the page counts it; the same
// layout in a font it reads counts nothing, nor do a few such runs.
func TestUnmappedText(t *testing.T) {
	for _, c := range []struct {
		font string
		n    int
		want func(int) bool
		says string
	}{
		{"cjk", 60, func(u int) bool { return u == 60 }, "60"},
		{"cjk", unmappedMin - 1, func(u int) bool { return u == 0 }, "0 (under the bar)"},
		{"latin", 60, func(u int) bool { return u == 0 }, "0"},
	} {
		doc, err := Parse(cidPDF(c.font, c.n))
		if err != nil {
			t.Fatal(err)
		}
		p := doc.Pages[0]
		if !c.want(p.Unmapped) {
			t.Errorf("%s font, %d runs: Unmapped = %d, want %s (%d characters read)", c.font, c.n, p.Unmapped, c.says, len(p.Chars))
		}
	}
}
