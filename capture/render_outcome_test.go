package capture_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
)

// hang answers nothing until the client goes away (bounded, so a test
// server can always shut down).
func hang(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(time.Minute):
	}
}

// A bot check that answers 403 and stays on screen after the wait is a
// challenge, with the header, the page's words and the wait as evidence.
func TestRenderChallengeStays(t *testing.T) {
	needChromium(t)
	rec, g := distill(t, "/challenge")
	if rec.Tier != capture.TierRender {
		t.Fatalf("tier %s (%s): a challenge marker must escalate", rec.Tier, rec.TierReason)
	}
	if g.Outcome.Status != graph.StatusChallenge {
		t.Fatalf("outcome %s %v, want challenge", g.Outcome.Status, g.Outcome.Evidence)
	}
	ev := strings.Join(g.Outcome.Evidence, " | ")
	for _, want := range []string{"cf-mitigated: challenge", `"Just a moment..."`, `"verify you are human"`, "still a challenge after the wait: rendered in Chromium and waited"} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence lacks %q: %s", want, ev)
		}
	}
	if g.Outcome.HTTPStatus != http.StatusForbidden || !strings.Contains(g.Outcome.BodyExcerpt, "Verify you are human") {
		t.Errorf("http_status %d body_excerpt %q: want 403 and the rendered wording", g.Outcome.HTTPStatus, g.Outcome.BodyExcerpt)
	}
}

// A challenge that lets the browser through is not a challenge: the
// artifact is the page behind it, and the script navigation is recorded.
func TestRenderChallengePasses(t *testing.T) {
	needChromium(t)
	rec, g := distill(t, "/challenge-pass.html")
	if g.Outcome.Status != graph.StatusOK || !strings.Contains(contentText(g), "PASSED-TEXT") {
		t.Fatalf("outcome %s %v, content %q", g.Outcome.Status, g.Outcome.Evidence, contentText(g))
	}
	if !rec.Render.Navigated || g.Title != "The real article" {
		t.Errorf("navigated %v title %q: the served challenge page's facts must not describe the article", rec.Render.Navigated, g.Title)
	}
	if !strings.HasSuffix(rec.FinalURL, "/after.html") || len(rec.Redirects) == 0 || !strings.HasSuffix(rec.Redirects[0].URL, "/challenge-pass.html") {
		t.Errorf("final URL %s redirects %+v", rec.FinalURL, rec.Redirects)
	}
}

// A rendered page dominated by a visible password field is a login wall;
// the password's value never leaves the browser.
func TestRenderLoginWall(t *testing.T) {
	needChromium(t)
	rec, g := distill(t, "/login.html")
	if rec.Tier != capture.TierRender || g.Outcome.Status != graph.StatusAuthRequired {
		t.Fatalf("tier %s outcome %s %v, want auth_required", rec.Tier, g.Outcome.Status, g.Outcome.Evidence)
	}
	ev := strings.Join(g.Outcome.Evidence, " | ")
	for _, want := range []string{"a visible password field", "the password field is rendered at", `"sign in to continue"`} {
		if !strings.Contains(ev, want) {
			t.Errorf("evidence lacks %q: %s", want, ev)
		}
	}
	for _, n := range rec.DOM {
		if n.Attrs["value"] == "s3cret" {
			t.Errorf("the password value was captured: %+v", n)
		}
	}
}

// A login form the page's script hides is not a login wall once rendered.
func TestRenderHiddenLoginModal(t *testing.T) {
	needChromium(t)
	_, g := distillWith(t, renderAll, "/modal.html")
	if g.Outcome.Status != graph.StatusOK || !strings.Contains(contentText(g), "MODAL-ARTICLE") {
		t.Errorf("outcome %s %v: a hidden login form must not make a login wall", g.Outcome.Status, g.Outcome.Evidence)
	}
	if strings.Contains(contentText(g), "Members sign in") {
		t.Errorf("the hidden modal reached the content")
	}
}

// An image and a script that never finish loading hold back the load
// event forever: the read still ends at the settle cap and has the text.
func TestRenderHangingResource(t *testing.T) {
	needChromium(t)
	start := time.Now()
	rec, g := distillWith(t, renderAll, "/hang.html")
	took := time.Since(start)
	if rec.Tier != capture.TierRender || rec.Render == nil || rec.Render.Error != nil {
		t.Fatalf("tier %s render %+v", rec.Tier, rec.Render)
	}
	if rec.Render.Settled != "cap" || !strings.Contains(contentText(g), "HANG-TEXT") || g.Outcome.Status != graph.StatusOK {
		t.Errorf("settled %q outcome %s, content %q", rec.Render.Settled, g.Outcome.Status, contentText(g))
	}
	// The settle wait ends at its 4 s cap (a poll late at most, on a loaded
	// machine), and the read well before renderAll's 20 s render timeout,
	// which a read held by the load event would reach.
	if waited := time.Duration(rec.Render.WaitedMS) * time.Millisecond; waited > 4*time.Second+3*time.Second {
		t.Errorf("the settle wait took %v, past its 4 s cap", waited)
	}
	if took >= 20*time.Second {
		t.Errorf("the read took %v: the hanging resources held it to the render timeout", took)
	}
}

// A tab whose renderer crashes mid-read: the capture keeps its static read
// with the failure, and the next page renders in the same browser.
func TestRenderTabCrash(t *testing.T) {
	needChromium(t)
	br := renderAll.Browser()
	capture.SetAfterNavigate(br, func(p *rod.Page, url string) {
		if !strings.Contains(url, "crash") {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = proto.PageCrash{}.Call(p.Context(ctx)) // no answer comes from a dead renderer
	})
	defer capture.SetAfterNavigate(br, nil)
	if err := br.Start(); err != nil {
		t.Fatal(err)
	}
	pid := br.PID()
	rec, g := distillWith(t, renderAll, "/after.html?crash")
	if rec.Tier != capture.TierStatic || !rec.TierFellBack || rec.Render == nil || rec.Render.Error == nil {
		t.Fatalf("tier %s fell back %v render %+v", rec.Tier, rec.TierFellBack, rec.Render)
	}
	t.Logf("the crash is recorded as: %s", rec.Render.Error.Message)
	if g.Outcome.Status != graph.StatusPartial || !strings.Contains(strings.Join(g.Outcome.Evidence, " "), "the browser read failed") {
		t.Errorf("outcome %s %v, want partial with the failure", g.Outcome.Status, g.Outcome.Evidence)
	}
	if !strings.Contains(contentText(g), "PASSED-TEXT") {
		t.Errorf("the static read was not kept: %q", contentText(g))
	}
	rec, g = distillWith(t, renderAll, "/after.html")
	if rec.Tier != capture.TierRender || g.Outcome.Status != graph.StatusOK {
		t.Errorf("after the crash: tier %s outcome %s %v", rec.Tier, g.Outcome.Status, g.Outcome.Evidence)
	}
	if br.PID() != pid {
		t.Errorf("a tab crash restarted the browser (%d → %d)", pid, br.PID())
	}
}
