package jsonl

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestChainErrorsInUserWords (issue 26): a chain the user ran as one
// command (sieve distill, sieve crawl) says which target failed, not which
// internal stage; a stage binary still names itself.
func TestChainErrorsInUserWords(t *testing.T) {
	capture := Stage{Name: "capture", Raw: true, Transform: func(_ context.Context, line []byte) ([]byte, error) {
		return []byte(`{"record":"capture"}`), nil
	}}
	normalize := Stage{Name: "normalize", Accept: []string{"capture"}, Transform: func(context.Context, []byte) ([]byte, error) {
		return nil, errors.New("unsupported content type application/octet-stream")
	}}
	for _, tc := range []struct {
		named bool
		in    string
		want  string
	}{
		{true, "data.bin\n", "sieve distill: line 1: data.bin: unsupported content type application/octet-stream\n"},
		{true, `{"url":"http://a.test/x","depth":2}` + "\n", "sieve distill: line 1: http://a.test/x: unsupported content type application/octet-stream\n"},
		{false, "data.bin\n", "sieve-normalize: line 1: unsupported content type application/octet-stream\n"},
	} {
		ctx := context.Background()
		if tc.named {
			ctx = WithProg(ctx, "sieve distill")
		}
		var out, stderr bytes.Buffer
		Run(ctx, strings.NewReader(tc.in), &out, &stderr, Chain("distill", capture, normalize))
		if got, _, _ := strings.Cut(stderr.String(), "\n"); got+"\n" != tc.want {
			t.Errorf("named %v, input %q: stderr %q, want %q", tc.named, tc.in, stderr.String(), tc.want)
		}
		if strings.Contains(out.String(), `"stage":"normalize"`) == false {
			t.Errorf("the error record still names its stage: %s", out.String())
		}
	}
}

// TestInterruptedLineNamesURL: a line the end of the run overtook says
// its URL, not only its line number.
func TestInterruptedLineNamesURL(t *testing.T) {
	ctx, cancel := context.WithCancel(WithProg(context.Background(), "sieve crawl"))
	st := Stage{Name: "capture", Raw: true, Transform: func(ctx context.Context, line []byte) ([]byte, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	var out, stderr bytes.Buffer
	Run(ctx, strings.NewReader(`{"url":"http://a.test/page","depth":1}`+"\n"), &out, &stderr, Chain("crawl", st))
	if !strings.Contains(stderr.String(), "sieve crawl: line 1: http://a.test/page: interrupted") {
		t.Errorf("stderr %q: the interrupted line should name its URL", stderr.String())
	}
}
