package pipelines

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/frontier/sitetest"
	"github.com/sieve-dev/sieve/internal/testbin"
)

// lab is several worker machines on this one: a Linux network namespace
// each, joined to the root namespace by a veth pair, with an sshd of its own
// (its own host key, key auth only, the login's home a private directory
// bind-mounted over the real one, so --basefile and --return really copy),
// and the test site on loopback aliases of the root namespace that every
// namespace routes to, under host names each namespace's /etc/hosts
// (/etc/netns/NS/hosts, which `ip netns exec` mounts) resolves.
//
// Names carry a random id and the test's pid; everything is torn down when
// the test ends, fails or is interrupted, and a later run removes what a
// killed one left (its pid gone).
type lab struct {
	tb      testing.TB
	id      string // random, 6 hex digits
	net     string // "10.Y": 10.Y.I.1/24 root side, 10.Y.I.2/24 worker I, 10.Y.250.K the site
	dir     string
	user    string
	home    string // the login's home, each worker's own directory there
	hosts   []*labHost
	siteIPs []string
	ssh     string // the ssh command (PARALLEL_SSH)

	once sync.Once
	sigs chan os.Signal
}

type labHost struct {
	ns   string
	addr string // the worker's address, where its sshd listens
	home string
	sshd *exec.Cmd
	dead bool
}

const labPrefix = "sievelab-"

// needLab skips (loudly) when the machine cannot host the lab, and fails
// under CI=true, where the test must run: make deps installs
// openssh-server and rsync, and CI runs as root.
func needLab(tb testing.TB) {
	tb.Helper()
	var missing []string
	if os.Geteuid() != 0 {
		missing = append(missing, "root (network namespaces and sshd)")
	}
	for _, c := range []string{"ip", "/usr/sbin/sshd", "ssh", "ssh-keygen", "rsync", "parallel"} {
		if _, err := exec.LookPath(c); err != nil {
			missing = append(missing, c)
		}
	}
	if len(missing) == 0 {
		return
	}
	msg := "the three-host crawl over ssh in network namespaces needs " + strings.Join(missing, ", ") +
		" (as root: make deps, or apt-get install openssh-server rsync parallel iproute2)"
	if os.Getenv("CI") != "" {
		tb.Fatal(msg)
	}
	tb.Skip("SKIPPING: " + msg)
}

func (l *lab) run(args ...string) string {
	l.tb.Helper()
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		l.tb.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newLab makes n worker namespaces and sites site addresses; start starts
// their sshds once the site's names are known.
func newLab(tb testing.TB, n, sites int) *lab {
	tb.Helper()
	needLab(tb)
	sweepLabs(tb)
	b := make([]byte, 3)
	rand.Read(b)
	u, err := user.Current()
	if err != nil {
		tb.Fatal(err)
	}
	l := &lab{tb: tb, id: hex.EncodeToString(b), dir: tb.TempDir(), user: u.Username, home: u.HomeDir}
	// A 10.Y.0.0/16 nothing on this machine uses (another lab included).
	used := l.run("ip", "-o", "addr") + l.run("ip", "-o", "-4", "route", "show", "table", "all")
	used = " " + strings.Join(strings.Fields(used), " ") + " "
	for try := 0; l.net == ""; try++ {
		if try == 50 {
			tb.Fatal("no free 10.Y.0.0/16 for the lab")
		}
		if y := 64 + mrand.IntN(190); !strings.Contains(used, fmt.Sprintf(" 10.%d.", y)) {
			l.net = fmt.Sprintf("10.%d", y)
		}
	}
	// Torn down at the end, on failure, and on SIGINT/SIGTERM (go test's
	// own timeout panics past the cleanups: the next run sweeps).
	tb.Cleanup(l.teardown)
	l.sigs = make(chan os.Signal, 1)
	signal.Notify(l.sigs, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		if _, ok := <-l.sigs; ok {
			l.teardown()
			os.RemoveAll(l.dir)
			testbin.Cleanup()
			os.Exit(130)
		}
	}()

	ed := func(name string) {
		l.run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sieve-lab", "-f", filepath.Join(l.dir, name))
	}
	ed("host_key")
	ed("client_key")
	pub, _ := os.ReadFile(filepath.Join(l.dir, "client_key.pub"))
	os.WriteFile(filepath.Join(l.dir, "authorized_keys"), pub, 0o600)
	l.ssh = "ssh -F /dev/null -i " + filepath.Join(l.dir, "client_key") + " -o IdentitiesOnly=yes -o BatchMode=yes" +
		" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR" +
		" -o ConnectTimeout=5 -o ServerAliveInterval=2 -o ServerAliveCountMax=3"
	// Debian's sshd will not start without its privilege-separation
	// directory (systemd or the init script make it; neither runs here).
	os.MkdirAll("/run/sshd", 0o755)

	for k := 1; k <= sites; k++ {
		ip := fmt.Sprintf("%s.250.%d", l.net, k)
		l.run("ip", "addr", "add", ip+"/32", "dev", "lo", "label", "lo:sl"+l.id)
		l.siteIPs = append(l.siteIPs, ip)
	}
	for i := 1; i <= n; i++ {
		h := &labHost{
			ns:   fmt.Sprintf("%s%s-%d-%d", labPrefix, l.id, os.Getpid(), i),
			addr: fmt.Sprintf("%s.%d.2", l.net, i),
			home: filepath.Join(l.dir, fmt.Sprintf("home%d", i)),
		}
		l.hosts = append(l.hosts, h)
		root, peer := fmt.Sprintf("sl%sr%d", l.id, i), fmt.Sprintf("sl%sn%d", l.id, i)
		l.run("ip", "netns", "add", h.ns)
		l.run("ip", "link", "add", root, "type", "veth", "peer", "name", peer)
		l.run("ip", "link", "set", peer, "netns", h.ns)
		l.run("ip", "addr", "add", fmt.Sprintf("%s.%d.1/24", l.net, i), "dev", root)
		l.run("ip", "link", "set", root, "up")
		l.run("ip", "-n", h.ns, "addr", "add", h.addr+"/24", "dev", peer)
		l.run("ip", "-n", h.ns, "link", "set", peer, "up")
		l.run("ip", "-n", h.ns, "link", "set", "lo", "up")
		l.run("ip", "-n", h.ns, "route", "add", l.net+".250.0/24", "via", fmt.Sprintf("%s.%d.1", l.net, i))
		os.MkdirAll(h.home, 0o700)
	}
	return l
}

// start writes each worker's /etc/hosts (names: host name → site IP) and
// starts the sshds, and waits until each takes a login.
func (l *lab) start(names map[string]string) {
	l.tb.Helper()
	var hosts strings.Builder
	hosts.WriteString("127.0.0.1 localhost\n::1 localhost\n")
	for name, ip := range names {
		fmt.Fprintf(&hosts, "%s %s\n", ip, name)
	}
	for i, h := range l.hosts {
		etc := filepath.Join("/etc/netns", h.ns)
		if err := os.MkdirAll(etc, 0o755); err != nil {
			l.tb.Fatal(err)
		}
		os.WriteFile(filepath.Join(etc, "hosts"), []byte(hosts.String()), 0o644)
		cfg := filepath.Join(l.dir, fmt.Sprintf("sshd%d.conf", i+1))
		os.WriteFile(cfg, []byte(strings.Join([]string{
			"ListenAddress " + h.addr + ":22",
			"HostKey " + filepath.Join(l.dir, "host_key"),
			"PidFile " + filepath.Join(l.dir, fmt.Sprintf("sshd%d.pid", i+1)),
			"AuthorizedKeysFile " + filepath.Join(l.dir, "authorized_keys"),
			"AuthenticationMethods publickey",
			"PubkeyAuthentication yes",
			"PasswordAuthentication no",
			"KbdInteractiveAuthentication no",
			"PermitRootLogin prohibit-password",
			"AllowUsers " + l.user,
			// The keys live in the test's temporary directory, not
			// under a home sshd would check the modes of.
			"StrictModes no",
			"UsePAM no",
			"MaxStartups 50",
			"",
		}, "\n")), 0o600)
		// ip netns exec gives the sshd a mount namespace of its own:
		// the worker's home is a private directory there, as on a
		// machine of its own.
		h.sshd = exec.Command("ip", "netns", "exec", h.ns, "sh", "-c",
			`mount --bind "$1" "$2" && exec /usr/sbin/sshd -D -e -f "$3"`, "sh", h.home, l.home, cfg)
		log, _ := os.Create(filepath.Join(l.dir, fmt.Sprintf("sshd%d.log", i+1)))
		h.sshd.Stdout, h.sshd.Stderr = log, log
		h.sshd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := h.sshd.Start(); err != nil {
			l.tb.Fatal(err)
		}
		go h.sshd.Wait()
	}
	for i, h := range l.hosts {
		var out []byte
		var err error
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
			args := append(strings.Fields(l.ssh), l.user+"@"+h.addr, "cat /etc/hosts; echo $HOME")
			if out, err = exec.Command(args[0], args[1:]...).CombinedOutput(); err == nil {
				break
			}
		}
		if err != nil || !strings.Contains(string(out), l.siteIPs[0]) {
			log, _ := os.ReadFile(filepath.Join(l.dir, fmt.Sprintf("sshd%d.log", i+1)))
			l.tb.Fatalf("no ssh login to %s: %v\n%s\nsshd log:\n%s", h.addr, err, out, log)
		}
	}
}

// logins is GNU parallel's --sshlogin for the given workers, jobs at once
// on each.
func (l *lab) logins(jobs int, hosts ...*labHost) string {
	var s []string
	for _, h := range hosts {
		s = append(s, fmt.Sprintf("%d/%s@%s", jobs, l.user, h.addr))
	}
	return strings.Join(s, ",")
}

// kill takes worker h away as a machine would go: every process in its
// namespace is killed at once (its sshd, the sessions, the crawl), then the
// namespace and its link are deleted.
func (l *lab) kill(h *labHost) {
	if h.dead {
		return
	}
	h.dead = true
	killNetns(h.ns)
	exec.Command("ip", "netns", "del", h.ns).Run()
	os.RemoveAll(filepath.Join("/etc/netns", h.ns))
}

func killNetns(ns string) {
	for try := 0; try < 20; try++ {
		out, _ := exec.Command("ip", "netns", "pids", ns).Output()
		pids := strings.Fields(string(out))
		if len(pids) == 0 {
			return
		}
		for _, p := range pids {
			if pid, err := strconv.Atoi(p); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (l *lab) teardown() {
	l.once.Do(func() {
		t0 := time.Now()
		defer func() { l.tb.Logf("lab torn down in %v", time.Since(t0).Round(time.Millisecond)) }()
		signal.Stop(l.sigs)
		close(l.sigs)
		for _, h := range l.hosts {
			l.kill(h)
		}
		for _, ip := range l.siteIPs {
			exec.Command("ip", "addr", "del", ip+"/32", "dev", "lo").Run()
		}
	})
}

// sweepLabs removes what labs of test processes that are gone left behind
// (go test's -timeout ends a test without its cleanups).
func sweepLabs(tb testing.TB) {
	ents, _ := os.ReadDir("/run/netns")
	for _, e := range ents {
		f := strings.Split(strings.TrimPrefix(e.Name(), labPrefix), "-")
		if !strings.HasPrefix(e.Name(), labPrefix) || len(f) != 3 {
			continue
		}
		if _, err := os.Stat("/proc/" + f[1]); err == nil {
			continue // its test is still running
		}
		tb.Logf("removing network namespace %s of an earlier run", e.Name())
		killNetns(e.Name())
		exec.Command("ip", "netns", "del", e.Name()).Run()
		os.RemoveAll(filepath.Join("/etc/netns", e.Name()))
		out, _ := exec.Command("ip", "-o", "-4", "addr", "show", "dev", "lo", "label", "lo:sl"+f[0]).Output()
		for _, line := range strings.Split(string(out), "\n") {
			if fs := strings.Fields(line); len(fs) > 3 {
				exec.Command("ip", "addr", "del", fs[3], "dev", "lo").Run()
			}
		}
	}
}

// labSite serves the test site on the lab's site addresses, one host name
// each, the names picked so the hosts fall in different shards of
// len(lab.siteIPs) (one worker's job each).
func labSite(tb testing.TB, l *lab, pages, orphans int) (*sitetest.Site, map[string]string) {
	tb.Helper()
	var lns []net.Listener
	var names []string
	ips := map[string]string{}
	for i, ip := range l.siteIPs {
		ln, err := net.Listen("tcp", ip+":0")
		if err != nil {
			tb.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		for k := 0; ; k++ {
			name := fmt.Sprintf("s%d-%d.%s.sieve.test", i, k, l.id)
			if frontier.ShardOf("http://"+name+":"+port+"/", len(l.siteIPs)) == i {
				names = append(names, name)
				ips[name] = ip
				break
			}
		}
		lns = append(lns, ln)
	}
	site := sitetest.NewListeners(lns, names, pages, orphans)
	tb.Cleanup(site.Close)
	return site, ips
}

// TestMain removes the binaries the tests built (none under make test).
func TestMain(m *testing.M) {
	os.Exit(testbin.Main(m))
}

// staticSieve puts the CGO_ENABLED=0 sieve the recipe ships with
// --basefile at work/bin/static/sieve (make test's, or built once for the
// package's tests).
func staticSieve(tb testing.TB, work string) {
	tb.Helper()
	src := testbin.Path(tb, "sieve")
	dst := filepath.Join(work, "bin", "static", "sieve")
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if os.Link(src, dst) == nil {
		return
	}
	b, err := os.ReadFile(src)
	if err == nil {
		err = os.WriteFile(dst, b, 0o755)
	}
	if err != nil {
		tb.Fatal(err)
	}
}

// crawlArgs are the recipe's sieve crawl flags for the lab's site. The site
// is on private addresses (10.Y.250.K), which capture refuses by default
// (an SSRF guard); --allow-addr admits exactly the site's IP:PORTs and
// nothing else private, as a crawl of an intranet would.
func labCrawlArgs(site *sitetest.Site, delay time.Duration) string {
	args := "--tier static --no-evidence --per-host 2 --delay " + delay.String()
	for _, a := range site.Addrs {
		args += " --allow-addr " + a
	}
	return args
}

// recipe runs pipelines/crawl-ssh.sh in work with the given logins; onStart,
// if set, runs while it does.
func (l *lab) recipe(tb testing.TB, work, logins, out, crawlArgs string, seeds []string, during func()) (string, string, time.Duration) {
	tb.Helper()
	script, _ := filepath.Abs("crawl-ssh.sh")
	cmd := exec.Command("sh", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "SSHLOGIN="+logins, "SHARDS="+strconv.Itoa(len(l.siteIPs)),
		"OUT="+out, "PARALLEL_SSH="+l.ssh, "CRAWL_ARGS="+crawlArgs)
	cmd.Stdin = strings.NewReader(strings.Join(seeds, "\n") + "\n")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	if during != nil {
		during()
	}
	err := cmd.Wait()
	el := time.Since(t0)
	if err != nil {
		tb.Fatalf("crawl-ssh.sh: %v\n%s", err, stderr.String())
	}
	return stdout.String(), stderr.String(), el
}

func seedsOf(site *sitetest.Site) []string {
	var s []string
	for _, h := range site.Hosts {
		s = append(s, "http://"+h+"/")
	}
	return s
}

// TestCrawlSSHNetns runs pipelines/crawl-ssh.sh over three worker machines
// (network namespaces with their own sshd, reached by ssh with a key,
// bin/static/sieve shipped with --basefile, the shards brought back with
// --return) against a three-host site of about 1,050 pages on addresses
// of this machine; one worker machine is killed mid-crawl (every process in
// it, then its network) and the crawl goes on: its shard is crawled again
// on another worker, and the result has every page once, robots.txt is
// respected, and each site host's requests keep the delay across the
// workers that served it (from the site's access log).
func TestCrawlSSHNetns(t *testing.T) {
	t0 := time.Now()
	l := newLab(t, 3, 3)
	site, names := labSite(t, l, 330, 12)
	l.start(names)
	t.Logf("three worker namespaces with sshd on %s.{1,2,3}.2, the site on %s: set up in %v",
		l.net, strings.Join(site.Addrs, " "), time.Since(t0).Round(time.Millisecond))
	work := t.TempDir()
	t1 := time.Now()
	staticSieve(t, work)
	t.Logf("static build: %v", time.Since(t1).Round(time.Millisecond))

	const delay = 10 * time.Millisecond
	victim := l.hosts[1]
	var killedAt time.Time
	kill := func() {
		// Kill worker 2 once it has read 100 pages of its shard.
		for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			n := 0
			for _, h := range site.Hits() {
				if h.From == victim.addr {
					n++
				}
			}
			if n >= 100 {
				l.kill(victim)
				killedAt = time.Now()
				return
			}
		}
		t.Error("worker 2 read no 100 pages within a minute")
	}
	stdout, stderr, el := l.recipe(t, work, l.logins(1, l.hosts...), "crawl", labCrawlArgs(site, delay), seedsOf(site), kill)
	if killedAt.IsZero() {
		t.FailNow()
	}
	t.Logf("crawl over three workers, worker 2 killed after 100 requests: %v", el.Round(time.Millisecond))

	var got []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ln := sc.Text()
		if gjson.Get(ln, "record").String() != "artifact" {
			t.Errorf("not an artifact line: %.300s", ln)
			continue
		}
		u := gjson.Get(ln, "url").String()
		got = append(got, u)
		if _, err := os.Stat(filepath.Join(work, gjson.Get(ln, "dir").String(), "manifest.json")); err != nil {
			t.Errorf("artifact of %s not brought back: %v", u, err)
		}
		if o := gjson.Get(ln, "outcome").String(); strings.Contains(u, "/private/") != (o == "blocked") {
			t.Errorf("%s: outcome %s", u, o)
		}
	}
	sort.Strings(got)
	want := site.Want()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		seen := map[string]int{}
		for _, u := range got {
			seen[u]++
		}
		missing, twice := 0, 0
		for _, u := range want {
			if seen[u] == 0 {
				missing++
			}
		}
		for _, n := range seen {
			if n > 1 {
				twice++
			}
		}
		t.Errorf("recipe wrote %d lines for %d pages: %d missing, %d more than once\nstderr:\n%s", len(got), len(want), missing, twice, stderr)
	}

	// The access log: which worker read which host, robots.txt, pacing.
	byHost := map[string][]sitetest.Hit{}
	robots := map[string]int{}
	for _, h := range site.Hits() {
		switch {
		case h.Path == "/robots.txt":
			robots[h.Host]++
		case strings.HasPrefix(h.Path, "/private/"):
			t.Errorf("%s%s fetched: robots.txt disallows it", h.Host, h.Path)
		default:
			byHost[h.Host] = append(byHost[h.Host], h)
		}
	}
	for _, host := range site.Hosts {
		hits := byHost[host]
		sort.Slice(hits, func(i, j int) bool { return hits[i].At.Before(hits[j].At) })
		from := map[string]int{}
		var order []string
		for _, h := range hits {
			if from[h.From]++; from[h.From] == 1 {
				order = append(order, h.From)
			}
			if h.From == victim.addr && h.At.After(killedAt) {
				t.Errorf("%s: a request from the killed worker after it was killed", host)
			}
		}
		var by []string
		for _, f := range order {
			by = append(by, fmt.Sprintf("%d from %s", from[f], f))
		}
		t.Logf("%s: %d requests (%s, in that order), robots.txt %d times", host, len(hits), strings.Join(by, " then "), robots[host])
		wantRobots := 1 // once per worker process that crawled the host
		if from[victim.addr] > 0 {
			wantRobots = 2
			// The killed worker's host was crawled again by one other.
			if len(order) != 2 || order[0] != victim.addr {
				t.Errorf("%s: read by %v, want the killed worker then one other", host, order)
			}
		} else if len(order) != 1 {
			t.Errorf("%s: read by %v, want one worker", host, order)
		}
		if robots[host] != wantRobots {
			t.Errorf("%s: robots.txt fetched %d times, want %d", host, robots[host], wantRobots)
		}
		const k = 50
		for i := 0; i+k-1 < len(hits); i++ {
			if w := hits[i+k-1].At.Sub(hits[i].At); w < (k-1)*delay-25*time.Millisecond {
				t.Errorf("%s: %d requests within %v across the workers, delay %v", host, k, w, delay)
				break
			}
		}
	}
	if len(byHost) != len(site.Hosts) {
		t.Errorf("requests to %d hosts, want %d", len(byHost), len(site.Hosts))
	}

	// The same command again on the two workers left: the joblog says
	// every shard is done, nothing is crawled or written.
	before := len(site.Hits())
	if stdout, stderr, el := l.recipe(t, work, l.logins(1, l.hosts[0], l.hosts[2]), "crawl", labCrawlArgs(site, delay), seedsOf(site), nil); stdout != "" || len(site.Hits()) != before {
		t.Errorf("re-run of a finished crawl wrote %d bytes and made %d requests\n%s", len(stdout), len(site.Hits())-before, stderr)
	} else {
		t.Logf("re-run on the two workers left: nothing to do, %v", el.Round(time.Millisecond))
	}
	t.Logf("whole test: %v", time.Since(t0).Round(time.Millisecond))
}

// BenchmarkCrawlSSH is make bench-crawl's many-machine half: the recipe
// over the lab's site (three hosts of 303 pages, --delay 20ms, static
// tier, no evidence) with one worker machine and with three, one job
// each (one worker takes the three shards in turn), so the ratio is what
// spreading shards over machines buys while each host's delay bounds its
// shard; and the per-host request spacing the site saw in both runs. The
// workers share this machine's cores.
func BenchmarkCrawlSSH(b *testing.B) {
	const delay = 20 * time.Millisecond
	l := newLab(b, 3, 3)
	site, names := labSite(b, l, 300, 0)
	l.start(names)
	work := b.TempDir()
	staticSieve(b, work)
	for i := 0; i < b.N; i++ {
		var rate [2]float64
		var gaps []time.Duration
		var minWin time.Duration = 1 << 62
		for j, hosts := range [][]*labHost{l.hosts[:1], l.hosts} {
			from := len(site.Hits())
			stdout, _, el := l.recipe(b, work, l.logins(1, hosts...), fmt.Sprintf("crawl-%d-%d", i, len(hosts)),
				labCrawlArgs(site, delay)+" --no-sitemaps", seedsOf(site), nil)
			n := strings.Count(stdout, "\n")
			if n != len(site.Want()) {
				b.Fatalf("%d workers: %d lines, want %d", len(hosts), n, len(site.Want()))
			}
			rate[j] = float64(n) / el.Seconds()
			byHost := map[string][]time.Time{}
			for _, h := range site.Hits()[from:] {
				if h.Path != "/robots.txt" {
					byHost[h.Host] = append(byHost[h.Host], h.At)
				}
			}
			for _, ts := range byHost {
				sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
				for k := 1; k < len(ts); k++ {
					gaps = append(gaps, ts[k].Sub(ts[k-1]))
				}
				for k := 0; k+49 < len(ts); k++ {
					minWin = min(minWin, ts[k+49].Sub(ts[k]))
				}
			}
		}
		sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		b.ReportMetric(rate[0], "pages/s-1-worker")
		b.ReportMetric(rate[1], "pages/s-3-workers")
		b.ReportMetric(rate[1]/rate[0], "x-3-over-1")
		b.ReportMetric(ms(gaps[len(gaps)/2]), "ms-median-gap/host")
		b.ReportMetric(ms(gaps[0]), "ms-min-gap/host")
		b.ReportMetric(ms(minWin)/49, "ms-min-avg-gap-of-50/host")
	}
}
