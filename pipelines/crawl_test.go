package pipelines

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
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
)

// TestCrawlSSHRecipe runs pipelines/crawl-ssh.sh with GNU parallel on this
// machine (--sshlogin 4/:, four jobs at once) over a six-host site cut
// into four shards, and checks what the recipe promises: every page once,
// robots.txt once per host across all workers, each host's requests paced
// by the delay however many workers run, and a re-run that finds every
// shard done; one worker is killed mid-run and its shard resumes.
func TestCrawlSSHRecipe(t *testing.T) {
	if _, err := exec.LookPath("parallel"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("GNU parallel is not installed (make deps installs it)")
		}
		t.Skip("SKIPPING the crawl recipe: GNU parallel is not installed; run `make deps` or apt-get install parallel")
	}
	site, err := sitetest.New(6, 120, 12)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	work := t.TempDir()
	staticSieve(t, work)
	script, _ := filepath.Abs("crawl-ssh.sh")
	var seeds strings.Builder
	for _, h := range site.Hosts {
		seeds.WriteString("http://" + h + "/\n")
	}
	const delay = 10 * time.Millisecond
	// The shard with the most hosts is the one whose worker is killed.
	perShard := map[int]int{}
	victim := 0
	for _, h := range site.Hosts {
		sh := frontier.ShardOf("http://"+h+"/", 4)
		if perShard[sh]++; perShard[sh] > perShard[victim] {
			victim = sh
		}
	}
	run := func(kill bool) (string, string) {
		cmd := exec.Command("sh", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "SSHLOGIN=4/:", "SHARDS=4",
			"CRAWL_ARGS=--tier static --allow-private --no-evidence --per-host 2 --delay "+delay.String())
		cmd.Stdin = strings.NewReader(seeds.String())
		var stdout, stderr lockedBuffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if kill {
			// SIGTERM the worker of one shard mid-crawl: parallel runs
			// the job again (--retries), and it resumes from its state.
			marker := fmt.Sprintf("\x00--shard\x00%d/4\x00", victim)
			killed := false
			for end := time.Now().Add(2 * time.Minute); !killed && time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				// A shard's lines reach stdout when it ends: go by
				// the pages the site has served.
				if len(site.Hits()) < 80 {
					continue
				}
				for _, pid := range descendants(cmd.Process.Pid) {
					if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); strings.Contains(string(b)+"\x00", marker) && strings.Contains(string(b), "crawl") {
						syscall.Kill(pid, syscall.SIGTERM)
						killed = true
					}
				}
			}
			if !killed {
				t.Errorf("found no worker of shard %d to kill", victim)
			}
		}
		if err := cmd.Wait(); err != nil {
			t.Fatalf("crawl-ssh.sh: %v\n%s", err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	stdout, _ := run(true)

	var got []string
	interrupted := 0
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if gjson.Get(l, "record").String() != "artifact" {
			if !strings.HasPrefix(gjson.Get(l, "error").String(), "interrupted") {
				t.Errorf("not an artifact line: %.200s", l)
			}
			interrupted++
			continue
		}
		if _, err := os.Stat(filepath.Join(work, gjson.Get(l, "dir").String(), "manifest.json")); err != nil {
			t.Errorf("artifact not gathered: %v", err)
		}
		got = append(got, gjson.Get(l, "url").String())
	}
	sort.Strings(got)
	t.Logf("shard %d's worker killed mid-crawl: %d pages in flight became interrupted records, read again by its resumed run", victim, interrupted)
	if want := site.Want(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("recipe wrote %d pages, want %d once each", len(got), len(want))
	}

	byHost := map[string][]time.Time{}
	robots := map[string]int{}
	for _, h := range site.Hits() {
		if h.Path == "/robots.txt" {
			robots[h.Host]++
			continue
		}
		byHost[h.Host] = append(byHost[h.Host], h.At)
	}
	for _, h := range site.Hosts {
		want := 1 // once per host across the four workers
		if frontier.ShardOf("http://"+h+"/", 4) == victim {
			want = 2 // and once more by the killed worker's second run
		}
		if robots[h] != want {
			t.Errorf("%s: robots.txt fetched %d times by the workers, want %d", h, robots[h], want)
		}
		ts := byHost[h]
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		const k = 50
		for i := 0; i+k-1 < len(ts); i++ {
			if w := ts[i+k-1].Sub(ts[i]); w < (k-1)*delay-25*time.Millisecond {
				t.Errorf("%s: %d requests within %v across the workers, delay %v", h, k, w, delay)
				break
			}
		}
	}

	// Run again: the joblog says every shard is done.
	if stdout, stderr := run(false); stdout != "" {
		t.Errorf("re-run of a finished crawl wrote %d bytes\n%s", len(stdout), stderr)
	}
}

// lockedBuffer is a bytes.Buffer a process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// descendants lists the processes below pid (from /proc).
func descendants(pid int) []int {
	parent := map[int]int{}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		p, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
