package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/evidence/evcmd"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
	"github.com/sieve-dev/sieve/verify"
)

// syncBuffer is a log the server writes from its handlers' goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fixture is the sample site on 127.0.0.1 and the capture options that
// allow exactly its address, as `--allow-addr` does for the CLI.
type fixture struct {
	base string
	opts capture.Options
}

func serveSample(t *testing.T) fixture {
	t.Helper()
	base, stop, err := sample.Serve("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return fixture{base: base, opts: allowing(t, base)}
}

func allowing(t *testing.T, base string) capture.Options {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	ap, err := netip.ParseAddrPort(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	o.AllowAddrs = []netip.AddrPort{ap}
	return o
}

// session is a client connected to a fresh server over the SDK's in-memory
// transport.
type session struct {
	srv      *Server
	cs       *mcp.ClientSession
	log      *syncBuffer
	progress chan *mcp.ProgressNotificationParams
}

func connect(t *testing.T, o Options) *session {
	t.Helper()
	if o.Store == "" {
		o.Store = t.TempDir()
	}
	log := &syncBuffer{}
	o.Log = log
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	progress := make(chan *mcp.ProgressNotificationParams, 64)
	client := mcp.NewClient(&mcp.Implementation{Name: "sieve-test", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- r.Params:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return &session{srv: s, cs: cs, log: log, progress: progress}
}

// call calls a tool and returns the result's text; a protocol error fails
// the test, a tool error is returned as isErr.
func (s *session) call(t *testing.T, name string, args map[string]any, out any) (text string, isErr bool) {
	t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return resultText(t, res, out), res.IsError
}

func resultText(t *testing.T, res *mcp.CallToolResult, out any) string {
	t.Helper()
	var sb strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			sb.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("structured content: %v\n%s", err, b)
		}
	}
	return sb.String()
}

// wholeResult is a result as the client received it, text and structured
// content together: what a leak check must search.
func (s *session) wholeResult(t *testing.T, name string, args map[string]any) string {
	t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

type manifest struct {
	Outcome struct {
		Status   string   `json:"status"`
		Evidence []string `json:"evidence"`
	} `json:"outcome"`
	URL         string          `json:"url"`
	ContentHash string          `json:"content_hash"`
	Sections    []graph.Section `json:"sections"`
	Counts      graph.Counts    `json:"counts"`
}

type distilled struct {
	Artifact  string   `json:"artifact"`
	Reused    bool     `json:"reused"`
	Resources []string `json:"resources"`
	Manifest  manifest `json:"manifest"`
}

func (s *session) distill(t *testing.T, u string) distilled {
	t.Helper()
	var d distilled
	text, isErr := s.call(t, "distill", map[string]any{"url": u}, &d)
	if isErr {
		t.Fatalf("distill %s: %s", u, text)
	}
	return d
}

func TestToolsAndAnnotations(t *testing.T) {
	s := connect(t, Options{Capture: capture.DefaultOptions()})
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"distill": true, "get_section": true, "get_blocks": true, "search": true,
		"get_hidden_content": true, "verify_citations": true, "anchor_evidence": true, "get_crop": true, "diff": true}
	for _, tool := range res.Tools {
		if !want[tool.Name] {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		delete(want, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: input or output schema missing", tool.Name)
		}
		a := tool.Annotations
		if a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil {
			t.Errorf("%s: annotations %+v, want readOnlyHint and openWorldHint", tool.Name, a)
			continue
		}
		if *a.OpenWorldHint != (tool.Name == "distill") {
			t.Errorf("%s: openWorldHint %v", tool.Name, *a.OpenWorldHint)
		}
	}
	for name := range want {
		t.Errorf("tool %q not listed", name)
	}
}

// cliDistill runs the chain `sieve distill` runs, into dir, and returns
// the artifact record.
func cliDistill(t *testing.T, opts capture.Options, dir, target string) render.Artifact {
	t.Helper()
	cp := capture.New(opts)
	defer cp.Close()
	chain := jsonl.Chain("distill", cp.Stage(), normalize.Stage(), graph.Stage(), render.Stage(render.Options{Out: dir}))
	var out bytes.Buffer
	if _, err := jsonl.Run(context.Background(), strings.NewReader(target+"\n"), &out, nil, chain); err != nil {
		t.Fatal(err)
	}
	var a render.Artifact
	if err := codec.Unmarshal(bytes.TrimSpace(out.Bytes()), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// sampleClaims are docs.html claims of every verdict.
var sampleClaims = []map[string]any{
	{"claim_id": "exact", "kind": "quote", "text": "Ledgerleaf is a single binary."},
	{"claim_id": "invented", "kind": "quote", "text": "Ledgerleaf is written in Rust."},
	{"claim_id": "collapsed", "kind": "quote", "text": "Ledgerleaf keeps a journal next to the ledger"},
}

// TestDistillSectionVerifyLikeCLI is the agent's session: distill →
// get_section → verify_citations gives the CLI's content_hash, section ids,
// section text and report.
func TestDistillSectionVerifyLikeCLI(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	u := f.base + "/docs.html"
	d := s.distill(t, u)
	cli := cliDistill(t, f.opts, t.TempDir(), u)
	if d.Manifest.ContentHash != cli.ContentHash || d.Manifest.Outcome.Status != "ok" {
		t.Fatalf("content_hash %s outcome %s; the CLI: %s %s", d.Manifest.ContentHash, d.Manifest.Outcome.Status, cli.ContentHash, cli.Outcome)
	}
	var cliManifest manifest
	b, err := os.ReadFile(filepath.Join(cli.Dir, render.FileManifest))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cliManifest); err != nil {
		t.Fatal(err)
	}
	if len(cliManifest.Sections) != len(d.Manifest.Sections) || len(d.Manifest.Sections) < 3 {
		t.Fatalf("sections: %d, the CLI %d", len(d.Manifest.Sections), len(cliManifest.Sections))
	}
	for i, sec := range d.Manifest.Sections {
		if sec.ID != cliManifest.Sections[i].ID {
			t.Errorf("section %d: id %s, the CLI %s", i, sec.ID, cliManifest.Sections[i].ID)
		}
	}
	// get_section returns the section's content blocks, ids as the CLI's
	// content.json has them.
	var cliRec graph.Record
	cb, err := os.ReadFile(filepath.Join(cli.Dir, render.FileContent))
	if err != nil {
		t.Fatal(err)
	}
	if err := codec.Unmarshal(cb, &cliRec); err != nil {
		t.Fatal(err)
	}
	for _, sec := range d.Manifest.Sections {
		var out contentOutput
		text, isErr := s.call(t, "get_section", map[string]any{"artifact": d.Artifact, "section_id": sec.ID, "include_chrome": true}, &out)
		if isErr {
			t.Fatalf("get_section %s: %s", sec.ID, text)
		}
		if !strings.HasPrefix(text, render.UntrustedNotice) || out.Notice == "" {
			t.Errorf("get_section %s: no untrusted-content notice first:\n%s", sec.ID, text)
		}
		var want []string
		for _, bl := range cliRec.Blocks {
			if bl.SectionID == sec.ID {
				want = append(want, bl.ID+" "+bl.Text)
			}
		}
		var got []string
		for _, bl := range out.Blocks {
			got = append(got, bl.ID+" "+bl.Text)
			if !strings.Contains(text, "<!-- "+bl.ID) {
				t.Errorf("get_section %s: block id %s not in the Markdown", sec.ID, bl.ID)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("get_section %s:\n%s\nthe CLI's content.json:\n%s", sec.ID, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// verify_citations gives the report `sieve verify` gives on the CLI's
	// artifact, byte for byte.
	var vo verifyOutput
	text, isErr := s.call(t, "verify_citations", map[string]any{"artifact": d.Artifact, "claims": sampleClaims}, &vo)
	if isErr {
		t.Fatalf("verify_citations: %s", text)
	}
	src, err := evcmd.LoadFile(ground.FormatAuto, filepath.Join(cli.Dir, evidenceDocument))
	if err != nil {
		t.Fatal(err)
	}
	cj, _ := json.Marshal(sampleClaims)
	cit, err := verify.ParseCitations(cj)
	if err != nil {
		t.Fatal(err)
	}
	r := verify.Verify(src, cit)
	want, err := r.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if string(vo.Report) != string(want) {
		t.Errorf("verify_citations report differs from the CLI's:\n%s\n%s", vo.Report, want)
	}
	statuses := map[string]string{}
	for _, c := range r.Checks {
		statuses[c.ClaimID] = c.Status
	}
	if statuses["exact"] != "grounded" || statuses["invented"] == "grounded" || statuses["collapsed"] == "grounded" {
		t.Errorf("verdicts %v", statuses)
	}
	if proof, _ := r.ProofSummary(); vo.Proof != proof || !strings.HasPrefix(text, "proof: "+proof) {
		t.Errorf("proof %q, text %q; the CLI: %s", vo.Proof, text, proof)
	}
	// The derived summary surfaces its limitations (SPEC.md §4.4), as
	// sieve verify's limitations: line does.
	lim := strings.Join(r.ProofLimitations(), "; ")
	if lim == "" || strings.Join(vo.Limitations, "; ") != lim || !strings.Contains(text, "\nlimitations: "+lim+"\n") {
		t.Errorf("limitations %q, text %q; want %q", vo.Limitations, text, lim)
	}
}

// TestLatentOnlyInHiddenContent: no result of any other tool, nor any
// resource, holds a latent marker of the sample site; get_hidden_content
// holds all of them, behind the warning, each with its trust marker.
func TestLatentOnlyInHiddenContent(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	var outputs []string
	for _, p := range []string{"/hidden.html", "/docs.html", "/article.html"} {
		args := map[string]any{"url": f.base + p}
		outputs = append(outputs, s.wholeResult(t, "distill", args))
		d := s.distill(t, f.base+p)
		for _, sec := range d.Manifest.Sections {
			outputs = append(outputs, s.wholeResult(t, "get_section", map[string]any{"artifact": d.Artifact, "section_id": sec.ID, "include_chrome": true}))
		}
		if n := d.Manifest.Counts.Blocks; n > 0 {
			outputs = append(outputs, s.wholeResult(t, "get_blocks", map[string]any{"artifact": d.Artifact, "from": "b_000", "to": blockID(n - 1)}))
		}
		for _, q := range append([]string{"latent", "hidden", "the", "a"}, sample.HiddenMarkers...) {
			outputs = append(outputs, s.wholeResult(t, "search", map[string]any{"artifact": d.Artifact, "query": q, "include_chrome": true, "limit": 200}))
		}
		outputs = append(outputs, s.wholeResult(t, "verify_citations", map[string]any{"artifact": d.Artifact, "claims": sampleClaims}))
		outputs = append(outputs, s.wholeResult(t, "get_crop", map[string]any{"artifact": d.Artifact, "check_id": "v0001"}))
		outputs = append(outputs, s.wholeResult(t, "anchor_evidence", map[string]any{"artifact": d.Artifact,
			"refs": []map[string]any{{"evidence_id": "p", "kind": "page", "page_ref": "p0001"}}}))
		for _, uri := range d.Resources {
			r, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				t.Fatalf("%s: %v", uri, err)
			}
			b, _ := json.Marshal(r)
			outputs = append(outputs, string(b))
		}
	}
	for i, out := range outputs {
		for _, m := range sample.HiddenMarkers {
			if strings.Contains(out, m) {
				t.Errorf("output %d leaks latent marker %s:\n%.600s", i, m, out)
			}
		}
	}
	d := s.distill(t, f.base+"/hidden.html")
	var h hiddenOutput
	text, isErr := s.call(t, "get_hidden_content", map[string]any{"artifact": d.Artifact}, &h)
	if isErr {
		t.Fatal(text)
	}
	if !strings.HasPrefix(text, HiddenWarning) || h.Warning != HiddenWarning {
		t.Errorf("get_hidden_content does not open with the warning:\n%.300s", text)
	}
	for _, m := range sample.HiddenMarkers {
		if !strings.Contains(text, m) {
			t.Errorf("get_hidden_content lacks %s", m)
		}
	}
	for _, e := range h.Entries {
		if e.Trust != graph.TrustMarker || !strings.HasPrefix(e.Text, "["+graph.TrustMarker+"]") {
			t.Errorf("entry %s without its trust marker inline: %q", e.ID, e.Text)
		}
	}
	if strings.Count(text, graph.TrustMarker) != len(h.Entries) || len(h.Entries) < len(sample.HiddenMarkers) {
		t.Errorf("%d entries, %d trust markers in the text", len(h.Entries), strings.Count(text, graph.TrustMarker))
	}
	// One entry by id.
	var one hiddenOutput
	if text, isErr := s.call(t, "get_hidden_content", map[string]any{"artifact": d.Artifact, "ids": []string{h.Entries[0].ID}}, &one); isErr || len(one.Entries) != 1 {
		t.Errorf("get_hidden_content by id: %d entries: %s", len(one.Entries), text)
	}
	// A quote of hidden text is not grounded.
	var vo verifyOutput
	s.call(t, "verify_citations", map[string]any{"artifact": d.Artifact,
		"claims": []map[string]any{{"claim_id": "hidden", "kind": "quote", "text": h.Entries[0].Text[len(graph.TrustMarker)+3:]}}}, &vo)
	if vo.AllEvidenceGrounded || vo.Proof == verify.ProofVerified {
		t.Errorf("a quote of hidden text verified: %+v", vo)
	}
	// A visible quote grounds, and the result warns that the document
	// carries a high finding (prompt-injection-like hidden text).
	text, _ = s.call(t, "verify_citations", map[string]any{"artifact": d.Artifact,
		"claims": []map[string]any{{"claim_id": "visible", "kind": "quote", "text": "Visiting the ridge"}}}, &vo)
	if !vo.AllEvidenceGrounded || len(vo.Warnings) == 0 || !strings.Contains(vo.Warnings[0], "security_findings: ") ||
		!strings.Contains(vo.Warnings[0], "prompt_injection_like_hidden_text (high") || !strings.Contains(text, "\nwarning: security_findings: ") {
		t.Errorf("a document with a high finding: warnings %q, text %.300s", vo.Warnings, text)
	}
}

func blockID(i int) string {
	b, _ := json.Marshal(i)
	s := string(b)
	for len(s) < 3 {
		s = "0" + s
	}
	return "b_" + s
}

// TestSectionIDsAcrossEdits: a page edited between two reads (a paragraph
// and a section added above) keeps its section ids; each read has its own
// artifact, and the same id fetches the same section from both.
func TestSectionIDsAcrossEdits(t *testing.T) {
	page := &editedPage{}
	base := page.serve(t)
	s := connect(t, Options{Capture: allowing(t, base)})
	first := s.distill(t, base+"/page")
	page.edit()
	second := s.distill(t, base+"/page")
	if first.Artifact == second.Artifact || first.Manifest.ContentHash == second.Manifest.ContentHash {
		t.Fatalf("an edited page kept its artifact %s / content_hash", first.Artifact)
	}
	ids := map[string]string{}
	for _, sec := range second.Manifest.Sections {
		ids[sec.Title] = sec.ID
	}
	for _, sec := range first.Manifest.Sections {
		if ids[sec.Title] != sec.ID {
			t.Errorf("section %q: id %s, after the edit %s", sec.Title, sec.ID, ids[sec.Title])
		}
		var a, b contentOutput
		s.call(t, "get_section", map[string]any{"artifact": first.Artifact, "section_id": sec.ID}, &a)
		s.call(t, "get_section", map[string]any{"artifact": second.Artifact, "section_id": sec.ID}, &b)
		if a.Section == nil || b.Section == nil || a.Section.Title != b.Section.Title || len(a.Blocks) == 0 {
			t.Errorf("section %s: %+v / %+v", sec.ID, a.Section, b.Section)
		}
	}
	// The unchanged page again: the same handle, reused; an old handle
	// still reads after a restart on the same store.
	again := s.distill(t, base+"/page")
	if again.Artifact != second.Artifact || !again.Reused {
		t.Errorf("re-read of an unchanged page: %s reused=%v, want %s reused", again.Artifact, again.Reused, second.Artifact)
	}
	restarted := connect(t, Options{Capture: allowing(t, base), Store: s.srv.opts.Store})
	var out contentOutput
	if text, isErr := restarted.call(t, "get_section", map[string]any{"artifact": first.Artifact, "section_id": first.Manifest.Sections[0].ID}, &out); isErr {
		t.Errorf("after a restart: %s", text)
	}
	res, err := restarted.cs.ListResources(context.Background(), nil)
	if err != nil || len(res.Resources) != 2*2 {
		t.Errorf("resources after a restart: %v %v", res, err)
	}
}

// TestCancelSlowRead: a read of /slow (30 s) cancelled by the client ends
// at once on the server, which stays usable.
func TestCancelSlowRead(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	ctx, cancel := context.WithCancel(context.Background())
	params := &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"url": f.base + "/slow"}}
	params.SetProgressToken("slow")
	go func() {
		// Cancel once the read has started (the first progress step).
		select {
		case <-s.progress:
		case <-time.After(5 * time.Second):
		}
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	_, err := s.cs.CallTool(ctx, params)
	if err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(s.log.String(), "error (interrupted)") {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not stop the read: log %q", s.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if d := time.Since(start); d > sample.SlowDelay/3 {
		t.Errorf("the cancelled read took %v", d)
	}
	if entries, _ := os.ReadDir(filepath.Join(s.srv.opts.Store, "artifacts")); len(entries) != 0 {
		t.Errorf("a cancelled read stored %d artifacts", len(entries))
	}
	s.distill(t, f.base+"/docs.html")
}

func TestProgress(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	params := &mcp.CallToolParams{Name: "distill", Arguments: map[string]any{"url": f.base + "/article.html"}}
	params.SetProgressToken(7)
	if _, err := s.cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	var steps []float64
	timeout := time.After(5 * time.Second)
	for len(steps) < distillStages+1 {
		select {
		case p := <-s.progress:
			steps = append(steps, p.Progress)
		case <-timeout:
			t.Fatalf("progress steps %v", steps)
		}
	}
	for i, p := range steps {
		if p != float64(i) {
			t.Errorf("progress %v, want 0..%d in order", steps, distillStages)
		}
	}
}

func TestOutcomesAndErrors(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	for p, want := range map[string]string{"/challenge": "challenge", "/app": "spa_shell", "/forbidden": "blocked", "/private/report.html": "blocked"} {
		d := s.distill(t, f.base+p)
		if d.Manifest.Outcome.Status != want || len(d.Manifest.Outcome.Evidence) == 0 {
			t.Errorf("%s: outcome %+v, want %s with evidence", p, d.Manifest.Outcome, want)
		}
	}
	// An address the policy refuses is a blocked read, as on the CLI.
	d := s.distill(t, "http://127.0.0.1:1/")
	if d.Manifest.Outcome.Status != "blocked" {
		t.Errorf("a refused private address: %+v", d.Manifest.Outcome)
	}
	docs := s.distill(t, f.base+"/docs.html")
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"distill", map[string]any{}, "error (usage): "},
		{"distill", map[string]any{"url": f.base, "path": "x"}, "error (usage): "},
		{"distill", map[string]any{"path": "/etc/hostname"}, "error (usage): this server reads no local files"},
		{"distill", map[string]any{"url": "ftp://example.com/"}, "error (failed): could not read ftp://example.com/: "},
		{"distill", map[string]any{"url": f.base + "/image.png"}, "error (failed): could not read "},
		{"distill", map[string]any{"url": f.base, "tier": "fast"}, "error (usage): unknown tier"},
		{"get_section", map[string]any{"artifact": "../../etc", "section_id": "s_intro"}, "error (not_found): "},
		{"get_section", map[string]any{"artifact": docs.Artifact, "section_id": "s_nope"}, "error (not_found): "},
		{"get_blocks", map[string]any{"artifact": docs.Artifact, "from": "b_005", "to": "b_001"}, "error (usage): "},
		{"search", map[string]any{"artifact": docs.Artifact, "query": " "}, "error (usage): "},
		{"verify_citations", map[string]any{"artifact": docs.Artifact, "claims": []any{}}, `{"error":{"code":"invalid_citations",`},
		{"anchor_evidence", map[string]any{"artifact": docs.Artifact, "refs": []any{map[string]any{"kind": "page"}}}, `{"error":{"code":"invalid_evidence_refs",`},
	} {
		text, isErr := s.call(t, c.tool, c.args, nil)
		if !isErr || !strings.HasPrefix(text, c.want) {
			t.Errorf("%s %v: isError=%v %q, want %q…", c.tool, c.args, isErr, text, c.want)
		}
	}
}

func TestSearchAndBlocks(t *testing.T) {
	f := serveSample(t)
	s := connect(t, Options{Capture: f.opts})
	d := s.distill(t, f.base+"/docs.html")
	var so searchOutput
	text, _ := s.call(t, "search", map[string]any{"artifact": d.Artifact, "query": "single BINARY"}, &so)
	if so.Total == 0 || !strings.Contains(strings.ToLower(so.Matches[0].Text), "single binary") || !strings.Contains(text, so.Matches[0].ID) {
		t.Fatalf("search: %+v\n%s", so, text)
	}
	var bo contentOutput
	s.call(t, "get_blocks", map[string]any{"artifact": d.Artifact, "from": so.Matches[0].ID}, &bo)
	if len(bo.Blocks) != 1 || bo.Blocks[0].Text != so.Matches[0].Text {
		t.Errorf("get_blocks %s: %+v", so.Matches[0].ID, bo.Blocks)
	}
}

func TestLocalPath(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "page.html")
	if err := os.WriteFile(p, []byte("<!DOCTYPE html><title>Local</title><main><h1>Local page</h1><p>A page on disk with enough words to read as content.</p></main>"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	s := connect(t, Options{Capture: o, AllowPaths: true})
	var d distilled
	if text, isErr := s.call(t, "distill", map[string]any{"path": p}, &d); isErr || d.Manifest.Outcome.Status != "ok" {
		t.Fatalf("distill path: %s", text)
	}
}

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr          string
		remote, token bool
		ok            bool
	}{
		{"127.0.0.1:0", false, false, true},
		{"[::1]:8765", false, false, true},
		{"localhost:8765", false, false, true},
		{"0.0.0.0:8765", false, false, false},
		{"0.0.0.0:8765", true, false, false},
		{"0.0.0.0:8765", true, true, true},
		{"nonsense", false, false, false},
	} {
		if err := CheckAddr(c.addr, c.remote, c.token); (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %v, %v) = %v", c.addr, c.remote, c.token, err)
		}
	}
}

// TestGetCrop: a grounded quote of a PDF is cropped by the embedded PDF
// engine from the source bytes the store's blob directory kept; a box
// too; a web page read by the static tier has no pixels (descriptor only).
func TestGetCrop(t *testing.T) {
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	s := connect(t, Options{Capture: o, AllowPaths: true})
	pdfPath, err := filepath.Abs("../internal/pdf/pdftest/testdata/article.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var d distilled
	if text, isErr := s.call(t, "distill", map[string]any{"path": pdfPath}, &d); isErr {
		t.Fatal(text)
	}
	if text, _ := s.call(t, "get_crop", map[string]any{"artifact": d.Artifact, "check_id": "chk_0001"}, nil); !strings.HasPrefix(text, "error (not_found): ") {
		t.Errorf("a crop before any verification: %q", text)
	}
	claims := []map[string]any{
		{"claim_id": "tide", "kind": "quote", "text": "The harbour master logged the first high tide at six in the morning"},
		{"claim_id": "invented", "kind": "quote", "text": "The harbour was closed all day"},
	}
	var vo verifyOutput
	s.call(t, "verify_citations", map[string]any{"artifact": d.Artifact, "claims": claims}, &vo)
	var report struct {
		Checks []struct {
			CheckID string `json:"check_id"`
			Status  string `json:"status"`
		} `json:"checks"`
	}
	if err := json.Unmarshal(vo.Report, &report); err != nil || len(report.Checks) != 2 || report.Checks[0].Status != "grounded" {
		t.Fatalf("verify: %v %s", err, vo.Report)
	}
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_crop", Arguments: map[string]any{"artifact": d.Artifact, "check_id": report.Checks[0].CheckID}})
	if err != nil || res.IsError {
		t.Fatalf("get_crop: %v %s", err, resultText(t, res, nil))
	}
	var co cropOutput
	resultText(t, res, &co)
	img, ok := res.Content[0].(*mcp.ImageContent)
	if !ok || !co.Rendered || img.MIMEType != "image/png" || !bytes.HasPrefix(img.Data, []byte("\x89PNG")) {
		t.Fatalf("get_crop gave no PNG: %+v %s", res.Content, co.Descriptor)
	}
	if text, _ := s.call(t, "get_crop", map[string]any{"artifact": d.Artifact, "check_id": report.Checks[1].CheckID}, nil); !strings.HasPrefix(text, "error (not_found): ") {
		t.Errorf("a crop of a check not grounded: %q", text)
	}
	s.call(t, "get_crop", map[string]any{"artifact": d.Artifact, "page_ref": "p0001", "bbox": []int{72, 72, 200, 40}}, &co)
	if !co.Rendered {
		t.Errorf("a box crop: %s", co.Descriptor)
	}

	f := serveSample(t)
	web := connect(t, Options{Capture: f.opts})
	dw := web.distill(t, f.base+"/docs.html")
	web.call(t, "verify_citations", map[string]any{"artifact": dw.Artifact, "claims": sampleClaims}, &vo)
	if err := json.Unmarshal(vo.Report, &report); err != nil || report.Checks[0].Status != "grounded" {
		t.Fatalf("verify: %v %s", err, vo.Report)
	}
	text, isErr := web.call(t, "get_crop", map[string]any{"artifact": dw.Artifact, "check_id": report.Checks[0].CheckID}, &co)
	if isErr || co.Rendered || !strings.HasPrefix(text, "descriptor only: ") {
		t.Errorf("a static web page: %q %s", text, co.Descriptor)
	}
}

// TestPDFLatentOnlyInHiddenContent: the hidden text of a PDF (invisible,
// white on white, off-page, tiny) is in get_hidden_content and in no other
// result: each latent entry's text is the marker.
func TestPDFLatentOnlyInHiddenContent(t *testing.T) {
	o := capture.DefaultOptions()
	o.Tier = capture.TierStatic
	s := connect(t, Options{Capture: o, AllowPaths: true})
	p, err := filepath.Abs("../internal/pdf/pdftest/testdata/hidden.pdf")
	if err != nil {
		t.Fatal(err)
	}
	var d distilled
	if text, isErr := s.call(t, "distill", map[string]any{"path": p}, &d); isErr {
		t.Fatal(text)
	}
	var h hiddenOutput
	s.call(t, "get_hidden_content", map[string]any{"artifact": d.Artifact}, &h)
	if len(h.Entries) == 0 {
		t.Fatal("hidden.pdf gave no latent entries")
	}
	outputs := []string{s.wholeResult(t, "distill", map[string]any{"path": p})}
	for _, sec := range d.Manifest.Sections {
		outputs = append(outputs, s.wholeResult(t, "get_section", map[string]any{"artifact": d.Artifact, "section_id": sec.ID, "include_chrome": true}))
	}
	outputs = append(outputs, s.wholeResult(t, "get_blocks", map[string]any{"artifact": d.Artifact, "from": "b_000", "to": blockID(d.Manifest.Counts.Blocks - 1)}))
	for _, e := range h.Entries {
		words := strings.Fields(e.Text[len(graph.TrustMarker)+3:])
		outputs = append(outputs, s.wholeResult(t, "search", map[string]any{"artifact": d.Artifact, "query": strings.Join(words[:min(3, len(words))], " "), "include_chrome": true}))
	}
	for _, uri := range d.Resources {
		r, err := s.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		outputs = append(outputs, string(b))
	}
	checked := 0
	defer func() { t.Logf("%d latent texts checked in %d results", checked, len(outputs)) }()
	for _, e := range h.Entries {
		text := strings.TrimSpace(e.Text[len(graph.TrustMarker)+3:])
		if len(text) < 12 {
			continue // too short to be told from visible text
		}
		checked++
		for i, out := range outputs {
			if strings.Contains(out, text) || strings.Contains(out, mustJSON(text)[1:len(mustJSON(text))-1]) {
				t.Errorf("output %d holds latent %s %q", i, e.ID, text)
			}
		}
	}
}
