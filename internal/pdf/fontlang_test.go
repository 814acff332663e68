package pdf

import (
	"bytes"
	"slices"
	"testing"
)

// TestUnmappedFontLanguages: the CMap and character collection of a CID
// font without ToUnicode (pr-136-example's) are what the document says
// of its script; a font PDFium maps says nothing; the catalog's /Lang is
// read.
func TestUnmappedFontLanguages(t *testing.T) {
	if got := FindLanguages(cidPDF("cjk", 3)); !slices.Equal(got.CMaps, []string{"GB1", "GBK-EUC-H"}) || got.Lang != "" {
		t.Errorf("cjk: %+v, want CMaps [GB1 GBK-EUC-H] and no Lang", got)
	}
	if got := FindLanguages(cidPDF("latin", 3)); len(got.CMaps) != 0 {
		t.Errorf("latin: %+v, want no CMaps", got)
	}
	tagged := bytes.Replace(cidPDF("cjk", 3), []byte("/Type/Catalog"), []byte("/Type/Catalog/Lang(zh-CN)"), 1)
	if got := FindLanguages(tagged); got.Lang != "zh-CN" {
		t.Errorf("/Lang(zh-CN): %+v", got)
	}
	mapped := bytes.Replace(cidPDF("cjk", 3), []byte("/Encoding/GBK-EUC-H"), []byte("/Encoding/GBK-EUC-H/ToUnicode 7 0 R"), 1)
	if got := FindLanguages(mapped); len(got.CMaps) != 0 {
		t.Errorf("with ToUnicode: %+v, want no CMaps", got)
	}
}
