package pdf

import "slices"

// Languages is what a PDF says of its text's languages, for reading its
// pages by OCR: the catalog's /Lang, and the scripts its CID fonts name
// when the text layer cannot give their characters.
type Languages struct {
	// Lang is the catalog's /Lang (a BCP 47 tag such as "zh-CN"), "" when
	// there is none.
	Lang string
	// CMaps are the predefined CMap names (GBK-EUC-H, 90ms-RKSJ-H, …) and
	// character collections (the descendant font's /Ordering: GB1, CNS1,
	// Japan1, Korea1) of the Type0 fonts that have no ToUnicode map: the
	// fonts whose glyphs PDFium may fail to map, sorted, each once.
	// Identity-H and Identity-V name no script and are left out.
	CMaps []string
}

// FindLanguages reads the languages data's PDF names (see Languages) with
// the script scan's object reader (FindScripts): it never fails, and what
// it cannot read (an encrypted file's object streams) it does not report.
func FindLanguages(data []byte) Languages {
	s := &scan{objs: map[int]value{}, budget: maxObjStmBytes}
	s.objects(data)
	var out Languages
	if cat := s.get(s.root); cat.kind == 'd' {
		out.Lang = s.get(cat.dict["Lang"]).name
	}
	seen := map[string]bool{}
	add := func(name string) {
		if name != "" && name != "Identity-H" && name != "Identity-V" && !seen[name] {
			seen[name] = true
			out.CMaps = append(out.CMaps, name)
		}
	}
	for _, v := range s.objs {
		if v.kind != 'd' || !nameIs(v.dict["Subtype"], "Type0") {
			continue
		}
		if _, ok := v.dict["ToUnicode"]; ok {
			continue
		}
		add(s.cmapName(v.dict["Encoding"]))
		for _, d := range s.get(v.dict["DescendantFonts"]).arr {
			if info := s.get(s.get(d).dict["CIDSystemInfo"]); info.kind == 'd' {
				add(s.get(info.dict["Ordering"]).name)
			}
		}
	}
	slices.Sort(out.CMaps)
	return out
}

// cmapName is a Type0 font's /Encoding: a predefined CMap's name, or an
// embedded CMap stream's /CMapName.
func (s *scan) cmapName(v value) string {
	switch e := s.get(v); e.kind {
	case 'n':
		return e.name
	case 'd':
		if n := s.get(e.dict["CMapName"]); n.kind == 'n' {
			return n.name
		}
	}
	return ""
}
