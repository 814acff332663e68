package mcp

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sieve-dev/sieve/capture"
)

// editedPage serves one page on 127.0.0.1 that edit changes: a paragraph
// and a section are added above the sections that were there.
type editedPage struct{ edited atomic.Bool }

const pageBefore = `<!DOCTYPE html><html lang="en"><head><title>Basket rules</title></head><body><main>
<h1>Basket rules</h1><p>How the cooperative weighs and records baskets of tea leaves each morning.</p>
%s
<h2>Weighing</h2><p>Every basket is weighed twice on the shed scale, once wet and once after the leaves rest.</p>
<h2>Records</h2><p>The weights go into the ledger with the picker's number and the row the leaves came from.</p>
<h2>Payment</h2><p>Pickers are paid by the dry weight at the end of each week, in cash or by transfer.</p>
</main></body></html>`

const pageInsert = `<p>New this season: baskets are tagged at the row.</p><h2>Tags</h2><p>Each basket gets a paper tag with the row number before it leaves the field.</p>`

func (p *editedPage) edit() { p.edited.Store(true) }

func (p *editedPage) serve(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		insert := ""
		if p.edited.Load() {
			insert = pageInsert
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.Replace(pageBefore, "%s", insert, 1)))
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// bearer adds the token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// TestStreamableHTTP: the same tools over Streamable HTTP on 127.0.0.1,
// behind a bearer token.
func TestStreamableHTTP(t *testing.T) {
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
	const token = "0123456789abcdef-test"
	go func() { done <- s.ServeHTTP(ctx, ln, token) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	endpoint := "http://" + ln.Addr().String() + "/mcp"

	// Without the token: 401.
	resp, err := http.Post(endpoint, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: HTTP %d, want 401", resp.StatusCode)
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "sieve-test", Version: "0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:   endpoint,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"url": f.base + "/docs.html"}})
	if err != nil || res.IsError {
		t.Fatalf("distill over HTTP: %v %+v", err, res)
	}
	var d distilled
	resultText(t, res, &d)

	// The SDK's DNS rebinding check: a loopback request naming another
	// host is refused, also with the token.
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Host = "attacker.example"
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Host on loopback: HTTP %d, want 403", resp.StatusCode)
	}
	if d.Manifest.Outcome.Status != "ok" || len(d.Manifest.Sections) == 0 {
		t.Errorf("distill over HTTP: %+v", d.Manifest)
	}
}

// TestDefaultTier: a server started with the CLI's default capture options
// reads with --tier auto, as sieve distill does.
func TestDefaultTier(t *testing.T) {
	if capture.DefaultOptions().Tier != capture.TierAuto {
		t.Skip("the CLI's default tier changed")
	}
	s := &Server{opts: Options{Capture: capture.DefaultOptions()}}
	_, tier, err := s.distillTarget(distillInput{URL: "http://example.com/"})
	if err != nil || tier != capture.TierAuto {
		t.Errorf("tier %q %v", tier, err)
	}
}
