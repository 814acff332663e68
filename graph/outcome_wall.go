package graph

import (
	"strings"

	"github.com/sieve-dev/sieve/normalize"
)

// A login or subscription box beside an article is not a login wall: the
// article's body was read, and the box is one of the page's actions. These
// helpers tell the two apart for authSignals (issue 13: 32 of the 1,171
// bench articles read as auth_required or challenge before them).

// besideLandmarks are the elements and roles that hold a page's furniture:
// a password field inside one of them sits beside the content, not in
// front of it.
var besideLandmarks = map[string]bool{
	"header": true, "nav": true, "aside": true, "footer": true, "dialog": true,
	"banner": true, "navigation": true, "complementary": true, "contentinfo": true,
}

// besideWords in an ancestor's id or class mark a login widget, pop-up or
// comment box rather than the page's main area.
var besideWords = []string{"modal", "popup", "pop-up", "overlay", "lightbox", "dropdown", "widget", "sidebar", "comment", "header", "footer", "navbar", "menu", "login-box", "loginbox", "user-panel", "userpanel", "account-box", "offcanvas", "off-canvas", "top-login", "login-top", "header-login", "nav-login", "flyout", "drawer"}

// passwordsInFront counts the visible password fields that are not beside
// the content: not inside a header, navigation, aside, footer or dialog
// (element or role), not in an element whose id or class names a widget,
// pop-up or comment box, and not outside the page's <main> or <article>
// when it has one.
func passwordsInFront(rec *normalize.Record) int {
	nodes := rec.Nodes
	hasMain := false
	for i := range nodes {
		if t := nodes[i].Tag; t == "main" || t == "article" || nodes[i].Role == "main" {
			hasMain = true
			break
		}
	}
	n := 0
	for i := range nodes {
		nd := &nodes[i]
		if nd.Tag != "input" || !strings.EqualFold(nd.Attrs["type"], "password") || hiddenNode(nodes, i) {
			continue
		}
		if !besideContent(nodes, i, hasMain) {
			n++
		}
	}
	return n
}

func hiddenNode(nodes []normalize.Node, i int) bool {
	for ; i >= 0 && i < len(nodes); i = nodes[i].Parent {
		if nodes[i].Hidden != "" {
			return true
		}
	}
	return false
}

func besideContent(nodes []normalize.Node, i int, hasMain bool) bool {
	inMain := false
	for p := nodes[i].Parent; p >= 0 && p < len(nodes); p = nodes[p].Parent {
		nd := &nodes[p]
		if besideLandmarks[nd.Tag] || besideLandmarks[nd.Role] {
			return true
		}
		if nd.Tag == "main" || nd.Tag == "article" || nd.Role == "main" {
			inMain = true
		}
		idClass := strings.ToLower(nd.Attrs["id"] + " " + nd.Attrs["class"])
		for _, w := range besideWords {
			if strings.Contains(idClass, w) {
				return true
			}
		}
	}
	return hasMain && !inMain
}

// commentGate reports whether a login phrase found at i in text asks the
// reader to log in to comment, reply or vote — a comment box's line under
// an article, not a wall in front of it.
func commentGate(text string, i int) bool {
	rest := text[i:]
	if len(rest) > 80 {
		rest = rest[:80]
	}
	for _, w := range []string{"comment", "reply", "vote", "rate ", "review", "post ", "leave a", "forum", "like "} {
		if strings.Contains(rest, w) {
			return true
		}
	}
	return false
}
