package normalize

import (
	"math/bits"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// ScriptMarkers are the tokens looked for, case-insensitively, in inline
// script text, external script URLs and script ids (Doc.Scripts.Markers):
// challenge and bot-defence vendors, and single-page-app frameworks. An
// element with an ng-version attribute (Angular's root) adds "ng-version"
// too.
var ScriptMarkers = []string{
	"challenge-platform", "cf-chl", "_cf_chl_opt", "turnstile", "hcaptcha", "recaptcha",
	"px-captcha", "captcha-delivery", "_incapsula_resource", "datadome", "akamai-bot",
	"awswaf", "__NEXT_DATA__", "window.__NUXT__", "ng-version",
}

var lowerMarkers = func() []string {
	m := make([]string, len(ScriptMarkers))
	for i, s := range ScriptMarkers {
		m[i] = strings.ToLower(s)
	}
	return m
}()

// Limits on document facts.
const (
	maxJSONLD        = 20
	maxJSONLDBytes   = 256 << 10
	maxExternal      = 50
	maxNoscript      = 20
	maxNoscriptBytes = 4 << 10
)

// metaKeys are the meta names kept exactly; og:, twitter: and article:
// prefixes are kept too.
var metaKeys = map[string]bool{
	"description": true, "keywords": true, "author": true, "robots": true,
	"generator": true, "refresh": true,
	// who wrote the page and when (graph's byline and published date)
	"dc.creator": true, "dcterms.creator": true, "citation_author": true,
	"citation_publication_date": true, "citation_date": true, "dc.date": true, "dc.date.issued": true,
	"dcterms.date": true, "dcterms.issued": true, "dcterms.created": true, "date": true,
}

func (w *walker) script(n *html.Node) {
	text := textContent(n)
	s := &w.out.Doc.Scripts
	if mediaType(attr(n, "type")) == "application/ld+json" {
		if t := strings.TrimSpace(text); t != "" && len(w.out.Doc.JSONLD) < maxJSONLD {
			w.out.Doc.JSONLD = append(w.out.Doc.JSONLD, capText(t, maxJSONLDBytes))
		}
		return
	}
	s.Count++
	s.InlineBytes += len(text)
	src := strings.TrimSpace(attr(n, "src"))
	if src != "" {
		src = w.resolve(capText(src, maxAttrBytes))
		if len(s.External) < maxExternal {
			s.External = append(s.External, src)
		}
	}
	w.findMarkers(text, src, attr(n, "id"))
}

// findMarkers adds the markers found in texts, in ScriptMarkers order
// within one script, each once per document. The markers are ASCII and
// matched ASCII-case-insensitively, in one pass over each text.
func (w *walker) findMarkers(texts ...string) {
	if len(w.markers) == len(lowerMarkers) {
		return
	}
	var found uint64
	for _, t := range texts {
		found |= markerScan(t)
	}
	for i, m := range lowerMarkers {
		if found&(1<<i) != 0 && !w.markers[m] {
			w.addMarker(ScriptMarkers[i])
		}
	}
}

// markerFirst[c] and markerSecond[c] are the markers (bits, by index in
// lowerMarkers) whose first and second bytes are c.
var markerFirst, markerSecond = func() (first, second [256]uint64) {
	if len(lowerMarkers) > 64 {
		panic("normalize: more than 64 script markers")
	}
	for i, m := range lowerMarkers {
		first[m[0]] |= 1 << i
		second[m[1]] |= 1 << i
	}
	return first, second
}()

// markerScan returns the markers that occur in t, ignoring ASCII case.
func markerScan(t string) uint64 {
	var found uint64
	for i := 0; i+1 < len(t); i++ {
		mask := markerFirst[lowerASCII(t[i])] & markerSecond[lowerASCII(t[i+1])] &^ found
		for mask != 0 {
			k := bits.TrailingZeros64(mask)
			mask &^= 1 << k
			if m := lowerMarkers[k]; len(t)-i >= len(m) && equalFoldASCII(t[i:i+len(m)], m) {
				found |= 1 << k
			}
		}
	}
	return found
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	return c
}

// equalFoldASCII compares s with the lower-case ASCII string lower,
// ignoring ASCII case in s.
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

func (w *walker) addMarker(m string) {
	key := strings.ToLower(m)
	if w.markers[key] {
		return
	}
	w.markers[key] = true
	w.out.Doc.Scripts.Markers = append(w.out.Doc.Scripts.Markers, m)
}

// noscript keeps the text of a <noscript>, which the parser (scripting on,
// as in a browser with JavaScript) holds as raw markup.
func (w *walker) noscript(n *html.Node) {
	if len(w.out.Doc.Noscript) >= maxNoscript {
		return
	}
	if t := markupText(textContent(n)); t != "" {
		w.out.Doc.Noscript = append(w.out.Doc.Noscript, capText(t, maxNoscriptBytes))
	}
}

// markupText is the normalised text of an HTML fragment, script and style
// content left out, block boundaries read as spaces.
func markupText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := false
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return strings.TrimSpace(textnorm.Text(b.String()))
		case html.TextToken:
			if !skip {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if a == atom.Script || a == atom.Style {
				skip = tt == html.StartTagToken
			}
			b.WriteByte(' ')
		}
		if b.Len() > 4*maxNoscriptBytes {
			return strings.TrimSpace(textnorm.Text(b.String()))
		}
	}
}

func (w *walker) meta(n *html.Node) {
	key := ""
	for _, k := range []string{"name", "property", "http-equiv"} {
		if key = strings.ToLower(strings.TrimSpace(attr(n, k))); key != "" {
			break
		}
	}
	if !metaKeys[key] && !strings.HasPrefix(key, "og:") && !strings.HasPrefix(key, "twitter:") && !strings.HasPrefix(key, "article:") {
		return
	}
	if !hasAttr(n, "content") {
		return
	}
	if w.out.Doc.Meta == nil {
		w.out.Doc.Meta = map[string]string{}
	}
	if _, seen := w.out.Doc.Meta[key]; !seen {
		w.out.Doc.Meta[capText(key, 256)] = capText(strings.TrimSpace(attr(n, "content")), maxAttrBytes)
	}
}

func (w *walker) link(n *html.Node) {
	if w.out.Doc.Canonical != "" || !hasAttr(n, "href") {
		return
	}
	for _, r := range strings.Fields(attr(n, "rel")) {
		if strings.EqualFold(r, "canonical") {
			w.out.Doc.Canonical = capText(w.resolve(capText(strings.TrimSpace(attr(n, "href")), maxAttrBytes)), maxAttrBytes)
			return
		}
	}
}

func (w *walker) title(n *html.Node) {
	if w.titleSeen {
		return
	}
	w.titleSeen = true
	w.out.Doc.Title = capText(strings.TrimSpace(textnorm.Text(textContent(n))), maxAttrBytes)
}

// elementFacts records what an emitted element says about the document.
func (w *walker) elementFacts(n *html.Node, parent int) {
	if parent < 0 && n.DataAtom == atom.Html {
		if lang := strings.TrimSpace(attr(n, "lang")); lang != "" {
			w.out.Doc.Lang = capText(lang, 64)
		}
	}
	if hasAttr(n, "ng-version") {
		w.addMarker("ng-version")
	}
}
