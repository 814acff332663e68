package normalize

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Security is the served markup's inventory of what bears on trust
// (SPEC.md §4.8, the security report): counts, and short capped lists.
// It is read from the served HTML only: what scripts add at run time is
// not in it. Hidden elements count like visible ones.
type Security struct {
	// Scripts that run: <script> without a type, with a JavaScript MIME
	// type or type=module (data blocks such as application/json or
	// text/template do not run and are not counted). External ones have a
	// src.
	InlineScripts   int `json:"inline_scripts"`
	ExternalScripts int `json:"external_scripts"`
	Iframes         int `json:"iframes"` // <iframe> and <frame>
	Forms           int `json:"forms"`
	// EventHandlers counts on* attributes (onclick, onerror, …) on any
	// element; HandlerNames are their distinct names, in order of first
	// appearance, at most maxHandlerNames.
	EventHandlers int      `json:"event_handlers"`
	HandlerNames  []string `json:"handler_names,omitempty"`
	// JavaScriptURLs counts javascript: URLs in href, src, action,
	// formaction and data attributes.
	JavaScriptURLs int `json:"javascript_urls"`
	// Resources counts the URLs the page loads as it is shown (see
	// resourceAttrs); ExternalResources those on another site (a host
	// other than the page's, a leading www. ignored, as links' external);
	// ExternalHosts their distinct hosts, in order, at most maxExternalHosts.
	Resources         int      `json:"resources"`
	ExternalResources int      `json:"external_resources"`
	ExternalHosts     []string `json:"external_hosts,omitempty"`
	// MetaRefresh is each <meta http-equiv=refresh>, at most
	// maxMetaRefresh of them.
	MetaRefresh []MetaRefresh `json:"meta_refresh,omitempty"`
}

// MetaRefresh is a <meta http-equiv=refresh>: a timed reload or redirect.
type MetaRefresh struct {
	Delay    int    `json:"delay"`         // seconds (0 when the content gives none)
	URL      string `json:"url,omitempty"` // the target, resolved; absent: the page reloads itself
	External bool   `json:"external"`      // the target is on another site
}

// Limits on the security lists.
const (
	maxHandlerNames  = 20
	maxExternalHosts = 20
	maxMetaRefresh   = 5
)

// resourceAttrs are the attributes whose URL an element loads as the page
// is shown, by element. <link> loads only for the rels in loadingRels;
// <input> only as type=image.
var resourceAttrs = map[atom.Atom][]string{
	atom.Img: {"src"}, atom.Script: {"src"}, atom.Iframe: {"src"}, atom.Frame: {"src"},
	atom.Embed: {"src"}, atom.Object: {"data"}, atom.Video: {"src", "poster"},
	atom.Audio: {"src"}, atom.Source: {"src"}, atom.Track: {"src"}, atom.Input: {"src"},
	atom.Link: {"href"},
}

// loadingRels are the <link rel> tokens that make a browser fetch href.
var loadingRels = map[string]bool{
	"stylesheet": true, "icon": true, "apple-touch-icon": true, "apple-touch-icon-precomposed": true,
	"mask-icon": true, "preload": true, "modulepreload": true, "prefetch": true, "prerender": true,
	"manifest": true,
}

// urlAttr reports the attributes where a javascript: URL runs a script.
func urlAttr(k string) bool {
	switch k {
	case "href", "src", "action", "formaction", "data":
		return true
	}
	return false
}

// security adds element n (of any namespace) to the inventory.
func (w *walker) security(n *html.Node) {
	s := w.sec()
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		switch {
		case len(a.Key) > 2 && strings.HasPrefix(a.Key, "on"):
			s.EventHandlers++
			w.handlerName(a.Key)
		case urlAttr(a.Key) && isJavaScriptURL(a.Val):
			s.JavaScriptURLs++
		}
	}
	if n.Namespace != "" {
		if n.Data == "script" {
			w.scriptFacts(n) // an svg script
		}
		return
	}
	switch n.DataAtom {
	case atom.Script:
		w.scriptFacts(n)
	case atom.Iframe, atom.Frame:
		s.Iframes++
	case atom.Form:
		s.Forms++
	case atom.Meta:
		if strings.EqualFold(strings.TrimSpace(attr(n, "http-equiv")), "refresh") {
			w.metaRefresh(attr(n, "content"))
		}
	}
	w.resources(n)
}

func (w *walker) sec() *Security {
	if w.out.Doc.Security == nil {
		w.out.Doc.Security = &Security{}
	}
	return w.out.Doc.Security
}

func (w *walker) handlerName(k string) {
	s := w.sec()
	if len(s.HandlerNames) >= maxHandlerNames {
		return
	}
	for _, h := range s.HandlerNames {
		if h == k {
			return
		}
	}
	s.HandlerNames = append(s.HandlerNames, capText(k, 64))
}

// scriptFacts counts a script that runs.
func (w *walker) scriptFacts(n *html.Node) {
	if !runs(attr(n, "type")) {
		return
	}
	s := w.sec()
	if strings.TrimSpace(attr(n, "src")) != "" {
		s.ExternalScripts++
	} else {
		s.InlineScripts++
	}
}

// runs reports whether a script of this type attribute is run by a
// browser: no type, a JavaScript MIME type, or module (HTML's rules).
func runs(typ string) bool {
	t := strings.ToLower(strings.TrimSpace(typ))
	if t == "" || t == "module" {
		return true
	}
	t = mediaType(t)
	return t == "text/javascript" || t == "application/javascript" || t == "application/ecmascript" ||
		t == "text/ecmascript" || t == "application/x-javascript" || t == "text/x-javascript" ||
		t == "text/jscript" || t == "text/livescript" || t == "application/x-ecmascript" ||
		strings.HasPrefix(t, "text/javascript1.")
}

// resources counts the URLs element n loads.
func (w *walker) resources(n *html.Node) {
	keys := resourceAttrs[n.DataAtom]
	if keys == nil {
		return
	}
	switch n.DataAtom {
	case atom.Link:
		loads := false
		for _, r := range strings.Fields(strings.ToLower(attr(n, "rel"))) {
			loads = loads || loadingRels[r]
		}
		if !loads {
			return
		}
	case atom.Input:
		if !strings.EqualFold(strings.TrimSpace(attr(n, "type")), "image") {
			return
		}
	}
	for _, k := range keys {
		v := strings.TrimSpace(attr(n, k))
		if v == "" || opaqueScheme(v) {
			continue
		}
		w.resource(w.resolve(capText(v, maxAttrBytes)))
	}
}

func (w *walker) resource(abs string) {
	s := w.sec()
	s.Resources++
	host, ok := w.otherSite(abs)
	if !ok {
		return
	}
	s.ExternalResources++
	if len(s.ExternalHosts) >= maxExternalHosts {
		return
	}
	for _, h := range s.ExternalHosts {
		if h == host {
			return
		}
	}
	s.ExternalHosts = append(s.ExternalHosts, host)
}

// otherSite reports whether abs is an http(s) URL on a host other than
// the page's (a leading www. ignored on both), and that host.
func (w *walker) otherSite(abs string) (string, bool) {
	u, err := url.Parse(abs)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "") {
		return "", false
	}
	host := strings.ToLower(u.Hostname())
	return capText(host, 256), siteOf(host) != siteOf(w.pageHost())
}

func siteOf(host string) string { return strings.TrimPrefix(host, "www.") }

// pageHost is the host of the page's final URL (else the requested one),
// lower case; "" when it has none (a local file).
func (w *walker) pageHost() string {
	if w.host == nil {
		page := w.out.FinalURL
		if page == "" {
			page = w.out.URL
		}
		h := ""
		if u, err := url.Parse(cleanURL(page)); err == nil {
			h = strings.ToLower(u.Hostname())
		}
		w.host = &h
	}
	return *w.host
}

// metaRefresh records a refresh's delay and target: "5", "0; url=/next",
// "3;URL='https://example.org/'".
func (w *walker) metaRefresh(content string) {
	s := w.sec()
	if len(s.MetaRefresh) >= maxMetaRefresh {
		return
	}
	c := strings.TrimSpace(content)
	i := 0
	for i < len(c) && (c[i] >= '0' && c[i] <= '9' || c[i] == '.') {
		i++
	}
	delay, _ := strconv.Atoi(strings.SplitN(c[:i], ".", 2)[0])
	rest := strings.TrimLeft(c[i:], " \t\n\r\f;,")
	if len(rest) >= 3 && strings.EqualFold(rest[:3], "url") {
		if r := strings.TrimLeft(rest[3:], " \t\n\r\f"); strings.HasPrefix(r, "=") {
			rest = strings.TrimLeft(r[1:], " \t\n\r\f")
		}
	}
	if len(rest) > 0 && (rest[0] == '\'' || rest[0] == '"') {
		q := rest[0]
		rest = rest[1:]
		if j := strings.IndexByte(rest, q); j >= 0 {
			rest = rest[:j]
		}
	}
	m := MetaRefresh{Delay: delay}
	if rest = strings.TrimSpace(rest); rest != "" {
		m.URL = capText(w.resolve(capText(rest, maxAttrBytes)), maxAttrBytes)
		_, m.External = w.otherSite(m.URL)
	}
	s.MetaRefresh = append(s.MetaRefresh, m)
}

func isJavaScriptURL(v string) bool {
	const scheme = "javascript:"
	v = strings.TrimLeft(v, " \t\n\r\f\x00")
	j := 0
	// Browsers drop tabs and newlines inside the scheme.
	for i := 0; i < len(v) && j < len(scheme); i++ {
		switch c := v[i]; c {
		case '\t', '\n', '\r':
		default:
			if lowerASCII(c) != scheme[j] {
				return false
			}
			j++
		}
	}
	return j == len(scheme)
}

// foreignSecurity adds the elements inside an svg or math element, which
// the walk does not visit, to the inventory.
func (w *walker) foreignSecurity(n *html.Node) {
	for c := n.FirstChild; c != nil; c = nextInTree(c, n) {
		if c.Type == html.ElementNode {
			w.security(c)
		}
	}
}
