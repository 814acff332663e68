package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunCounts(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA","Elapsed":0.1}`,
		`{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:3: Chromium is missing\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestB"}`,
		`{"Action":"output","Package":"p","Test":"TestC","Output":"    c_test.go:9: got 1, want 2\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestC"}`,
		`{"Action":"fail","Package":"p","Elapsed":1.5}`,
		`# q`,
		`q/x.go:1:1: syntax error`,
		`{"Action":"pass","Package":"r","Elapsed":0.2}`,
	}, "\n")
	var out bytes.Buffer
	code := run(strings.NewReader(in), &out, []string{"unit"})
	got := out.String()
	for _, want := range []string{
		"c_test.go:9: got 1, want 2", "FAIL p (1.5s)", "ok   r (200ms)", "q/x.go:1:1: syntax error",
		"skipped: p TestB: b_test.go:3: Chromium is missing", "unit: 1 passed, 1 failed, 1 skipped in 0s\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "=== RUN") || code != 1 {
		t.Errorf("code %d, output:\n%s", code, got)
	}
}

func TestRunAllPass(t *testing.T) {
	var out bytes.Buffer
	if code := run(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestA"}`+"\n"), &out, nil); code != 0 {
		t.Errorf("code %d", code)
	}
	if !strings.HasSuffix(out.String(), "go test: 1 passed, 0 failed, 0 skipped in 0s\n") {
		t.Errorf("output %q", out.String())
	}
}
