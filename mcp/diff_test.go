package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sieve-dev/sieve/schemas"
)

const plansPage = `<!doctype html><html lang="en"><head><title>Plans</title></head><body><main>
<h1>Plans</h1>
<p>Our plans suit teams of every size, from two people to two thousand.</p>
<h2>Pricing</h2>
<p>The basic plan costs 10 dollars a month and includes email support for every seat.</p>
<h2>Support</h2>
<p>Support answers within one business day, on weekdays and on public holidays.</p>
</main></body></html>`

// stdioSession is a client talking to a fresh server over a stdio pair, as
// `sieve mcp` serves one.
func stdioSession(t *testing.T, o Options) *session {
	t.Helper()
	o.Store = t.TempDir()
	o.Log = &syncBuffer{}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, inR, outW); outW.Close() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sieve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		s.Close()
	})
	return &session{srv: s, cs: cs}
}

type changesDistilled struct {
	Artifact string      `json:"artifact"`
	Reused   bool        `json:"reused"`
	Changes  *changesOut `json:"changes"`
}

// distill of a URL already in the store says what changed since the
// stored read; the diff tool returns the diff of two stored reads.
func TestDistillChangesAndDiff(t *testing.T) {
	var mu sync.Mutex
	pages := map[string]string{"/plans": plansPage, "/other": strings.Replace(plansPage, "Plans", "Other", 2)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, pages[r.URL.Path])
	}))
	defer srv.Close()
	s := stdioSession(t, Options{Capture: allowing(t, srv.URL)})
	read := func(path string) (changesDistilled, string) {
		var d changesDistilled
		text, isErr := s.call(t, "distill", map[string]any{"url": srv.URL + path}, &d)
		if isErr {
			t.Fatalf("distill: %s", text)
		}
		return d, text
	}

	first, _ := read("/plans")
	if first.Changes != nil {
		t.Errorf("a first read says changes: %+v", first.Changes)
	}
	same, _ := read("/plans")
	if !same.Reused || same.Changes == nil || same.Changes.Status != "unchanged" || same.Changes.Since != first.Artifact {
		t.Errorf("the same page again: %+v", same)
	}

	mu.Lock()
	p := strings.Replace(plansPage, "costs 10 dollars", "costs 12 dollars", 1)
	pages["/plans"] = strings.Replace(p, "</main>", "<h2>News</h2><p>The plans now include a yearly invoice for every team that asks.</p></main>", 1)
	mu.Unlock()
	edited, text := read("/plans")
	c := edited.Changes
	if edited.Artifact == first.Artifact || c == nil || c.Status != "changed" || c.Since != first.Artifact ||
		c.Summary.Changed != 1 || c.Summary.Added != 1 || len(c.Sections) != 2 {
		t.Fatalf("the edited page: %+v\n%s", c, text)
	}
	if c.Sections[0].Change != "changed" || c.Sections[1].Change != "added" || c.Sections[1].Title != "News" {
		t.Errorf("sections %+v", c.Sections)
	}
	if !strings.Contains(text, "since the stored read "+first.Artifact+": changed") || !strings.Contains(text, "changed "+c.Sections[0].NewID) {
		t.Errorf("distill text lacks the changes:\n%s", text)
	}

	// diff with since defaulting to the read stored before.
	var d diffOutput
	var raw struct {
		Diff json.RawMessage `json:"diff"`
	}
	text, isErr := s.call(t, "diff", map[string]any{"artifact": edited.Artifact}, &raw)
	if isErr {
		t.Fatalf("diff: %s", text)
	}
	if err := schemas.Validate("diff", raw.Diff); err != nil {
		t.Errorf("diff does not validate: %v\n%s", err, raw.Diff)
	}
	s.call(t, "diff", map[string]any{"artifact": edited.Artifact}, &d)
	if d.Since != first.Artifact || d.Status != "changed" || !strings.Contains(text, "untrusted") ||
		!strings.Contains(text, "[-10-] {+12+}") {
		t.Errorf("diff: %+v\n%s", d, text)
	}
	// The reverse, named: the same sections the other way round.
	back, isErr := s.call(t, "diff", map[string]any{"artifact": first.Artifact, "since": edited.Artifact}, &d)
	if isErr || d.Status != "changed" || !strings.Contains(back, "removed") {
		t.Errorf("reverse diff: %+v\n%s", d, back)
	}

	other, _ := read("/other")
	for _, bad := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"artifact": other.Artifact}, "error (not_found): no earlier read"},
		{map[string]any{"artifact": other.Artifact, "since": first.Artifact}, "error (usage): "},
		{map[string]any{"artifact": "../../etc"}, "error (not_found): "},
	} {
		if text, isErr := s.call(t, "diff", bad.args, nil); !isErr || !strings.HasPrefix(text, bad.want) {
			t.Errorf("diff %v: %q, want %q", bad.args, text, bad.want)
		}
	}
}
