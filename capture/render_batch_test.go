package capture_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
)

// captureMainEnv makes the test binary run as sieve-capture, so a test can
// run the real command as its own process tree and kill its Chromium.
const captureMainEnv = "SIEVE_TEST_RUN_CAPTURE"

func captureMain() int {
	app := cliutil.App("sieve-capture", capture.Command(), cliutil.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	return cliutil.Main(app, os.Args)
}

// batchPage is a shell that hydrates after 200 ms with its own number.
func batchPage(w http.ResponseWriter, r *http.Request) {
	n := strings.TrimPrefix(r.URL.Path, "/batch/")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html lang="en"><head><title>Batch %s</title><script>
setTimeout(() => { document.getElementById("root").innerHTML = "<main><h1>Page %s</h1><p>BATCH-PAGE-%s is a page of a batch that a browser wrote after two hundred milliseconds, with enough words to read as an article.</p></main>"; }, 200);
</script></head><body><div id="root"></div></body></html>`, n, n, n)
}

// chromiumUnder returns the Chromium browser process (not its renderers or
// helpers) among the descendants of pid, or 0.
func chromiumUnder(pid int) int {
	parent := map[int]int{}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		id, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		if len(f) > 1 {
			parent[id], _ = strconv.Atoi(f[1])
		}
	}
	for id := range parent {
		under := false
		for p := parent[id]; p > 1 && !under; p = parent[p] {
			under = p == pid
		}
		if !under {
			continue
		}
		cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", id))
		if strings.Contains(string(cmd), "--remote-debugging-port") && !strings.Contains(string(cmd), "--type=") {
			return id
		}
	}
	return 0
}

type batchLine struct {
	Record       string `json:"record"`
	URL          string `json:"url"`
	Tier         string `json:"tier"`
	TierFellBack bool   `json:"tier_fell_back"`
	Render       *struct {
		Error *struct{ Message string } `json:"error"`
	} `json:"render"`
	DOM []struct {
		Text string `json:"text"`
	} `json:"dom"`
}

// Killing Chromium mid-batch loses no record: the real command, in its own
// process, gives one capture record per input line, and the pages after
// the kill render in a new browser.
func TestRenderBatchSurvivesBrowserKill(t *testing.T) {
	needChromium(t)
	t.Parallel() // a browser of its own; mostly waits
	const n, before = 8, 3
	cmd := exec.Command(os.Args[0], "--tier", "auto", "--allow-private", "--concurrency", "2", "--settle", "3s", "--render-timeout", "45s")
	cmd.Env = append(os.Environ(), captureMainEnv+"=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, n+1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	url := func(i int) string { return fmt.Sprintf("%s/batch/%d", renderSrv.URL, i) }
	for i := 1; i <= before; i++ {
		fmt.Fprintln(stdin, url(i))
	}
	var got []string
	got = append(got, next(t, lines))
	killed := chromiumUnder(cmd.Process.Pid)
	if killed == 0 {
		t.Fatal("no Chromium process under the capture command")
	}
	syscall.Kill(killed, syscall.SIGKILL)
	for i := before + 1; i <= n; i++ {
		fmt.Fprintln(stdin, url(i))
	}
	stdin.Close()
	for line := range lines {
		got = append(got, line)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("sieve-capture: %v\n%s", err, stderr.String())
	}
	checkBatch(t, got, n, url)
	if p := chromiumUnder(cmd.Process.Pid); p != 0 {
		t.Errorf("Chromium %d outlived the command", p)
	}
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("sieve-chromium-%d-*", cmd.Process.Pid))); len(left) > 0 {
		t.Errorf("profiles left behind: %v", left)
	}
}

func next(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the command ended early")
		}
		return l
	case <-time.After(3 * time.Minute): // a race-built command on a loaded machine is slow, a hung one is not
		t.Fatal("no record within three minutes")
	}
	return ""
}

// checkBatch: one capture record per line in input order; each rendered or
// fallen back with the failure; the last two (read after the kill) rendered.
func checkBatch(t *testing.T, got []string, n int, url func(int) string) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("%d output lines for %d input lines", len(got), n)
	}
	fell := 0
	for i, line := range got {
		var r batchLine
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Record != "capture" || r.URL != url(i+1) {
			t.Fatalf("line %d: %v record %q url %q", i+1, err, r.Record, r.URL)
		}
		if err := schemas.ValidateRecord([]byte(line)); err != nil {
			t.Errorf("line %d does not validate: %v", i+1, err)
		}
		text := ""
		for _, d := range r.DOM {
			text += d.Text
		}
		rendered := r.Tier == capture.TierRender && strings.Contains(text, fmt.Sprintf("BATCH-PAGE-%d ", i+1))
		failed := r.Tier == capture.TierStatic && r.TierFellBack && r.Render != nil && r.Render.Error != nil
		switch {
		case failed:
			fell++
			t.Logf("line %d fell back: %s", i+1, r.Render.Error.Message)
		case !rendered:
			t.Errorf("line %d: tier %s, neither rendered with its text nor fallen back", i+1, r.Tier)
		}
		if i >= n-2 && !rendered {
			t.Errorf("line %d, well after the kill, did not render again", i+1)
		}
	}
	t.Logf("%d of %d pages fell back to the static read after the kill", fell, n)
}
