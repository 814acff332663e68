package graph

import (
	"fmt"
	"strings"

	"github.com/sieve-dev/sieve/normalize"
)

// renderSignals judge a rendered page: what the browser showed after the
// settle wait, so a shell or an empty page is said with how long was
// waited, and a challenge is one that stayed after the wait.
func renderSignals(s *signals, found map[string]*finding, add func(string, string, ...string)) {
	c := &s.rec.Capture
	r := c.Render
	if r == nil || c.Error != nil {
		return
	}
	waited := fmt.Sprintf("rendered in Chromium and waited %d ms (settle cap %d ms, ended by %s)", r.WaitedMS, settleCap(c), r.Settled)
	if f := found[StatusChallenge]; f != nil {
		// bot checks answer 403 and clear themselves by script: one that
		// is still there after the wait did not let the browser through
		f.evidence = append(f.evidence, "still a challenge after the wait: "+waited)
	}
	if f := found[StatusAuthRequired]; f != nil {
		if ev := passwordBox(s.rec.Nodes, r.PageHeight); ev != "" {
			f.evidence = append(f.evidence, ev)
		}
	}
	if c.Status >= 400 || s.visibleChars >= shellThin {
		return
	}
	if s.mountEmpty != "" {
		add(StatusSPAShell, StatusSPAShell, "mount point "+s.mountEmpty+" is still empty after rendering", waited,
			fmt.Sprintf("%d characters of visible text", s.visibleChars))
		return
	}
	if s.visibleChars == 0 {
		add(StatusEmptyAfterRender, StatusEmptyAfterRender, "no visible text after rendering", waited)
	}
}

func settleCap(c *normalize.CaptureInfo) int64 {
	if c.Trace.Browser != nil {
		return c.Trace.Browser.SettleMS
	}
	return 0
}

// fellBackSignal: the render tier was wanted but failed, so the artifact is
// the static read only.
func fellBackSignal(c *normalize.CaptureInfo, add func(string, string, ...string)) {
	if !c.TierFellBack {
		return
	}
	msg := "the browser read failed"
	if c.Render != nil && c.Render.Error != nil {
		msg += ": " + strings.TrimSpace(c.Render.Error.Message)
	}
	add(StatusPartial, StatusPartial, msg, "the static read (served HTML, scripts not run) is shown instead ("+c.TierReason+")")
}

// passwordBox describes where the first visible password field was
// rendered: a login wall shows it in the first screen.
func passwordBox(nodes []normalize.Node, pageHeight int) string {
	hidden := make([]bool, len(nodes))
	for i := range nodes {
		n := &nodes[i]
		hidden[i] = n.Hidden != "" || n.Parent >= 0 && n.Parent < i && hidden[n.Parent]
		if hidden[i] || n.Tag != "input" || !strings.EqualFold(n.Attrs["type"], "password") || n.Box == nil || n.Box.W == 0 {
			continue
		}
		b := n.Box
		return fmt.Sprintf("the password field is rendered at (%d, %d), %d×%d px, on a page %d px tall", b.X, b.Y, b.W, b.H, pageHeight)
	}
	return ""
}
