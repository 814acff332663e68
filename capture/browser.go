package capture

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
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
	return o
}

// chromiumFlags are given to every launch (besides a fresh profile and a
// random debugging port). Sorted, they are recorded in the trace.
var chromiumFlags = []string{
	"headless", "no-sandbox", "disable-gpu", "disable-quic", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"disable-dev-shm-usage", "disable-breakpad", "hide-scrollbars", "mute-audio",
}

// ErrNoChromium is wrapped by the error of a browser that cannot start.
var ErrNoChromium = errors.New("Chromium is not available: install it with `apt-get install chromium` (or point $SIEVE_CHROMIUM / --chromium at a Chromium binary)")

// Browser is one Chromium process with a pool of tabs. It is started on
// first use, restarted after a crash or every RestartEvery pages, and
// killed (with its profile removed) by Close.
type Browser struct {
	opts BrowserOptions
	tabs int

	mu      sync.Mutex
	gen     int // launch generation; tabs of an older one are closed
	b       *rod.Browser
	l       *launcher.Launcher
	pid     int
	profile string
	idle    []*tab
	inUse   int
	pages   int // pages since launch
	version proto.BrowserGetVersionResult
	flags   []string
	broken  error // launch failed for good: every render fails fast
	closed  bool
	slots   chan struct{}

	// afterNav, when set (tests only), runs once a page's navigation
	// has started: it is how a test crashes a tab mid-read.
	afterNav atomic.Pointer[func(p *rod.Page, url string)]
}

type tab struct {
	page *rod.Page
	gen  int
	init bool // page-level setup done
}

// NewBrowser returns a browser that will run up to tabs pages at once. It
// does not start Chromium yet.
func NewBrowser(opts BrowserOptions, tabs int) *Browser {
	return &Browser{opts: opts.withDefaults(), tabs: max(1, tabs), slots: make(chan struct{}, max(1, tabs))}
}

// Start launches Chromium now, so that a missing binary is reported before
// any page is read.
func (br *Browser) Start() error {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.ensure()
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
	dir, err := os.MkdirTemp("", profilePrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), br.opts.LaunchWait)
	defer cancel()
	l := launcher.New().Context(ctx).Bin(bin).Leakless(true).UserDataDir(dir).
		Delete("disable-features").Delete("enable-features").Delete("enable-automation")
	for _, f := range chromiumFlags {
		l = l.Set(flags.Flag(f))
	}
	u, err := l.Launch()
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("starting %s failed (%v): %w", bin, err, ErrNoChromium)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		killTree(l.PID())
		os.RemoveAll(dir)
		return fmt.Errorf("connecting to %s failed (%v): %w", bin, err, ErrNoChromium)
	}
	v, err := b.Version()
	if err != nil {
		killTree(l.PID())
		os.RemoveAll(dir)
		return fmt.Errorf("%s does not answer (%v): %w", bin, err, ErrNoChromium)
	}
	br.flags = launchFlags(l.FormatArgs())
	br.b, br.l, br.pid, br.profile, br.version = b, l, l.PID(), dir, *v
	br.gen++
	br.pages = 0
	return nil
}

// Flags are the command-line flags Chromium was started with, sorted,
// without the per-run profile directory and debugging port.
func (br *Browser) Flags() []string {
	br.mu.Lock()
	defer br.mu.Unlock()
	return append([]string{}, br.flags...)
}

func launchFlags(args []string) []string {
	out := []string{}
	for _, a := range args {
		if strings.HasPrefix(a, "--user-data-dir") || strings.HasPrefix(a, "--remote-debugging-port") {
			continue
		}
		out = append(out, a)
	}
	sort.Strings(out)
	return out
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

// acquire waits for a free slot and returns a tab of a running browser.
func (br *Browser) acquire(ctx context.Context) (*tab, error) {
	select {
	case br.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	t, err := br.takeTab()
	if err != nil {
		<-br.slots
		return nil, err
	}
	return t, nil
}

func (br *Browser) takeTab() (*tab, error) {
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.b != nil && br.pages >= br.opts.RestartEvery && br.inUse == 0 {
		br.stop()
	}
	if br.b != nil && !alive(br.pid) {
		br.stop() // killed or crashed between pages: its tabs are gone too
	}
	if err := br.ensure(); err != nil {
		return nil, err
	}
	br.pages++
	br.inUse++
	if n := len(br.idle); n > 0 {
		t := br.idle[n-1]
		br.idle = br.idle[:n-1]
		return t, nil
	}
	p, err := br.b.Timeout(10 * time.Second).Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		br.inUse--
		br.crashCheck()
		return nil, err
	}
	return &tab{page: p, gen: br.gen}, nil
}

// release returns t to the pool, or closes it after an error (a tab is
// never reused after a failure); a browser that no longer answers is
// restarted on next use.
func (br *Browser) release(t *tab, failed bool) {
	defer func() { <-br.slots }()
	br.mu.Lock()
	defer br.mu.Unlock()
	br.inUse--
	if t.gen != br.gen || br.b == nil {
		return
	}
	if !failed {
		br.idle = append(br.idle, t)
		return
	}
	_ = t.page.Timeout(2 * time.Second).Close()
	br.crashCheck()
}

// crashCheck restarts a browser that does not answer; br.mu is held.
func (br *Browser) crashCheck() {
	if br.b == nil {
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
	_ = br.b.Timeout(2 * time.Second).Close()
	killTree(br.pid)
	os.RemoveAll(br.profile)
	br.b, br.l, br.idle, br.pid = nil, nil, nil, 0
}

// Close kills Chromium and removes its profile. Safe to call twice.
func (br *Browser) Close() {
	br.mu.Lock()
	defer br.mu.Unlock()
	br.stop()
	br.closed = true
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
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
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
