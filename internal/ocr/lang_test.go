package ocr

import (
	"slices"
	"strings"
	"testing"
)

func TestLangFromCMap(t *testing.T) {
	for name, want := range map[string]string{
		"GBK-EUC-H": "chi_sim", "GBK-EUC-V": "chi_sim", "GB-EUC-H": "chi_sim", "GBK2K-H": "chi_sim",
		"UniGB-UCS2-H": "chi_sim", "GB1": "chi_sim", "Adobe-GB1": "chi_sim",
		"B5pc-H": "chi_tra", "ETen-B5-H": "chi_tra", "HKscs-B5-H": "chi_tra", "UniCNS-UTF16-H": "chi_tra", "CNS1": "chi_tra",
		"90ms-RKSJ-H": "jpn", "83pv-RKSJ-H": "jpn", "UniJIS-UCS2-H": "jpn", "EUC-H": "jpn", "H": "jpn", "Japan1": "jpn",
		"KSC-EUC-H": "kor", "KSCms-UHC-H": "kor", "UniKS-UCS2-H": "kor", "Korea1": "kor",
		"Identity-H": "", "Identity": "", "WinAnsiEncoding": "", "": "",
	} {
		if got := CMapLanguage(name); got != want {
			t.Errorf("CMapLanguage(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLangFromTag(t *testing.T) {
	for tag, want := range map[string]string{
		"zh-CN": "chi_sim", "zh": "chi_sim", "zh-Hans-CN": "chi_sim", "zh-TW": "chi_tra", "zh-Hant": "chi_tra",
		"zh_HK": "chi_tra", "ja-JP": "jpn", "ko": "kor", "de-DE": "deu", "EN-us": "eng", "x-klingon": "", "": "",
	} {
		if got := TagLanguage(tag); got != want {
			t.Errorf("TagLanguage(%q) = %q, want %q", tag, got, want)
		}
	}
}

func TestLangChoice(t *testing.T) {
	for _, c := range []struct {
		tag          string
		cmaps        []string
		installed    []string
		lang         string
		missing, pkg string
	}{
		{"", []string{"GB1", "GBK-EUC-H"}, []string{"chi_sim", "eng", "osd"}, "chi_sim+eng", "", ""},
		{"", []string{"GBK-EUC-H"}, []string{"eng", "osd"}, "eng", "chi_sim", "tesseract-ocr-chi-sim"},
		{"en-US", nil, []string{"eng"}, "eng", "", ""},
		{"", nil, nil, "eng", "", ""},
		{"ja", []string{"UniKS-UCS2-H", "Identity-H"}, []string{"eng", "kor"}, "kor+eng", "jpn", "tesseract-ocr-jpn"},
		{"zh-TW", []string{"GBK-EUC-H"}, []string{"chi_sim", "chi_tra", "eng"}, "chi_tra+chi_sim+eng", "", ""},
	} {
		ch := Choose(Languages(c.tag, c.cmaps), c.installed)
		gap := ch.Gap()
		if ch.Lang != c.lang || strings.Join(ch.Missing, ",") != c.missing || c.pkg == "" && gap != "" ||
			c.pkg != "" && !strings.Contains(gap, "apt-get install "+c.pkg) {
			t.Errorf("tag %q, cmaps %v, installed %v: lang %q, missing %v, gap %q; want %q, %q, %s",
				c.tag, c.cmaps, c.installed, ch.Lang, ch.Missing, gap, c.lang, c.missing, c.pkg)
		}
	}
}

func TestLangListParsed(t *testing.T) {
	out := "List of available languages in \"/usr/share/tesseract-ocr/5/tessdata/\" (3):\nchi_sim\neng\nosd\n"
	if got := parseLangs(out); !slices.Equal(got, []string{"chi_sim", "eng", "osd"}) {
		t.Errorf("parseLangs = %v", got)
	}
}
