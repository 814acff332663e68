package capture

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// unprivilegedUID is the user Chromium runs as when sieve runs as root
// (Debian's nobody): Chromium's sandbox refuses to start as root, and a page
// gets no more of the machine than nobody has.
const unprivilegedUID = 65534

// chromiumProc is a running Chromium: its process group, the DevTools
// address it printed, and how it was confined.
type chromiumProc struct {
	cmd       *exec.Cmd
	wsURL     string
	args      []string // every flag given, in order
	sandboxed bool
	user      string // "nobody" when dropped from root, else the invoking user
	note      string // why the sandbox is off, when it is
}

// startChromium starts bin with flags and a fresh profile, sandboxed
// wherever the host allows it: as root, Chromium runs as nobody with its
// sandbox on; when the sandbox cannot start (no user namespaces), it runs
// with --no-sandbox and the trace says so.
// sandboxRetryPause is the wait before the second sandboxed start.
const sandboxRetryPause = 300 * time.Millisecond

func startChromium(ctx context.Context, bin string, flags []string, profile string) (*chromiumProc, error) {
	var cred *syscall.Credential
	user := "self"
	if os.Geteuid() == 0 {
		if err := chownTree(profile, unprivilegedUID, unprivilegedUID); err != nil {
			return nil, err
		}
		cred = &syscall.Credential{Uid: unprivilegedUID, Gid: unprivilegedUID, Groups: []uint32{}} // no supplementary group of root's either
		user = "nobody"
	}
	p, err := spawnChromium(ctx, bin, flags, profile, cred)
	if err != nil && ctx.Err() == nil {
		// A sandboxed start can fail once on a loaded host (seen under
		// make test's parallel race pass): try it again before giving
		// the sandbox up for the browser's whole life.
		time.Sleep(sandboxRetryPause)
		p, err = spawnChromium(ctx, bin, flags, profile, cred)
	}
	if err == nil {
		p.sandboxed, p.user = true, user
		return p, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	first := err
	p, err = spawnChromium(ctx, bin, append(flags, "--no-sandbox"), profile, cred)
	if err == nil {
		p.user = user
		p.note = "Chromium's sandbox could not start on this host (" + firstLine(first.Error()) + "): running with --no-sandbox"
		return p, nil
	}
	if cred == nil || ctx.Err() != nil {
		return nil, first
	}
	// nobody cannot run Chromium here at all (no such user, an unreadable
	// binary): as root, without the sandbox, is the last resort
	_ = chownTree(profile, 0, 0)
	p, err = spawnChromium(ctx, bin, append(flags, "--no-sandbox"), profile, nil)
	if err != nil {
		return nil, first
	}
	p.user = "self"
	p.note = "Chromium could not start as nobody (" + firstLine(first.Error()) + "): running as root with --no-sandbox"
	return p, nil
}

// profileBase is where profiles are made: the temporary directory, unless
// sieve runs as root and nobody could not reach it (a TMPDIR inside a
// private home), then /tmp.
func profileBase() string {
	base := os.TempDir()
	if os.Geteuid() != 0 {
		return base
	}
	for d := base; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm()&0o001 == 0 {
			return "/tmp"
		}
		if d == filepath.Dir(d) {
			return base
		}
	}
}

func spawnChromium(ctx context.Context, bin string, flags []string, profile string, cred *syscall.Credential) (*chromiumProc, error) {
	args := append([]string{"--user-data-dir=" + profile, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"}, flags...)
	args = append(args, "about:blank")
	cmd := exec.Command(bin, args...)
	cmd.Env = chromiumEnv(profile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Credential: cred}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	found := make(chan string, 1)
	var tail []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if u, ok := strings.CutPrefix(strings.TrimSpace(line), "DevTools listening on "); ok {
				found <- u
				break
			}
			if len(tail) < 20 {
				tail = append(tail, line)
			}
		}
		_, _ = io.Copy(io.Discard, stderr) // keep draining: a full pipe would stall Chromium
	}()
	select {
	case u := <-found:
		go func() { <-done; _ = cmd.Wait() }()
		return &chromiumProc{cmd: cmd, wsURL: u, args: args}, nil
	case <-done:
		_ = cmd.Wait()
		return nil, fmt.Errorf("Chromium exited: %s", strings.Join(lastLines(tail, 3), " | "))
	case <-ctx.Done():
		killTree(cmd.Process.Pid)
		<-done
		return nil, fmt.Errorf("Chromium did not start in time: %w", ctx.Err())
	}
}

// chromiumEnv keeps Chromium's home, caches and config inside the profile.
func chromiumEnv(profile string) []string {
	env := []string{"HOME=" + profile, "XDG_CONFIG_HOME=" + filepath.Join(profile, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(profile, ".cache"), "TMPDIR=" + profile}
	for _, k := range []string{"PATH", "LANG", "LC_ALL", "TZ", "FONTCONFIG_PATH", "FONTCONFIG_FILE"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func chownTree(dir string, uid, gid int) error {
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func lastLines(lines []string, n int) []string {
	if len(lines) == 0 {
		return []string{"no output"}
	}
	return lines[max(0, len(lines)-n):]
}

// waitExit waits up to d for pid to be gone.
func waitExit(pid int, d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) && alive(pid) {
		time.Sleep(20 * time.Millisecond)
	}
}
