package jsonl

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLatestLaterLineStands: lines share keys and finish in the reverse of
// their order (an earlier line sleeps longer); what each key ends with is
// its last line's commit, as if the lines ran one by one, and every line
// still gets its output line.
func TestLatestLaterLineStands(t *testing.T) {
	const lines, keys = 48, 5
	var mu sync.Mutex
	stands := map[string]int{} // key → line whose commit ran last
	skipped := 0
	st := Stage{Name: "t", Raw: true, Concurrency: 6, Transform: func(ctx context.Context, line []byte) ([]byte, error) {
		no, _ := strconv.Atoi(string(line))
		time.Sleep(time.Duration(lines-no) * 300 * time.Microsecond)
		key := "k" + strconv.Itoa(no%keys)
		ran, err := Latest(ctx, key, func() error {
			mu.Lock()
			defer mu.Unlock()
			stands[key] = no
			return nil
		})
		if !ran {
			mu.Lock()
			skipped++
			mu.Unlock()
		}
		return []byte(fmt.Sprintf(`{"record":"x","n":%d}`, no)), err
	}}
	var in strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&in, "%d\n", i)
	}
	var out bytes.Buffer
	if _, err := Run(context.Background(), strings.NewReader(in.String()), &out, nil, st); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != lines {
		t.Fatalf("%d output lines, want %d", n, lines)
	}
	for k := 0; k < keys; k++ {
		key := "k" + strconv.Itoa(k)
		last := lines - (lines-k)%keys // the last line with no%keys == k
		if stands[key] != last {
			t.Errorf("%s: line %d's commit stands, want line %d's", key, stands[key], last)
		}
	}
	if skipped == 0 {
		t.Error("no earlier line came after a later one: the test did not reorder the work")
	}
}

// TestLatestOutsideRun: without a line of Run in ctx, commit just runs.
func TestLatestOutsideRun(t *testing.T) {
	calls := 0
	for i := 0; i < 2; i++ {
		ran, err := Latest(context.Background(), "k", func() error { calls++; return nil })
		if !ran || err != nil {
			t.Fatal(ran, err)
		}
	}
	if calls != 2 {
		t.Errorf("%d commits, want 2", calls)
	}
}

// TestLatestForgetsWrittenLines: a run of many distinct keys keeps only
// the keys of lines not yet written, not one per line of the run.
func TestLatestForgetsWrittenLines(t *testing.T) {
	const lines = 5000
	var largest int
	var o *order
	st := Stage{Name: "t", Raw: true, Concurrency: 4, Transform: func(ctx context.Context, line []byte) ([]byte, error) {
		li := ctx.Value(lineKey{}).(*lineInfo)
		_, err := Latest(ctx, string(line), func() error { return nil })
		li.order.mu.Lock()
		o = li.order
		largest = max(largest, len(li.order.last))
		li.order.mu.Unlock()
		return []byte(`{"record":"x"}`), err
	}}
	var in strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&in, "url-%d\n", i)
	}
	if _, err := Run(context.Background(), strings.NewReader(in.String()), &bytes.Buffer{}, nil, st); err != nil {
		t.Fatal(err)
	}
	if o == nil || largest > 1024+64 {
		t.Errorf("the run's map grew to %d keys for %d lines", largest, lines)
	}
}
