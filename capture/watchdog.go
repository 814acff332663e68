package capture

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// watchEvery is how often the memory watchdog samples the browser tree.
const watchEvery = 250 * time.Millisecond

// memWatch is the memory watchdog over one Chromium process tree: when the
// tree's proportional set size passes the budget, the largest renderer (one
// page: each read has a browser context, and so renderers, of its own) is
// killed. That page's read then fails as a crash, and says why.
type memWatch struct {
	root   int
	budget int64 // bytes
	stop   chan struct{}

	mu    sync.Mutex
	kills int    // renderers killed so far
	last  string // what the last kill was
	peak  int64  // highest tree size seen, bytes
}

func startMemWatch(root int, budgetMB int) *memWatch {
	w := &memWatch{root: root, budget: int64(budgetMB) << 20, stop: make(chan struct{})}
	go w.run()
	return w
}

func (w *memWatch) close() {
	if w != nil {
		close(w.stop)
	}
}

func (w *memWatch) run() {
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.check()
		}
	}
}

func (w *memWatch) check() {
	procs := treeOf(w.root)
	var total, biggest int64
	victim := 0
	for _, pid := range procs {
		m := pssOf(pid)
		total += m
		if m > biggest && isRenderer(pid) {
			biggest, victim = m, pid
		}
	}
	w.mu.Lock()
	w.peak = max(w.peak, total)
	w.mu.Unlock()
	if total <= w.budget || victim == 0 {
		return
	}
	killTree(victim)
	w.mu.Lock()
	w.kills++
	w.last = fmt.Sprintf("the browser used %d MiB, over its memory budget of %d MiB (--browser-memory-mb): the page's renderer, %d MiB, was killed",
		total>>20, w.budget>>20, biggest>>20)
	w.mu.Unlock()
}

// state is the kill count and the last kill's description.
func (w *memWatch) state() (int, string) {
	if w == nil {
		return 0, ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.kills, w.last
}

// Peak is the largest tree size seen, in bytes.
func (w *memWatch) Peak() int64 {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peak
}

// treeOf lists root and its descendants, from /proc.
func treeOf(root int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp := ppidOf(pid); pp > 0 {
			children[pp] = append(children[pp], pid)
		}
	}
	out := []int{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

func ppidOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	pp, _ := strconv.Atoi(f[1])
	return pp
}

// pssOf is a process's proportional set size in bytes (shared pages split
// among their users, so a tree's sum is what it really holds); RSS where
// smaps_rollup is missing.
func pssOf(pid int) int64 {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	if f, err := os.Open(filepath.Join(dir, "smaps_rollup")); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "Pss:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				return kb << 10
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "statm"))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseInt(f[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

func isRenderer(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	return err == nil && bytes.Contains(b, []byte("--type=renderer"))
}

// TreeMemory is the Chromium tree's current size in bytes (0 when not running).
func (br *Browser) TreeMemory() int64 {
	pid := br.PID()
	if pid == 0 {
		return 0
	}
	var total int64
	for _, p := range treeOf(pid) {
		total += pssOf(p)
	}
	return total
}

// PeakMemory is the largest size of the browser tree the watchdog saw
// since launch, in bytes.
func (br *Browser) PeakMemory() int64 {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.mem.Peak()
}
