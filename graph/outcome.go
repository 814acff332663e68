package graph

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/normalize"
)

// signals is what the outcome is decided from: facts about the capture and
// the built graph.
type signals struct {
	rec          *normalize.Record
	visibleText  string // all visible text, in order, block-joined
	visibleChars int
	contentChars int
	passwords    int // visible password fields
	forms        int
	mountEmpty   string // description of an empty SPA mount point, if any
}

// finding is one outcome status a signal argues for, with its evidence.
type finding struct {
	status   string
	evidence []string
}

// precedence orders statuses when several fire: the first wins. A failed
// fetch or robots refusal leaves nothing else to judge; a challenge or a
// login wall explain an HTTP error better than the bare status does; an
// HTTP error outranks what its body looks like; a shell outranks "empty".
// An empty static read is last: it is no failure, only evidence on ok.
var precedence = []string{
	"fetch", StatusChallenge, StatusAuthRequired, StatusBlocked,
	StatusSPAShell, StatusEmptyAfterRender, StatusPartial, keyEmptyStatic,
}

// decideOutcome returns the outcome and notes about other signals that
// fired but lost on precedence.
func decideOutcome(s *signals) (Outcome, []string) {
	c := &s.rec.Capture
	found := map[string]*finding{}
	add := func(key, status string, ev ...string) {
		f := found[key]
		if f == nil {
			f = &finding{status: status}
			found[key] = f
		}
		f.evidence = append(f.evidence, ev...)
	}
	fetchSignals(c, add)
	challengeSignals(s, add)
	authSignals(s, add)
	if c.Error == nil && c.Status >= 400 {
		add(StatusBlocked, StatusBlocked, fmt.Sprintf("the server answered HTTP %d", c.Status))
	}
	if c.Tier == "render" {
		renderSignals(s, found, add)
	} else {
		shellSignals(s, add)
	}
	fellBackSignal(c, add)
	pdfPageSignals(s, add)
	out := Outcome{Status: StatusOK, Evidence: []string{}, HTTPStatus: c.Status}
	var notes []string
	for _, key := range precedence {
		f := found[key]
		if f == nil {
			continue
		}
		if f.status == StatusOK {
			if out.Status == StatusOK {
				out.Evidence = f.evidence
			} else {
				notes = append(notes, "also observed: "+strings.Join(f.evidence, "; "))
			}
			continue
		}
		if out.Status == StatusOK {
			out.Status, out.Evidence = f.status, f.evidence
			continue
		}
		notes = append(notes, "also observed ("+f.status+"): "+strings.Join(f.evidence, "; "))
	}
	// ARTIFACT.md: body_excerpt is present only on an error (an HTTP error
	// answer, where a proxy or policy filter says who blocked the request),
	// not on a 200 that carries a challenge or a login wall.
	if out.Status != StatusOK && c.Status >= 400 {
		out.BodyExcerpt = excerpt(s.visibleText, 400)
	}
	return out, notes
}

func fetchSignals(c *normalize.CaptureInfo, add func(string, string, ...string)) {
	if c.Error == nil {
		return
	}
	switch c.Error.Kind {
	case capture.ErrRobots:
		robots := "robots.txt"
		if c.Robots != nil {
			robots = c.Robots.URL
		}
		add("fetch", StatusBlocked, "robots.txt disallows this URL for sieve: "+robots+" (pass --ignore-robots to override)")
	case capture.ErrRateLimited:
		ev := fmt.Sprintf("rate limited: the server answered HTTP %d", c.Status)
		if ra := c.Headers["retry-after"]; ra != "" {
			ev += " with Retry-After: " + ra
		}
		add("fetch", StatusBlocked, ev, c.Error.Message)
	case capture.ErrPrivate, capture.ErrOutOfScope:
		add("fetch", StatusBlocked, "not fetched: "+c.Error.Message)
	default:
		add("fetch", StatusBlocked, "the fetch failed ("+c.Error.Kind+"): "+c.Error.Message)
	}
}

var challengeTitles = []string{
	"just a moment", "attention required", "security check", "checking your browser",
	"ddos-guard", "are you a robot", "verify you are human", "pardon our interruption",
	"one more step", "human verification", "bot verification", "access to this page has been denied",
}

var challengePhrases = []string{
	"checking your browser", "verify you are human", "verify that you are human",
	"enable javascript and cookies to continue", "complete the security check",
	"needs to review the security of your connection", "press & hold", "press and hold",
	"please confirm you are a human", "are you a robot", "unusual traffic from your computer",
}

var entryPhrases = []string{
	"are you 18", "are you over 18", "are you 21", "are you over 21", "verify your age",
	"enter your date of birth", "you must be 18", "you must be 21", "age verification",
}

var vendorMarkers = []string{
	"challenge-platform", "cf-chl", "_cf_chl_opt", "turnstile", "hcaptcha", "recaptcha",
	"px-captcha", "captcha-delivery", "_incapsula_resource", "datadome", "awswaf",
}

// widgetMarkers are the vendor markers of captcha widgets that pages embed
// in their own forms; the others belong to interstitials.
var widgetMarkers = map[string]bool{"recaptcha": true, "hcaptcha": true, "turnstile": true}

// thin is how little visible text a page may have and still be read as an
// interstitial rather than a page that merely embeds a captcha widget.
const thin = 1500

func challengeSignals(s *signals, add func(string, string, ...string)) {
	c := &s.rec.Capture
	if v := c.Headers["cf-mitigated"]; strings.EqualFold(v, "challenge") {
		add(StatusChallenge, StatusChallenge, "response header cf-mitigated: challenge")
	}
	title := strings.ToLower(s.rec.Doc.Title)
	text := strings.ToLower(s.visibleText)
	isThin := s.visibleChars < thin
	for _, p := range challengeTitles {
		if strings.Contains(title, p) && isThin {
			add(StatusChallenge, StatusChallenge, fmt.Sprintf("page title %q reads as a bot check", s.rec.Doc.Title))
			break
		}
	}
	for _, p := range challengePhrases {
		if strings.Contains(text, p) && isThin {
			add(StatusChallenge, StatusChallenge, fmt.Sprintf("page text says %q", p))
			break
		}
	}
	if isThin {
		for _, m := range s.rec.Doc.Scripts.Markers {
			for _, v := range vendorMarkers {
				// A captcha widget (a form's, a comment box's) is no
				// interstitial on its own: widgetMarkers need another sign.
				if strings.EqualFold(m, v) && !widgetMarkers[v] {
					add(StatusChallenge, StatusChallenge, fmt.Sprintf("bot-protection script marker %q on a page with %d characters of text", m, s.visibleChars))
				}
			}
		}
	}
	if isThin {
		for _, p := range entryPhrases {
			if strings.Contains(text, p) {
				add(StatusChallenge, StatusChallenge, fmt.Sprintf("entry screen: page text says %q", p))
				break
			}
		}
	}
}

var loginPaths = []string{"/login", "/log-in", "/signin", "/sign-in", "/sign_in", "/auth", "/sso", "/session/new", "/users/sign_in", "/account/login", "/accounts/login"}

var loginPhrases = []string{
	"sign in to continue", "log in to continue", "login to continue", "please log in", "please sign in",
	"you must be logged in", "you need to sign in", "sign in to read", "log in to read",
	"subscribe to continue reading", "members only", "subscribers only",
}

func authSignals(s *signals, add func(string, string, ...string)) {
	c := &s.rec.Capture
	if c.Status == 401 {
		ev := "the server answered HTTP 401"
		if wa := c.Headers["www-authenticate"]; wa != "" {
			ev += " (WWW-Authenticate: " + wa + ")"
		}
		add(StatusAuthRequired, StatusAuthRequired, ev)
	}
	isThin := s.contentChars < thin
	redirect := loginRedirect(s.rec)
	if redirect != "" && (isThin || s.passwords > 0) {
		add(StatusAuthRequired, StatusAuthRequired, redirect)
	}
	// A password field beside the content (a header login box, a pop-up,
	// a comment form) is an action, not a wall (outcome_wall.go).
	inFront := s.passwords > 0 && passwordsInFront(s.rec) > 0
	if inFront && isThin {
		add(StatusAuthRequired, StatusAuthRequired, fmt.Sprintf("a visible password field on a page with %d characters of other content", s.contentChars))
	}
	if isThin && (s.forms > 0 || inFront) {
		text := strings.ToLower(s.visibleText)
		for _, p := range loginPhrases {
			if i := strings.Index(text, p); i >= 0 && !commentGate(text, i+len(p)) {
				add(StatusAuthRequired, StatusAuthRequired, fmt.Sprintf("page text says %q", p))
				break
			}
		}
	}
}

// loginRedirect describes a redirect that ended on a login path the
// requested URL did not have.
func loginRedirect(rec *normalize.Record) string {
	if len(rec.Capture.Redirects) == 0 {
		return ""
	}
	from, err1 := url.Parse(rec.URL)
	to, err2 := url.Parse(rec.FinalURL)
	if err1 != nil || err2 != nil {
		return ""
	}
	if isLoginPath(from.Path) || !isLoginPath(to.Path) {
		return ""
	}
	return fmt.Sprintf("redirected from %s to the login page %s", from.RequestURI(), to.RequestURI())
}

func isLoginPath(p string) bool {
	p = strings.ToLower(p)
	for _, l := range loginPaths {
		if strings.HasSuffix(p, l) || strings.Contains(p, l+"/") || strings.HasSuffix(p, l+".html") || strings.HasSuffix(p, l+".php") {
			return true
		}
	}
	return false
}

// shellThin is the visible text below which a scripted page is read as an
// unhydrated shell.
const shellThin = 200

var appMarkers = []string{"__NEXT_DATA__", "window.__NUXT__", "ng-version"}

func shellSignals(s *signals, add func(string, string, ...string)) {
	rec := s.rec
	c := &rec.Capture
	if c.Error != nil || c.Status >= 400 {
		return
	}
	sc := rec.Doc.Scripts
	if s.visibleChars >= shellThin {
		return
	}
	if sc.Count > 0 {
		var ev []string
		if s.mountEmpty != "" {
			ev = append(ev, "mount point "+s.mountEmpty+" is empty in the served HTML")
		}
		for _, n := range rec.Doc.Noscript {
			if strings.Contains(strings.ToLower(n), "javascript") {
				ev = append(ev, fmt.Sprintf("noscript says %q", excerpt(n, 160)))
				break
			}
		}
		for _, m := range sc.Markers {
			for _, a := range appMarkers {
				if strings.EqualFold(m, a) {
					ev = append(ev, "application framework marker "+m)
				}
			}
		}
		ev = append(ev, fmt.Sprintf("%d characters of visible text and %d scripts (%d bytes inline) that a static read does not run", s.visibleChars, sc.Count, sc.InlineBytes))
		add(StatusSPAShell, StatusSPAShell, ev...)
		return
	}
	if s.visibleChars == 0 {
		if isPDF(rec) {
			if !pdfAllPagesFailed(rec) { // then pdfPageSignals says why
				add(StatusEmptyAfterRender, StatusEmptyAfterRender, fmt.Sprintf("the PDF's %d page(s) have no text layer and OCR read no text on them (blank pages, or see the gaps)", pdfPageCount(rec)))
			}
			return
		}
		// ARTIFACT.md: empty_after_render is "the page rendered and
		// genuinely carries no text"; a static read rendered nothing, so
		// it claims no render: the read is ok, and its evidence says the
		// served document is empty (decideOutcome).
		add(keyEmptyStatic, StatusOK, emptyStaticEvidence)
	}
}

// keyEmptyStatic is the finding of a static read of an HTML document
// with no visible text and no scripts: the outcome stays ok (nothing
// failed, nothing was rendered) with this evidence.
const keyEmptyStatic = "empty_static"

const emptyStaticEvidence = "the served document has no visible text and no scripts that could add any (a static read: it was not rendered)"

// excerpt cuts s to at most max bytes on a rune boundary.
func excerpt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
