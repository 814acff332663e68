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
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/shard"
	"github.com/sieve-dev/sieve/internal/warctest"
)

// warcFiles writes n WARC files of pages pages each under work/warcs (the
// last record of file 0 corrupt) and returns their relative paths and the
// URLs of the good pages.
func warcFiles(tb testing.TB, work string, first, n, pages int) ([]string, []string) {
	tb.Helper()
	os.MkdirAll(filepath.Join(work, "warcs"), 0o755)
	var paths, want []string
	for f := first; f < first+n; f++ {
		var recs []warctest.Rec
		for p := 0; p < pages; p++ {
			uri := fmt.Sprintf("http://w%d.warc.test/p%d", f, p)
			var body strings.Builder
			fmt.Fprintf(&body, "<html><head><title>File %d page %d</title></head><body><main><h1>File %d page %d</h1>", f, p, f, p)
			for k := 0; k < 12; k++ {
				fmt.Fprintf(&body, "<p>Paragraph %d of page %d in WARC file %d, long enough to be read as content by the graph.</p>", k, p, f)
			}
			body.WriteString("</main></body></html>")
			rec := warctest.Page(uri, []byte(body.String()))
			if f == 0 && p == pages-1 {
				rec.PayloadDigest = warctest.WrongDigest
			} else {
				want = append(want, uri)
			}
			recs = append(recs, rec)
		}
		rel := fmt.Sprintf("warcs/cc-%03d.warc.gz", f)
		if err := os.WriteFile(filepath.Join(work, rel), warctest.File(true, recs...), 0o644); err != nil {
			tb.Fatal(err)
		}
		paths = append(paths, rel)
	}
	return paths, want
}

// warcRecipe runs pipelines/warc-ssh.sh in work over logins with the WARC
// paths on stdin; during, if set, runs while it does.
func (l *lab) warcRecipe(tb testing.TB, work, logins string, paths []string, during func()) (string, string) {
	tb.Helper()
	script, _ := filepath.Abs("warc-ssh.sh")
	cmd := exec.Command("sh", script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "SSHLOGIN="+logins, "OUT=shards", "PARALLEL_SSH="+l.ssh, "DISTILL_ARGS=--no-evidence")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	if during != nil {
		during()
	}
	if err := cmd.Wait(); err != nil {
		tb.Fatalf("warc-ssh.sh: %v\n%s", err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// TestWARCSSHNetns runs pipelines/warc-ssh.sh over three worker machines
// (network namespaces with their own sshd, as TestCrawlSSHNetns): six WARC
// files sent with --transferfile, one shard each brought back with
// --return. Worker 2 is killed in the middle of a shard (its index half
// written); its file is distilled again on another worker (a file whose
// shard the dead worker could not send back goes again too), and stdout
// and the shards hold every page once, the corrupt record as one error
// line, and no partial shard. Run again with one more file, only that file is
// distilled (--joblog, --resume-failed).
func TestWARCSSHNetns(t *testing.T) {
	t0 := time.Now()
	l := newLab(t, 3, 1)
	l.start(map[string]string{"unused.warc.test": l.siteIPs[0]})
	work := t.TempDir()
	staticSieve(t, work)
	const pages = 40
	paths, want := warcFiles(t, work, 0, 6, pages)
	t.Logf("lab and %d WARC files of %d pages: %v", len(paths), pages, time.Since(t0).Round(time.Millisecond))

	victim := l.hosts[1]
	var killedAt time.Time
	kill := func() {
		// Kill worker 2 once its shard's index has 5 lines of 40.
		for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			tmps, _ := filepath.Glob(filepath.Join(victim.home, "shards", "*"+shard.IndexExt+".tmp"))
			for _, tmp := range tmps {
				if b, _ := os.ReadFile(tmp); bytes.Count(b, []byte("\n")) >= 5 {
					l.kill(victim)
					killedAt = time.Now()
					return
				}
			}
		}
		t.Error("worker 2 wrote no 5 artifacts of a shard within two minutes")
	}
	stdout, stderr := l.warcRecipe(t, work, l.logins(1, l.hosts...), paths, kill)
	if killedAt.IsZero() {
		t.FailNow()
	}
	t.Logf("six WARC files over three workers, worker 2 killed mid-shard: %v", time.Since(t0).Round(time.Millisecond))
	checkWARCRun(t, work, stdout, stderr, want, 1)
	checkJoblog(t, filepath.Join(work, "shards", "joblog"), len(paths))

	// The same command with one more file, on the two workers left: the
	// six finished files are not read again.
	more, wantMore := warcFiles(t, work, 6, 1, pages)
	stdout, stderr = l.warcRecipe(t, work, l.logins(1, l.hosts[0], l.hosts[2]), append(paths, more...), nil)
	checkWARCRun(t, work, stdout, stderr, wantMore, 0)
	t.Logf("whole test: %v", time.Since(t0).Round(time.Millisecond))
}

// checkWARCRun: stdout has every page of want once and errors error lines;
// every artifact line names a shard that was brought back and holds it;
// across all shards each URL is once and no partial shard is left.
func checkWARCRun(t *testing.T, work, stdout, stderr string, want []string, errors int) {
	t.Helper()
	var got []string
	nerr := 0
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		ln := sc.Text()
		switch gjson.Get(ln, "record").String() {
		case "artifact":
			got = append(got, gjson.Get(ln, "url").String())
			archive, key, ok := shard.SplitRef(gjson.Get(ln, "dir").String())
			if !ok {
				t.Errorf("dir is not ARCHIVE#KEY: %.300s", ln)
				continue
			}
			r, err := shard.Open(filepath.Join(work, archive))
			if err != nil {
				t.Errorf("shard not brought back: %v", err)
				continue
			}
			if e, _, err := r.Find(key); err != nil || e.ContentHash != gjson.Get(ln, "content_hash").String() {
				t.Errorf("%s: %+v %v", key, e, err)
			}
		case "error":
			nerr++
		default:
			t.Errorf("not an artifact or error line: %.300s", ln)
		}
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || nerr != errors {
		t.Errorf("recipe wrote %d artifact lines for %d pages and %d error lines (want %d); stderr:\n%s", len(got), len(want), nerr, errors, stderr)
	}
	seen := map[string]int{}
	archives, _ := filepath.Glob(filepath.Join(work, "shards", "*"+shard.ArchiveExt))
	for _, a := range archives {
		r, err := shard.Open(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Entries() {
			seen[e.URL]++
		}
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%s in the shards %d times", u, n)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(work, "shards", "*.tmp")); len(left) > 0 {
		t.Errorf("partial shards brought back: %v", left)
	}
}

// checkJoblog: each file has one successful attempt in the joblog (the
// killed worker's attempt is not there: parallel logs a job's last try).
func checkJoblog(t *testing.T, joblog string, files int) {
	t.Helper()
	b, err := os.ReadFile(joblog)
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		f := strings.Split(line, "\t")
		if len(f) < 9 {
			t.Fatalf("joblog line %q", line)
		}
		if code, _ := strconv.Atoi(f[6]); code == 0 && f[7] == "0" {
			if ok[f[0]] {
				t.Errorf("job %s succeeded twice", f[0])
			}
			ok[f[0]] = true
		}
	}
	if len(ok) != files {
		t.Errorf("joblog: %d files done of %d\n%s", len(ok), files, b)
	}
}
