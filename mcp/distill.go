package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/distill"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/render"
)

type distillInput struct {
	URL        string `json:"url,omitempty" jsonschema:"an http(s) URL (or give path)"`
	Path       string `json:"path,omitempty" jsonschema:"a local file, if the server allows"`
	Tier       string `json:"tier,omitempty" jsonschema:"static, render (a browser) or auto; default: the server's"`
	Provenance bool   `json:"provenance,omitempty" jsonschema:"also return how it was read (libraries, versions)"`
}

type distillOutput struct {
	Artifact  string   `json:"artifact" jsonschema:"the artifact handle for get_section, get_blocks, search, get_hidden_content, verify_citations and anchor_evidence"`
	Reused    bool     `json:"reused" jsonschema:"the store already held this URL with this content_hash (the page is unchanged)"`
	Resources []string `json:"resources" jsonschema:"resource URIs of this artifact"`
	Manifest  rawJSON  `json:"manifest" jsonschema:"manifest.json: outcome first, then what the page holds; never the page body"`

	Changes *changesOut `json:"changes,omitempty" jsonschema:"for a URL read before: what changed since the read stored before"`
}

// distillStages is how many progress steps a distillation reports.
const distillStages = 4

// distill reads one target through the CLI's chain into the store.
func (s *Server) distill(ctx context.Context, req *mcp.CallToolRequest, in distillInput) (*mcp.CallToolResult, distillOutput, error) {
	var out distillOutput
	target, tier, err := s.distillTarget(in)
	if err != nil {
		return nil, out, err
	}
	cp, err := s.capturer(tier)
	if err != nil {
		return nil, out, err
	}
	tmp, err := s.store.tempDir()
	if err != nil {
		return nil, out, internalf("%v", err)
	}
	defer os.RemoveAll(tmp)
	a, err := s.runChain(ctx, req, cp, target, tmp)
	if err != nil {
		return nil, out, err
	}
	key := Key(a.URL, a.ContentHash)
	out.Reused = s.store.has(key) == nil
	since := s.sinceOf(key, out.Reused)
	if err := s.store.put(key, a.Dir); err != nil {
		return nil, out, toolErr(err)
	}
	s.register(key)
	if out.Changes, err = s.storeVersion(since, key); err != nil {
		return nil, out, err
	}
	manifest, err := s.store.file(key, render.FileManifest)
	if err != nil {
		return nil, out, err
	}
	var m graph.Record // the manifest's fields are the graph record's
	if err := codec.Unmarshal(manifest, &m); err != nil {
		return nil, out, internalf("decoding manifest.json: %v", err)
	}
	if !in.Provenance {
		manifest = withoutMember(manifest, "provenance")
	}
	out.Artifact, out.Manifest, out.Resources = key, rawJSON(manifest), resourceURIs(key)
	return textResult(manifestText(key, out.Reused, &m) + changesText(out.Changes)), out, nil
}

// distillTarget checks the arguments and returns the capture input and
// the tier.
func (s *Server) distillTarget(in distillInput) (target, tier string, err error) {
	switch {
	case (in.URL == "") == (in.Path == ""):
		return "", "", usagef("distill takes a url or a path (exactly one)")
	case in.URL != "":
		target, err = s.checkTarget("url", in.URL)
	default:
		target, err = s.checkTarget("path", in.Path)
	}
	if err != nil {
		return "", "", err
	}
	tier = in.Tier
	if tier == "" {
		tier = s.opts.Capture.Tier
	}
	switch tier {
	case capture.TierStatic, capture.TierAuto, capture.TierRender:
	default:
		return "", "", usagef("unknown tier %q (static, auto, render)", tier)
	}
	return target, tier, nil
}

// checkTarget is the one check of every target a tool argument names
// (distill's url and path; a new argument that names a target goes through
// it too): an http(s) URL always; a local path or file:// URL only on a
// server started with --allow-paths, refused otherwise before the disk is
// looked at. It returns what the capture stage is given: the parsed
// target's URL, so capture reads exactly what was checked.
func (s *Server) checkTarget(arg, value string) (string, error) {
	if strings.ContainsAny(value, "\r\n") {
		return "", usagef("a %s cannot hold a line break", arg)
	}
	t, err := capture.ParseURL(value, s.opts.AllowPaths)
	switch {
	case errors.Is(err, capture.ErrLocalTarget):
		return "", usagef("this server reads no local files (start it with --allow-paths): %s %q is not an http(s) URL", arg, value)
	case err != nil && arg == "path":
		return "", usagef("path %q: %v", value, err)
	case err != nil:
		// Names nothing capture can fetch, local or not: capture makes it
		// the error record the CLI writes for such a line.
		return value, nil
	case arg == "path" && t.Path == "":
		return "", usagef("path %q is a URL: give it as url", value)
	}
	return t.URL, nil
}

// runChain runs target through the chain sieve distill runs (the
// in-process hand-off, the server's budgets), the render stage writing
// under tmp (a temporary directory of the store), and returns the artifact
// record. Each finished stage is a progress notification when the client
// asked for them; a cancelled call ends the chain (the capture's requests
// and browser read are cancelled with it).
func (s *Server) runChain(ctx context.Context, req *mcp.CallToolRequest, cp *capture.Capturer, target, tmp string) (render.Artifact, error) {
	var a render.Artifact
	notify := progress(ctx, req)
	ch := distill.Chain{Capturer: cp, Normalize: s.opts.Normalize, Graph: s.opts.Graph,
		Progress: func(n int) { notify(n, stageDone[n]) }}
	chain, handed := ch.Stage(distill.Deliver{Format: distill.FormatArtifact, Opts: render.Options{Out: tmp, Blobs: s.opts.Capture.Browser.Blobs}})
	line, err := json.Marshal(map[string]string{"url": target})
	if err != nil {
		return a, internalf("%v", err)
	}
	notify(0, "reading "+target)
	var stdout, logs bytes.Buffer
	_, runErr := jsonl.Run(ctx, bytes.NewReader(append(line, '\n')), &stdout, &logs, chain)
	if errors.Is(runErr, jsonl.ErrInterrupted) || ctx.Err() != nil {
		return a, &ToolError{KindInterrupted, fmt.Sprintf("the read of %s was cancelled before it was done; nothing was stored", target)}
	}
	outLine := bytes.TrimSpace(stdout.Bytes())
	if record.Kind(outLine) == record.KindError {
		var e record.Error
		if err := codec.Unmarshal(outLine, &e); err != nil {
			return a, internalf("decoding the error record: %v", err)
		}
		return a, &ToolError{KindFailed, fmt.Sprintf("could not read %s: %s", target, agentWords(e.Error))}
	}
	if runErr != nil && !errors.Is(runErr, jsonl.ErrFailedLines) {
		return a, toolErr(runErr)
	}
	if d, ok := handed.Take(outLine); ok {
		outLine = bytes.TrimSpace([]byte(d.Line))
	}
	if err := codec.Unmarshal(outLine, &a); err != nil || a.Record != record.KindArtifact {
		return a, internalf("the chain wrote no artifact record: %s", outLine)
	}
	return a, nil
}

// stageDone are the progress messages of the chain's stages, by number.
var stageDone = [...]string{1: "captured", 2: "normalized", 3: "built the content graph", 4: "wrote the artifact"}

// progress returns the function that sends progress notifications for
// req, or one that does nothing when the client gave no progress token.
func progress(ctx context.Context, req *mcp.CallToolRequest) func(n int, msg string) {
	if req == nil || req.Params == nil || req.Session == nil {
		return func(int, string) {}
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return func(int, string) {}
	}
	return func(n int, msg string) {
		req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ //nolint:errcheck // progress is advisory
			ProgressToken: token, Progress: float64(n), Total: distillStages, Message: msg,
		})
	}
}

// withoutMember is a JSON object without its top-level member name, the
// others kept in order (compacted).
func withoutMember(obj []byte, name string) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	gjson.ParseBytes(obj).ForEach(func(k, v gjson.Result) bool {
		if k.String() == name {
			return true
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(k.Raw)
		b.WriteByte(':')
		json.Compact(&b, []byte(v.Raw)) //nolint:errcheck // v is valid JSON, part of a valid object
		return true
	})
	b.WriteByte('}')
	return b.Bytes()
}

// agentWords is a message of the CLI's said to an agent: the flags it
// names are the server operator's, not the agent's, and a target that is
// not http(s) says what is.
func agentWords(msg string) string {
	msg = strings.ReplaceAll(msg, "(--allow-private or --allow-addr allows it)",
		"(this server does not read such addresses unless its operator starts it with --allow-private or --allow-addr)")
	if strings.HasPrefix(msg, "not an http(s) URL") {
		msg += "; give an http(s) URL"
	}
	return msg
}
