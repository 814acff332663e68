package capture

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// DefaultChromium is the browser binary used unless $SIEVE_CHROMIUM or
// --chromium says otherwise: Debian's Chromium.
const DefaultChromium = "/usr/bin/chromium"

// profilePrefix names the temporary profile directories; stale ones (their
// owning process gone) are removed at launch.
const profilePrefix = "sieve-chromium-"

// BrowserOptions configure the render tier.
type BrowserOptions struct {
	Bin          string        // Chromium binary; "" is $SIEVE_CHROMIUM, else DefaultChromium
	Timeout      time.Duration // one page's whole browser read
	Settle       time.Duration // cap of the wait for the page to settle (hydrate)
	SweepSteps   int           // cap of the scroll sweep, in viewport heights
	RestartEvery int           // pages per browser before it is restarted
	Blobs        string        // blob store directory for screenshots; "" takes none
	Width        int           // viewport, CSS px
	Height       int
	Locale       string
	Timezone     string
	LaunchWait   time.Duration // cap for starting Chromium
	HeapMB       int           // JavaScript heap limit of each page, MiB (V8's max-old-space-size)
	MemoryMB     int           // the browser tree's memory budget, MiB: over it, the biggest page is killed
	UserAgent    string        // every request's User-Agent (--user-agent: the browser's own, favicon.ico included); "" is DefaultUserAgent
}

// DefaultBrowserOptions are the command's defaults.
func DefaultBrowserOptions() BrowserOptions {
	return BrowserOptions{
		Timeout:      30 * time.Second,
		Settle:       5 * time.Second,
		SweepSteps:   20,
		RestartEvery: 200,
		Width:        1280,
		Height:       800,
		Locale:       "en-US",
		Timezone:     "UTC",
		LaunchWait:   20 * time.Second,
		HeapMB:       512,
		MemoryMB:     3072,
	}
}

func (o BrowserOptions) withDefaults() BrowserOptions {
	d := DefaultBrowserOptions()
	if o.Bin == "" {
		o.Bin = os.Getenv("SIEVE_CHROMIUM")
	}
	if o.Bin == "" {
		o.Bin = DefaultChromium
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	if o.Settle <= 0 {
		o.Settle = d.Settle
	}
	if o.SweepSteps <= 0 {
		o.SweepSteps = d.SweepSteps
	}
	if o.RestartEvery <= 0 {
		o.RestartEvery = d.RestartEvery
	}
	if o.Width <= 0 || o.Height <= 0 {
		o.Width, o.Height = d.Width, d.Height
	}
	if o.Locale == "" {
		o.Locale = d.Locale
	}
	if o.Timezone == "" {
		o.Timezone = d.Timezone
	}
	if o.LaunchWait <= 0 {
		o.LaunchWait = d.LaunchWait
	}
	if o.HeapMB <= 0 {
		o.HeapMB = d.HeapMB
	}
	if o.MemoryMB <= 0 {
		o.MemoryMB = d.MemoryMB
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent()
	}
	return o
}

// chromiumFlags are given to every launch (besides a fresh profile, a
// random debugging port, the browser's own policy proxy and, where the host
// allows no sandbox, --no-sandbox). Sorted, they are recorded in the trace.
//
// Every request goes through a proxy ("<-loopback>" takes loopback out of
// Chromium's implicit bypass list) and Chromium resolves no names itself, so
// the address policy decides every connection the browser makes. WebRTC may
// use no UDP that the proxy does not carry. Background tabs are not
// throttled: a tab reads the same beside three others as alone.
var chromiumFlags = []string{
	"headless", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"disable-dev-shm-usage", "disable-breakpad", "hide-scrollbars", "mute-audio",
	"disable-default-apps", "disable-extensions", "disable-client-side-phishing-detection",
	"proxy-bypass-list=<-loopback>",
	"host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
	"force-webrtc-ip-handling-policy=disable_non_proxied_udp",
	"webrtc-ip-handling-policy=disable_non_proxied_udp",
	"disable-background-timer-throttling", "disable-renderer-backgrounding",
	"disable-backgrounding-occluded-windows", "disable-ipc-flooding-protection",
	"disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,AutofillServerCommunication,CalculateNativeWinOcclusion,BackForwardCache",
	"no-default-browser-check", "password-store=basic", "use-mock-keychain",
}

// ErrNoChromium is wrapped by the error of a browser that cannot start.
var ErrNoChromium = errors.New("Chromium is not available: install it with `apt-get install chromium` (or point $SIEVE_CHROMIUM / --chromium at a Chromium binary)")

// Browser is one Chromium process. Each page is read in a browser context
// of its own (its own proxy, cookies, storage and caches, disposed after the
// read). It is started on first use, restarted after a crash or every
// RestartEvery pages, and killed (with its profile removed) by Close.
type Browser struct {
	opts BrowserOptions
	tabs int
	// dial is the policy dialer every browser request goes through (the
	// Capturer's); nil refuses every request.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)

	mu        sync.Mutex
	gen       int // launch generation
	b         *rod.Browser
	proc      *chromiumProc
	pid       int
	profile   string
	proxy     *policyProxy // the default context's proxy: refuses everything
	guard     *targetGuard
	mem       *memWatch
	inUse     int
	pages     int // pages since launch
	version   proto.BrowserGetVersionResult
	flags     []string
	sandboxed bool
	runAs     string
	note      string
	broken    error // launch failed for good: every render fails fast
	closed    bool
	slots     chan struct{}
	spare     *spare         // the next read's tab, opened ahead (render_spare.go)
	spares    sync.WaitGroup // spares being opened or dropped
	dialGen   int            // SetDialer calls: a spare opened with an older dialer is dropped

	// afterNav, when set (tests only), runs once a page's navigation
	// has started: it is how a test crashes a tab mid-read.
	afterNav atomic.Pointer[func(p *rod.Page, url string)]

	// live is what Abort needs, readable without mu (which a read in
	// flight may hold).
	live atomic.Pointer[runningBrowser]
}

type runningBrowser struct {
	pid     int
	profile string
}

// tab is one read's page, in its own browser context behind its own proxy.
type tab struct {
	page  *rod.Page
	b     *rod.Browser
	gen   int
	ctxID proto.BrowserBrowserContextID
	proxy *policyProxy
	guard *targetGuard // the guard of the browser the tab is in (a restart makes a new one)
	end   func()       // ends the page's session context (newPage)
}

// NewBrowser returns a browser that will run up to tabs pages at once. It
// does not start Chromium yet. Its requests are refused until SetDialer.
func NewBrowser(opts BrowserOptions, tabs int) *Browser {
	return &Browser{opts: opts.withDefaults(), tabs: max(1, tabs), slots: make(chan struct{}, max(1, tabs))}
}

// SetDialer sets the dialer (with the address policy) that every request of
// the browser goes through.
func (br *Browser) SetDialer(dial func(ctx context.Context, network, addr string) (net.Conn, error)) {
	br.mu.Lock()
	br.dial = dial
	br.dialGen++
	br.mu.Unlock()
}

// Start launches Chromium now, so that a missing binary is reported before
// any page is read, and opens the first read's tab.
func (br *Browser) Start() error {
	br.mu.Lock()
	defer br.mu.Unlock()
	if err := br.ensure(); err != nil {
		return err
	}
	br.warmSpare() // the first read's tab
	return nil
}

// ensure has a running browser; br.mu is held.
func (br *Browser) ensure() error {
	if br.closed {
		return errors.New("browser closed")
	}
	if br.broken != nil {
		return br.broken
	}
	if br.b != nil {
		return nil
	}
	if err := br.launch(); err != nil {
		br.broken = err
		return err
	}
	return nil
}

func (br *Browser) launch() error {
	bin, err := exec.LookPath(br.opts.Bin)
	if err != nil {
		return fmt.Errorf("%s: %w", br.opts.Bin, ErrNoChromium)
	}
	cleanStaleProfiles()
	dir, err := os.MkdirTemp(profileBase(), profilePrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	px, err := startProxy(nil, "the browser's default context makes no requests")
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	fail := func(pid int, err error) error {
		killTree(pid)
		px.Close()
		os.RemoveAll(dir)
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), br.opts.LaunchWait)
	defer cancel()
	fl := make([]string, 0, len(chromiumFlags)+4)
	for _, f := range chromiumFlags {
		fl = append(fl, "--"+f)
	}
	fl = append(fl, "--proxy-server=http://"+px.Addr())
	if br.opts.HeapMB > 0 {
		fl = append(fl, fmt.Sprintf("--js-flags=--max-old-space-size=%d", br.opts.HeapMB))
	}
	// The browser-wide switch, not a per-page override: requests the
	// browser makes on its own (favicon.ico) carry it too.
	fl = append(fl, "--user-agent="+br.opts.UserAgent)
	proc, err := startChromium(ctx, bin, fl, dir)
	if err != nil {
		return fail(0, fmt.Errorf("starting %s failed (%v): %w", bin, err, ErrNoChromium))
	}
	pid := proc.cmd.Process.Pid
	// No device emulation of rod's: it would give every page a desktop
	// Chrome's User-Agent in place of --user-agent (setupTab sets the
	// viewport itself).
	b := rod.New().ControlURL(proc.wsURL).NoDefaultDevice()
	if err := b.Connect(); err != nil {
		return fail(pid, fmt.Errorf("connecting to %s failed (%v): %w", bin, err, ErrNoChromium))
	}
	v, err := b.Version()
	if err != nil {
		return fail(pid, fmt.Errorf("%s does not answer (%v): %w", bin, err, ErrNoChromium))
	}
	g, err := guardTargets(b)
	if err != nil {
		return fail(pid, fmt.Errorf("%s: watching new targets failed (%v): %w", bin, err, ErrNoChromium))
	}
	br.flags = launchFlags(proc.args)
	br.b, br.proc, br.pid, br.profile, br.version, br.proxy, br.guard = b, proc, pid, dir, *v, px, g
	br.live.Store(&runningBrowser{pid: pid, profile: dir})
	br.sandboxed, br.runAs, br.note = proc.sandboxed, proc.user, proc.note
	br.mem = startMemWatch(pid, br.opts.MemoryMB)
	br.gen++
	br.pages = 0
	return nil
}

// Flags are the command-line flags Chromium was started with, sorted,
// without the per-run profile directory, debugging port and proxy port.
func (br *Browser) Flags() []string {
	br.mu.Lock()
	defer br.mu.Unlock()
	return append([]string{}, br.flags...)
}

func launchFlags(args []string) []string {
	out := []string{}
	for _, a := range args {
		switch {
		case !strings.HasPrefix(a, "--"),
			strings.HasPrefix(a, "--user-data-dir"), strings.HasPrefix(a, "--remote-debugging-port"):
			continue
		case strings.HasPrefix(a, "--proxy-server="):
			a = "--proxy-server=(sieve's address-policy proxy)"
		}
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Sandbox says how Chromium is confined: whether its sandbox is on, the
// user it runs as, and why the sandbox is off when it is.
func (br *Browser) Sandbox() (on bool, user, note string) {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.sandboxed, br.runAs, br.note
}

// Version is the browser's product string ("Chrome/156.0…"), once started.
func (br *Browser) Version() proto.BrowserGetVersionResult {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.version
}

// PID is the Chromium process id (0 when not running).
func (br *Browser) PID() int {
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.b == nil {
		return 0
	}
	return br.pid
}

// acquire waits for a free slot and opens a tab for one read: a new browser
// context with its own proxy, and a page in it.
func (br *Browser) acquire(ctx context.Context, deny string) (*tab, error) {
	select {
	case br.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	t, dial, err := br.running()
	if err != nil {
		<-br.slots
		return nil, err
	}
	if s := br.takeSpare(ctx, t.gen); s != nil {
		t = s
	} else if t, err = br.openTab(t, dial); err != nil {
		br.release(t, true)
		return nil, err
	}
	if dial == nil && deny == "" {
		deny = "no address policy is set for this browser"
	}
	t.proxy.setDeny(deny)
	return t, nil
}

// running returns a tab of the running browser, not yet opened (launching
// the browser when needed), and counts a page in use. What the tab keeps
// of the browser is read here, under br.mu: a restart replaces it.
func (br *Browser) running() (*tab, func(context.Context, string, string) (net.Conn, error), error) {
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.b != nil && br.pages >= br.opts.RestartEvery && br.inUse == 0 {
		br.stop()
	}
	if br.b != nil && !alive(br.pid) {
		br.stop() // killed or crashed between pages
	}
	if err := br.ensure(); err != nil {
		return nil, nil, err
	}
	br.pages++
	br.inUse++
	return &tab{b: br.b, gen: br.gen, guard: br.guard}, br.dial, nil
}

// openTab opens a tab: a new browser context behind a new proxy (refusing
// everything until a read sets its policy), and a page in it, set up.
func (br *Browser) openTab(t *tab, dial func(context.Context, string, string) (net.Conn, error)) (*tab, error) {
	b := t.b
	px, err := startProxy(dial, spareIdle)
	if err != nil {
		return t, err
	}
	t.proxy = px
	bc, err := proto.TargetCreateBrowserContext{
		DisposeOnDetach: true,
		ProxyServer:     "http://" + px.Addr(),
		ProxyBypassList: "<-loopback>",
	}.Call(b.Timeout(10 * time.Second))
	if err != nil {
		return t, err
	}
	t.ctxID = bc.BrowserContextID
	if err := (proto.BrowserSetDownloadBehavior{Behavior: proto.BrowserSetDownloadBehaviorBehaviorDeny, BrowserContextID: t.ctxID}).Call(b); err != nil {
		return t, err
	}
	p, end, err := newPage(b, t.guard, t.ctxID)
	if err != nil {
		return t, err
	}
	t.page, t.end = p, end
	if err := br.setupTab(p.Timeout(setupWait)); err != nil {
		return t, fmt.Errorf("tab setup: %w", err)
	}
	return t, nil
}

// attachWait caps creating a tab and attaching to it.
const attachWait = 10 * time.Second

// newPage creates a page in context id; the target guard lets it run.
// end ends the page's session context once the tab is disposed of.
func newPage(b *rod.Browser, g *targetGuard, id proto.BrowserBrowserContextID) (*rod.Page, func(), error) {
	tgt, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: id}.Call(b.Timeout(attachWait))
	if err != nil {
		return nil, nil, err
	}
	g.own(b, tgt.TargetID)
	// The page's session (its event stream) lives in the context it is
	// attached with, so that context has no deadline: attached under
	// b.Timeout, a tab stopped hearing its events once the deadline
	// passed (a spare that waited, or a setup slowed by a busy machine).
	ctx, cancel := context.WithCancel(b.GetContext())
	late := time.AfterFunc(attachWait, cancel)
	p, err := b.Context(ctx).PageFromTarget(tgt.TargetID)
	if !late.Stop() {
		return nil, nil, fmt.Errorf("attaching to the tab: %w", context.DeadlineExceeded)
	}
	if err != nil {
		cancel()
		return nil, nil, err
	}
	return p, cancel, nil
}

// release ends a read: its browser context (and every page, worker and
// connection in it) and its proxy are gone; a browser that no longer
// answers is restarted on next use.
func (br *Browser) release(t *tab, failed bool) {
	defer func() { <-br.slots }()
	if t != nil {
		disposeTab(t)
	}
	br.mu.Lock()
	defer br.mu.Unlock()
	br.inUse--
	if t == nil || t.gen != br.gen || br.b == nil {
		return
	}
	if failed {
		br.crashCheck()
	}
	// the next read's tab, opened while this read's record is written and
	// the next page is fetched; not while another read runs (opening a tab
	// competes with the page being read for the browser process)
	if br.inUse == 0 {
		br.warmSpare()
	}
}

// crashCheck restarts a browser that is gone or does not answer; br.mu is
// held. A browser that is alive but slow to answer (a loaded machine) is
// not restarted while other reads use it: that would cut them off; the
// last read out checks it again.
func (br *Browser) crashCheck() {
	if br.b == nil {
		return
	}
	if !alive(br.pid) {
		br.stop()
		return
	}
	if br.inUse > 0 {
		return
	}
	if _, err := br.b.Timeout(3 * time.Second).Version(); err != nil {
		br.stop()
	}
}

// stop kills the running browser and removes its profile; br.mu is held.
func (br *Browser) stop() {
	if br.b == nil {
		return
	}
	if br.spare != nil {
		br.dropSpare(br.spare)
		br.spare = nil
	}
	br.mem.close()
	_ = br.b.Timeout(2 * time.Second).Close()
	killTree(br.pid)
	waitExit(br.pid, 2*time.Second)
	br.proxy.Close()
	removeProfile(br.profile)
	br.b, br.proc, br.pid, br.proxy, br.mem = nil, nil, 0, nil, nil
	br.live.Store(nil)
}

// removeProfile removes a profile directory, again while a process of the
// killed tree that has not died yet still writes into it.
func removeProfile(dir string) {
	for i := 0; i < 20; i++ {
		if os.RemoveAll(dir) == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Abort kills Chromium's process tree and removes its profile at once,
// without waiting for reads in flight (a second interrupt). Close may run
// beside it. It waits (up to 2 s) for Chromium to be gone, as Close does:
// a killed process dies a little later, and the process calling Abort is
// about to exit, leaving no one to see to it.
func (br *Browser) Abort() {
	if r := br.live.Swap(nil); r != nil {
		killTree(r.pid)
		waitExit(r.pid, 2*time.Second)
		removeProfile(r.profile)
	}
}

// Close kills Chromium and removes its profile. Safe to call twice.
func (br *Browser) Close() {
	br.mu.Lock()
	br.stop()
	br.closed = true
	br.mu.Unlock()
	br.spares.Wait() // the spare's proxy is closed too
}

// killTree kills Chromium's process group (rod starts it as a group
// leader) and the process itself.
func killTree(pid int) {
	if pid <= 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// alive reports whether process pid still runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no procfs: trust kill(0)
	}
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z' && s[i+2] != 'X'
	}
	return true
}

// cleanStaleProfiles removes profile directories whose owning process is
// gone (a run that was killed before it could clean up).
func cleanStaleProfiles() {
	matches, _ := filepath.Glob(filepath.Join(profileBase(), profilePrefix+"*"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), profilePrefix)
		pidStr, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(m)
		}
	}
}
