package capture

import (
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// targetGuard keeps pages from opening side doors. Chromium is told to
// pause every new top-level target before it runs (auto-attach with
// waitForDebuggerOnStart); the guard lets run only the pages sieve created
// itself and closes the rest — popups from window.open, target=_blank links
// and forms, service and shared workers — while they are still paused, so
// no request of theirs ever leaves.
type targetGuard struct {
	mu      sync.Mutex
	ours    map[proto.TargetTargetID]bool
	pending map[proto.TargetTargetID]proto.TargetSessionID // ours-to-be, attached before createTarget answered
	closed  map[proto.BrowserBrowserContextID][]Refusal    // what was closed, by the read (context) that caused it
}

// graceOwn is how long an attached page may wait to be claimed by the
// createTarget call that made it before it is closed as a side door.
const graceOwn = 3 * time.Second

func guardTargets(b *rod.Browser) (*targetGuard, error) {
	g := &targetGuard{ours: map[proto.TargetTargetID]bool{}, pending: map[proto.TargetTargetID]proto.TargetSessionID{},
		closed: map[proto.BrowserBrowserContextID][]Refusal{}}
	go b.EachEvent(func(e *proto.TargetAttachedToTarget) {
		go g.attached(b, e)
	})()
	err := proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}.Call(b)
	return g, err
}

func (g *targetGuard) attached(b *rod.Browser, e *proto.TargetAttachedToTarget) {
	info := e.TargetInfo
	if info == nil {
		return
	}
	switch info.Type {
	case proto.TargetTargetInfoTypePage:
		if info.OpenerID == "" && info.OpenerFrameID == "" {
			g.mu.Lock()
			ours := g.ours[info.TargetID]
			if !ours {
				g.pending[info.TargetID] = e.SessionID
			}
			g.mu.Unlock()
			if ours {
				resume(b, e.SessionID)
				return
			}
			time.Sleep(graceOwn)
			g.mu.Lock()
			_, still := g.pending[info.TargetID]
			delete(g.pending, info.TargetID)
			g.mu.Unlock()
			if !still {
				return // claimed and resumed by own
			}
		}
		g.close(b, info, "Popup", "a new window or tab (window.open, target=_blank): closed before it loaded")
	case proto.TargetTargetInfoTypeServiceWorker, proto.TargetTargetInfoTypeSharedWorker:
		g.close(b, info, "ServiceWorker", "a "+string(info.Type)+": service and shared workers are off")
	default:
		resume(b, e.SessionID)
	}
}

func (g *targetGuard) close(b *rod.Browser, info *proto.TargetTargetInfo, kind, why string) {
	_, _ = proto.TargetCloseTarget{TargetID: info.TargetID}.Call(b)
	g.mu.Lock()
	g.closed[info.BrowserContextID] = append(g.closed[info.BrowserContextID], Refusal{URL: info.URL, ResourceType: kind, Reason: why})
	g.mu.Unlock()
}

// closedIn returns (and forgets) what was closed in a read's context.
func (g *targetGuard) closedIn(id proto.BrowserBrowserContextID) []Refusal {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.closed[id]
	delete(g.closed, id)
	return out
}

// own claims a page sieve created, letting it run.
func (g *targetGuard) own(b *rod.Browser, id proto.TargetTargetID) {
	g.mu.Lock()
	g.ours[id] = true
	sid, ok := g.pending[id]
	delete(g.pending, id)
	g.mu.Unlock()
	if ok {
		resume(b, sid)
	}
}

func (g *targetGuard) forget(id proto.TargetTargetID) {
	g.mu.Lock()
	delete(g.ours, id)
	g.mu.Unlock()
}

func resume(b *rod.Browser, sid proto.TargetSessionID) {
	_ = proto.RuntimeRunIfWaitingForDebugger{}.Call(b.PageFromSession(sid))
}
