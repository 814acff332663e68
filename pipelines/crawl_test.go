package pipelines

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/frontier/sitetest"
)

// TestCrawlSSHRecipe runs pipelines/crawl-ssh.sh with GNU parallel on this
// machine (--sshlogin 4/:, four jobs at once) over a six-host site cut
// into four shards, and checks what the recipe promises: every page once,
// robots.txt once per host across all workers, each host's requests paced
// by the delay however many workers run, and a re-run that finds every
// shard done.
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
	build := exec.Command("go", "build", "-o", filepath.Join(work, "bin", "static")+"/", "../cmd/sieve")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	script, _ := filepath.Abs("crawl-ssh.sh")
	var seeds strings.Builder
	for _, h := range site.Hosts {
		seeds.WriteString("http://" + h + "/\n")
	}
	const delay = 10 * time.Millisecond
	run := func() (string, string) {
		cmd := exec.Command("sh", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "SSHLOGIN=4/:", "SHARDS=4",
			"CRAWL_ARGS=--tier static --allow-private --no-evidence --per-host 2 --delay "+delay.String())
		cmd.Stdin = strings.NewReader(seeds.String())
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("crawl-ssh.sh: %v\n%s", err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	stdout, _ := run()

	var got []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if gjson.Get(l, "record").String() != "artifact" {
			t.Errorf("not an artifact line: %.200s", l)
			continue
		}
		if _, err := os.Stat(filepath.Join(work, gjson.Get(l, "dir").String(), "manifest.json")); err != nil {
			t.Errorf("artifact not gathered: %v", err)
		}
		got = append(got, gjson.Get(l, "url").String())
	}
	sort.Strings(got)
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
		if robots[h] != 1 {
			t.Errorf("%s: robots.txt fetched %d times by the four workers, want once", h, robots[h])
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
	if stdout, stderr := run(); stdout != "" {
		t.Errorf("re-run of a finished crawl wrote %d bytes\n%s", len(stdout), stderr)
	}
}
