package ocr

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
)

// Tesseract reads one script per trained model: Chinese read with eng
// gives Latin letters or nothing. The languages a page is read in come
// from what its document says, never from a guess at its pixels: the
// script a CID font's predefined CMap or character collection names, and
// the document's language tag (PDF /Lang), plus English.

// cmapLangs maps a predefined CMap name's prefix (PDF 32000-1, table 118)
// or a character collection (CIDSystemInfo /Ordering) to Tesseract's
// language; the first match wins, so longer names come first.
var cmapLangs = []struct{ prefix, lang string }{
	{"UniGB", "chi_sim"}, {"GB", "chi_sim"}, // GB-EUC, GBpc-EUC, GBK-EUC, GBKp-EUC, GBK2K; GB1
	{"UniCNS", "chi_tra"}, {"CNS", "chi_tra"}, {"B5", "chi_tra"}, {"ETen", "chi_tra"}, {"HKscs", "chi_tra"},
	{"UniJIS", "jpn"}, {"Japan", "jpn"}, {"83pv", "jpn"}, {"90ms", "jpn"}, {"90pv", "jpn"},
	{"Add-", "jpn"}, {"Ext-", "jpn"}, {"78", "jpn"},
	{"UniKS", "kor"}, {"KSC", "kor"}, {"Korea", "kor"},
}

// jisCMaps are the Japanese CMaps whose names carry no prefix above.
var jisCMaps = []string{"EUC-H", "EUC-V", "H", "V"}

// CMapLanguage is the Tesseract language a predefined CMap name or a
// character collection names ("GBK-EUC-H" and "GB1" → chi_sim), "" when
// it names none (Identity-H, an unknown name).
func CMapLanguage(name string) string {
	name = strings.TrimPrefix(name, "Adobe-")
	if slices.Contains(jisCMaps, name) {
		return "jpn"
	}
	for _, m := range cmapLangs {
		if strings.HasPrefix(name, m.prefix) {
			return m.lang
		}
	}
	return ""
}

// tagLangs maps a BCP 47 primary language subtag to Tesseract's language
// (ISO 639-2, its file names).
var tagLangs = map[string]string{
	"ar": "ara", "bg": "bul", "bn": "ben", "ca": "cat", "cs": "ces", "da": "dan", "de": "deu",
	"el": "ell", "en": "eng", "es": "spa", "et": "est", "fa": "fas", "fi": "fin", "fr": "fra",
	"he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "id": "ind", "it": "ita", "ja": "jpn",
	"ko": "kor", "lt": "lit", "lv": "lav", "nb": "nor", "nl": "nld", "no": "nor", "pl": "pol",
	"pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "sr": "srp", "sv": "swe",
	"th": "tha", "tr": "tur", "uk": "ukr", "vi": "vie",
}

// TagLanguage is the Tesseract language of a BCP 47 tag ("zh-TW" →
// chi_tra, "de-DE" → deu), "" when it is not one Tesseract has. Chinese
// is traditional for Taiwan, Hong Kong, Macau and the Hant script, else
// simplified.
func TagLanguage(tag string) string {
	parts := strings.Split(strings.ToLower(strings.ReplaceAll(strings.TrimSpace(tag), "_", "-")), "-")
	if parts[0] != "zh" {
		return tagLangs[parts[0]]
	}
	for _, p := range parts[1:] {
		switch p {
		case "hant", "tw", "hk", "mo":
			return "chi_tra"
		}
	}
	return "chi_sim"
}

// Languages is the Tesseract languages a page is to be read in, from
// its document's language tag and the CMaps (names or character
// collections) of the fonts whose text it shows without Unicode: each
// once, in that order, English last (Latin words and digits run through
// most documents).
func Languages(tag string, cmaps []string) []string {
	var out []string
	add := func(l string) {
		if l != "" && !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	add(TagLanguage(tag))
	for _, c := range cmaps {
		add(CMapLanguage(c))
	}
	out = slices.DeleteFunc(out, func(l string) bool { return l == "eng" })
	return append(out, "eng")
}

// Package is the Debian package holding a language's trained data
// (chi_sim → tesseract-ocr-chi-sim).
func Package(lang string) string {
	return "tesseract-ocr-" + strings.ReplaceAll(strings.ToLower(lang), "_", "-")
}

// Choice is the languages a read uses, and the ones it wanted but
// Tesseract has no data for.
type Choice struct {
	Lang    string   // Tesseract's -l: installed languages joined by "+" ("chi_sim+eng"); "eng" at least
	Missing []string // wanted, not installed
}

// Gap says what a read without the missing languages lacks and how to
// install them; "" when nothing is missing.
func (c Choice) Gap() string {
	if len(c.Missing) == 0 {
		return ""
	}
	pkgs := make([]string, len(c.Missing))
	for i, l := range c.Missing {
		pkgs[i] = Package(l)
	}
	return fmt.Sprintf("the document's text is in %s, which Tesseract has no trained data for here: read with %s only (apt-get install %s)",
		strings.Join(c.Missing, ", "), c.Lang, strings.Join(pkgs, " "))
}

// Choose keeps the wanted languages that are installed; English is read
// even when not listed (Tesseract's default, checked by Read).
func Choose(wanted, installed []string) Choice {
	var c Choice
	var use []string
	for _, l := range wanted {
		switch {
		case l == "eng" || slices.Contains(installed, l):
			use = append(use, l)
		default:
			c.Missing = append(c.Missing, l)
		}
	}
	if len(use) == 0 {
		use = []string{"eng"}
	}
	c.Lang = strings.Join(use, "+")
	return c
}

// installed caches InstalledLanguages per command.
var installed sync.Map // command → *langsOf

type langsOf struct {
	once  sync.Once
	langs []string
	err   error
}

// InstalledLanguages is what `tesseract --list-langs` lists (osd
// included), cached for the process's life per Command.
func InstalledLanguages() ([]string, error) {
	e, _ := installed.LoadOrStore(Command(), &langsOf{})
	lo := e.(*langsOf)
	lo.once.Do(func() {
		if _, lo.err = Version(); lo.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), versionWait)
		defer cancel()
		out, err := exec.CommandContext(ctx, Command(), "--list-langs").Output()
		if err != nil {
			lo.err = fmt.Errorf("tesseract --list-langs: %v", err)
			return
		}
		lo.langs = parseLangs(string(out))
	})
	return lo.langs, lo.err
}

// parseLangs reads --list-langs: a header line ("List of available
// languages in …"), then one language a line.
func parseLangs(out string) []string {
	var langs []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "List of") {
			langs = append(langs, l)
		}
	}
	return langs
}
