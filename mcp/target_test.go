package mcp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sieve-dev/sieve/capture"
)

// targetArgs are the tool arguments that name a target, each checked by
// checkTarget.
var targetArgs = []struct{ tool, arg string }{
	{"distill", "url"},
	{"distill", "path"},
}

// targetLike is the name of an argument that could name a target.
var targetLike = regexp.MustCompile(`(?i)(^|_)(urls?|uris?|paths?|hrefs?|links?|files?|targets?|seeds?|locations?|sites?|dirs?|directory)($|_)`)

// TestTargetArgsAreChecked: every argument of every tool whose name says it
// names a target is one of targetArgs, which TestLocalTargetRefused covers:
// a new tool taking urls or paths fails here until it is.
func TestTargetArgsAreChecked(t *testing.T) {
	s := connect(t, Options{Capture: capture.DefaultOptions()})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, tool := range res.Tools {
		schema, ok := tool.InputSchema.(map[string]any)
		if !ok {
			t.Fatalf("%s: input schema %T", tool.Name, tool.InputSchema)
		}
		props, _ := schema["properties"].(map[string]any)
		for name := range props {
			if targetLike.MatchString(name) {
				found = append(found, tool.Name+"."+name)
			}
		}
	}
	var want []string
	for _, a := range targetArgs {
		want = append(want, a.tool+"."+a.arg)
	}
	slices.Sort(found)
	slices.Sort(want)
	if !slices.Equal(found, want) {
		t.Errorf("arguments naming a target: %v; targetArgs (the checked ones): %v", found, want)
	}
}

// secretFile writes a file standing for one the server's host keeps to
// itself, and returns its absolute path and its marker text.
func secretFile(t *testing.T) (path, marker string) {
	t.Helper()
	marker = "root:x:0:0:sieve-secret-marker"
	path = filepath.Join(t.TempDir(), "passwd.html")
	if err := os.WriteFile(path, []byte("<!DOCTYPE html><title>Secret</title><main><h1>Accounts</h1><p>"+marker+" and enough words to read as content.</p></main>"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, marker
}

// localForms are the ways to name the file at abs (and a file that is not
// there): every one is refused alike by a server without --allow-paths.
func localForms(t *testing.T, abs string) []string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		t.Fatal(err)
	}
	return []string{
		abs,
		rel,
		filepath.Dir(abs) + "/./" + filepath.Base(abs),
		"file://" + abs,
		"FILE://" + abs,
		"file://localhost" + abs,
		"file:" + abs,
		"file:///etc/passwd",
		"/etc/passwd",
		abs + ".not-there",
		"file://" + filepath.Dir(abs) + "/p%61sswd.html",
	}
}

// TestLocalTargetRefused: on a server started without --allow-paths, each
// argument that names a target refuses every local form (distill's url
// took them and read the file before), stores nothing and returns nothing
// of the file; the same server reads http(s) URLs. With --allow-paths the
// same forms read.
func TestLocalTargetRefused(t *testing.T) {
	secret, marker := secretFile(t)
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	s := connect(t, Options{Capture: o})
	for _, a := range targetArgs {
		for _, form := range localForms(t, secret) {
			res := s.wholeResult(t, a.tool, map[string]any{a.arg: form})
			if !strings.Contains(res, `"isError":true`) || !strings.Contains(res, "error (usage): this server reads no local files (start it with --allow-paths)") {
				t.Errorf("%s %s=%q: %s", a.tool, a.arg, form, res)
			}
			if strings.Contains(res, marker) {
				t.Errorf("%s %s=%q returned the file's text", a.tool, a.arg, form)
			}
		}
	}
	if keys := s.srv.store.keys(); len(keys) != 0 {
		t.Errorf("refused reads stored artifacts %v", keys)
	}

	allowed := connect(t, Options{Capture: o, AllowPaths: true})
	for _, a := range targetArgs {
		for _, form := range localForms(t, secret)[:7] {
			var d distilled
			if text, isErr := allowed.call(t, a.tool, map[string]any{a.arg: form}, &d); isErr || d.Manifest.Outcome.Status != "ok" {
				t.Errorf("--allow-paths: %s %s=%q: %s", a.tool, a.arg, form, text)
			}
		}
	}
	if text, isErr := allowed.call(t, "distill", map[string]any{"path": "https://example.com/"}, nil); !isErr || !strings.Contains(text, "is a URL") {
		t.Errorf("a URL as path: %q", text)
	}
}

// TestLocalTargetRefusedOverHTTP: the same refusal over Streamable HTTP,
// without a token.
func TestLocalTargetRefusedOverHTTP(t *testing.T) {
	secret, marker := secretFile(t)
	f := serveSample(t)
	s, err := New(Options{Capture: f.opts, Store: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, "") }()
	defer func() {
		cancel()
		<-done
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "sieve-test", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, args := range []map[string]any{{"url": secret}, {"url": "file://" + secret}, {"path": secret}} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		text := resultText(t, res, nil)
		if !res.IsError || !strings.HasPrefix(text, "error (usage): this server reads no local files") || strings.Contains(text, marker) {
			t.Errorf("distill %v over HTTP: %q", args, text)
		}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"url": f.base + "/docs.html"}})
	if err != nil || res.IsError {
		t.Fatalf("an http URL over HTTP: %v %s", err, resultText(t, res, nil))
	}
}
