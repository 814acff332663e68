package schemas

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/record"
)

func TestEverySchemaCompiles(t *testing.T) {
	all, err := producerSchemas()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"artifact", "capture", "content", "diff", "diff-anchors", "diff-citations", "error", "ethos-chunks", "ethos-citations", "ethos-crop-descriptor", "ethos-deterministic-profile", "ethos-document",
		"ethos-evidence-anchor-report", "ethos-evidence-anchor-request", "ethos-security-report", "ethos-source-pointer", "ethos-verification-report", "graph", "manifest", "normalized"}
	if got := strings.Join(Names(), ","); got != strings.Join(want, ",") {
		t.Fatalf("Names() = %s, want %s", got, strings.Join(want, ","))
	}
	for _, n := range want {
		if all[n] == nil {
			t.Errorf("schema %s did not compile", n)
		}
	}
}

func TestExamplesValidate(t *testing.T) {
	g := exampleGraph()
	okGraph := exampleGraph()
	okGraph.Outcome = graph.Outcome{Status: graph.StatusOK, Evidence: []string{}, HTTPStatus: 200}
	okGraph.Audit.OrderConfidence, okGraph.Audit.ReachedBottom, okGraph.Provenance.TierScore = nil, nil, nil
	okGraph.Lang = ""
	cases := []struct {
		name, schema string
		doc          any
	}{
		{"capture", "capture", exampleCapture()},
		{"normalized", "normalized", exampleNormalized()},
		{"graph", "graph", g},
		{"graph ok, static nulls", "graph", okGraph},
		{"content", "content", contentOf(t, g)},
		{"manifest", "manifest", manifestOf(t, g)},
		{"manifest ok", "manifest", manifestOf(t, okGraph)},
		{"artifact", "artifact", exampleArtifact()},
		{"error", "error", exampleError()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := Validate(c.schema, marshal(t, c.doc)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestValidateRecordPicksSchemaByKind(t *testing.T) {
	for _, v := range []any{exampleCapture(), exampleNormalized(), exampleGraph(), exampleArtifact(), exampleError()} {
		line := marshal(t, v)
		if err := ValidateRecord(line); err != nil {
			t.Errorf("%s: %v", record.Kind(line), err)
		}
	}
	// A graph line is not a capture: the kind decides, and record is a const.
	if err := Validate("capture", marshal(t, exampleGraph())); err == nil {
		t.Error("a graph record validated as a capture record")
	}
	for _, line := range []string{`{"record":"widget","schema_version":"1.0"}`, `{"schema_version":"1.0"}`, `not json`} {
		if err := ValidateRecord([]byte(line)); err == nil {
			t.Errorf("ValidateRecord(%s) passed", line)
		}
	}
	if err := Validate("nosuch", []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "no schema named") {
		t.Errorf("unknown schema name: %v", err)
	}
}

func TestPassthroughFieldsAllowedOnRecordsOnly(t *testing.T) {
	withID := func(v any) []byte {
		m := toMap(t, v)
		m["id"] = "job-42"
		return marshal(t, m)
	}
	for _, v := range []any{exampleCapture(), exampleNormalized(), exampleGraph(), exampleArtifact(), exampleError()} {
		if err := ValidateRecord(withID(v)); err != nil {
			t.Errorf("passthrough field rejected: %v", err)
		}
	}
	g := exampleGraph()
	if err := Validate("content", withID(contentOf(t, g))); err == nil {
		t.Error("content.json accepted a field outside the graph")
	}
	if err := Validate("content", marshal(t, g)); err == nil {
		t.Error("content.json accepted a \"record\" key")
	}
	if err := Validate("manifest", withID(manifestOf(t, g))); err == nil {
		t.Error("manifest.json accepted a field outside graph.ManifestKeys")
	}
	if err := Validate("manifest", marshal(t, contentOf(t, g))); err == nil {
		t.Error("manifest.json accepted the page body (blocks, latent, …)")
	}
}

// TestNegative: each mutation of a valid document must fail, with a message
// that points at the broken value.
func TestNegative(t *testing.T) {
	g := exampleGraph()
	cases := []struct {
		name, schema string
		doc          any
		path         string // JSON path of the mutation, dot-separated
		value        any    // deleteKey removes path
		wantInErr    string
	}{
		{"bad status", "graph", g, "outcome.status", "failed", "/outcome/status"},
		{"blocked with empty evidence", "graph", g, "outcome.evidence", []string{}, "/outcome/evidence"},
		{"challenge with null evidence", "manifest", manifestOf(t, g), "outcome.evidence", nil, "/outcome/evidence"},
		{"partial without evidence", "graph", g, "outcome.evidence", deleteKey, "evidence"},
		{"empty evidence string", "graph", g, "outcome.evidence", []string{""}, "/outcome/evidence/0"},
		{"body_excerpt over 400", "graph", g, "outcome.body_excerpt", strings.Repeat("x", 401), "/outcome/body_excerpt"},
		{"body_excerpt on a 200", "graph", g, "outcome.http_status", 200, "/outcome/http_status"},
		{"body_excerpt on ok", "manifest", manifestOf(t, g), "outcome.status", "ok", "/outcome/status"},
		{"outcome extra field", "graph", g, "outcome.reason", "x", "/outcome"},
		{"bad section id (upper hex)", "graph", g, "sections.1.id", "s_3F2A9C01DE", "/sections/1/id"},
		{"bad section id (short)", "content", contentOf(t, g), "sections.1.id", "s_3f2a9c", "/sections/1/id"},
		{"bad block section_id", "graph", g, "blocks.1.section_id", "intro", "/blocks/1/section_id"},
		{"s_intro with a level", "graph", g, "sections.0.level", 2, "/sections/0/level"},
		{"heading section level 0", "graph", g, "sections.1.level", 0, "/sections/1/level"},
		{"latent without trust", "graph", g, "latent.0.trust", deleteKey, "trust"},
		{"latent wrong trust", "content", contentOf(t, g), "latent.0.trust", "trusted", "/latent/0/trust"},
		{"latent without text", "graph", g, "latent.0.text", deleteKey, "text"},
		{"latent bad reason", "graph", g, "latent.0.reason", "because", "/latent/0/reason"},
		{"latent bad id", "graph", g, "latent.0.id", "l_0", "/latent/0/id"},
		{"bad content_hash (md5)", "graph", g, "content_hash", "md5:0123456789abcdef0123456789abcdef", "/content_hash"},
		{"bad content_hash (upper hex)", "manifest", manifestOf(t, g), "content_hash", "sha256:" + strings.Repeat("AB", 32), "/content_hash"},
		{"missing outcome", "graph", g, "outcome", deleteKey, "outcome"},
		{"missing url", "capture", exampleCapture(), "url", deleteKey, "url"},
		{"missing content_hash", "manifest", manifestOf(t, g), "content_hash", deleteKey, "content_hash"},
		{"missing blocks", "content", contentOf(t, g), "blocks", deleteKey, "blocks"},
		{"schema_version 1.1", "graph", g, "schema_version", "1.1", "/schema_version"},
		{"bad distilled_at", "graph", g, "distilled_at", "yesterday", "/distilled_at"},
		{"bad block id", "graph", g, "blocks.0.id", "b_1", "/blocks/0/id"},
		{"bad block type", "graph", g, "blocks.0.type", "sidebar", "/blocks/0/type"},
		{"bad block role", "graph", g, "blocks.0.role", "nav", "/blocks/0/role"},
		{"heading without level", "graph", g, "blocks.1.level", deleteKey, "level"},
		{"heading level null", "content", contentOf(t, g), "blocks.1.level", nil, "/blocks/1/level"},
		{"content block without level", "content", contentOf(t, g), "blocks.3.level", deleteKey, "level"},
		{"heading level 7", "graph", g, "blocks.1.level", 7, "/blocks/1/level"},
		{"bad block source", "graph", g, "blocks.0.source", "ocr", "/blocks/0/source"},
		{"block extra field", "graph", g, "blocks.0.html", "<p>", "/blocks/0"},
		{"colspan 1 written", "graph", g, "blocks.3.rows.1.0.colspan", 1, "/blocks/3/rows/1/0/colspan"},
		{"bad action id", "graph", g, "actions.0.id", "a_x", "/actions/0/id"},
		{"bad media id", "graph", g, "media_all.0.id", "m_", "/media_all/0/id"},
		{"bad media type", "graph", g, "media_all.0.type", "gif", "/media_all/0/type"},
		{"reached_bottom not bool", "graph", g, "audit.reached_bottom", "maybe", "/audit/reached_bottom"},
		{"graph_retention above 1", "graph", g, "audit.graph_retention", 1.5, "/audit/graph_retention"},
		{"graph_retention null", "graph", g, "audit.graph_retention", nil, "/audit/graph_retention"},
		{"tier_score string", "graph", g, "provenance.tier_score", "high", "/provenance/tier_score"},
		{"structured null", "graph", g, "structured", nil, "/structured"},
		{"capture bad error kind", "capture", exampleCapture(), "error.kind", "oops", "/error/kind"},
		{"capture upper-case header", "capture", exampleCapture(), "headers.Content-Type", "text/html", "/headers"},
		{"capture bad started_at", "capture", exampleCapture(), "timing.started_at", "10:11", "/timing/started_at"},
		{"capture bad charset source", "capture", exampleCapture(), "charset.source", "guess", "/charset/source"},
		{"normalized bad hidden reason", "normalized", exampleNormalized(), "nodes.4.hidden", "invisible", "/nodes/4/hidden"},
		{"normalized parent below -1", "normalized", exampleNormalized(), "nodes.0.parent", -2, "/nodes/0/parent"},
		{"artifact bad outcome", "artifact", exampleArtifact(), "outcome", "done", "/outcome"},
		{"artifact missing dir", "artifact", exampleArtifact(), "dir", deleteKey, "dir"},
		{"error line 0", "error", exampleError(), "line", 0, "/line"},
		{"error input over 200", "error", exampleError(), "input", strings.Repeat("x", 201), "/input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := toMap(t, c.doc)
			set(t, m, c.path, c.value)
			err := Validate(c.schema, marshal(t, m))
			if err == nil {
				t.Fatalf("%s validated after setting %s = %v", c.schema, c.path, c.value)
			}
			if !strings.Contains(err.Error(), c.wantInErr) {
				t.Errorf("error does not point at %q: %v", c.wantInErr, err)
			}
		})
	}
}

func TestOutcomeOKNeedsNoEvidence(t *testing.T) {
	g := exampleGraph()
	g.Outcome = graph.Outcome{Status: graph.StatusOK, Evidence: []string{}, HTTPStatus: 200}
	if err := Validate("graph", marshal(t, g)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{graph.StatusBlocked, graph.StatusChallenge, graph.StatusAuthRequired, graph.StatusSPAShell, graph.StatusEmptyAfterRender, graph.StatusPartial} {
		g.Outcome.Status = s
		if err := Validate("graph", marshal(t, g)); err == nil {
			t.Errorf("status %s with no evidence validated", s)
		}
	}
}

func TestErrorMessageIsOneLine(t *testing.T) {
	m := toMap(t, exampleGraph())
	set(t, m, "outcome.status", "failed")
	set(t, m, "sections.1.id", "nope")
	err := Validate("graph", marshal(t, m))
	if err == nil {
		t.Fatal("validated")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "graph: does not match graph.schema.json: ") {
		t.Errorf("message: %q", msg)
	}
	if !strings.Contains(msg, "/outcome/status") || !strings.Contains(msg, "/sections/1/id") {
		t.Errorf("message misses a violation: %q", msg)
	}
}

type deleteMarker struct{}

var deleteKey = deleteMarker{}

// set assigns value at a dot-separated path of object keys and array
// indices, or deletes the key when value is deleteKey.
func set(t *testing.T, doc map[string]any, path string, value any) {
	t.Helper()
	parts := strings.Split(path, ".")
	var cur any = doc
	for _, p := range parts[:len(parts)-1] {
		cur = step(t, cur, p, path)
	}
	last := parts[len(parts)-1]
	switch c := cur.(type) {
	case map[string]any:
		if value == deleteKey {
			delete(c, last)
		} else {
			c[last] = value
		}
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i >= len(c) || value == deleteKey {
			t.Fatalf("bad path %s", path)
		}
		c[i] = value
	default:
		t.Fatalf("bad path %s", path)
	}
}

func step(t *testing.T, cur any, key, path string) any {
	t.Helper()
	switch c := cur.(type) {
	case map[string]any:
		if next, ok := c[key]; ok {
			return next
		}
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i < len(c) {
			return c[i]
		}
	}
	t.Fatalf("path %s: no %q", path, key)
	return nil
}
