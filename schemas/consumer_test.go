package schemas

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/codec"
)

// Free-form maps hold data, not fields: the test leaves them alone.
var freeMaps = map[string]bool{"headers": true, "attrs": true, "meta": true, "structured": true}

// TestConsumerAcceptsUnknownFields adds a member no schema names to every
// object of each example in turn: the shipped schema (a consumer) accepts
// it, and the producer variant refuses it, except at a record's top level
// (passthrough).
func TestConsumerAcceptsUnknownFields(t *testing.T) {
	g := exampleGraph()
	cases := []struct {
		schema string
		doc    any
		record bool
	}{
		{"capture", exampleCapture(), true},
		{"normalized", exampleNormalized(), true},
		{"graph", g, true},
		{"artifact", exampleArtifact(), true},
		{"error", exampleError(), true},
		{"content", contentOf(t, g), false},
		{"manifest", manifestOf(t, g), false},
	}
	for _, c := range cases {
		m := toMap(t, c.doc)
		paths := objectPaths(m, "")
		for _, p := range paths {
			if p.free {
				continue
			}
			obj := p.obj
			obj["zz_added_in_1_9"] = map[string]any{"any": []any{1, "x"}}
			doc := marshal(t, m)
			delete(obj, "zz_added_in_1_9")
			if err := ValidateConsumer(c.schema, doc); err != nil {
				t.Errorf("%s: a consumer refuses an unknown member at %q: %v", c.schema, p.path, err)
			}
			passthrough := p.path == "" && c.record
			if err := Validate(c.schema, doc); (err == nil) != passthrough {
				t.Errorf("%s: unknown member at %q: producer check gave %v, want passthrough=%v", c.schema, p.path, err, passthrough)
			}
		}
		set(t, m, "schema_version", "1.1")
		if err := ValidateConsumer(c.schema, marshal(t, m)); err != nil {
			t.Errorf("%s: a consumer refuses schema_version 1.1: %v", c.schema, err)
		}
		if err := Validate(c.schema, marshal(t, m)); err == nil {
			t.Errorf("%s: the producer check accepts schema_version 1.1", c.schema)
		}
	}
}

// TestConsumerStillChecksKnownFields: opening the objects leaves every
// other rule in place.
func TestConsumerStillChecksKnownFields(t *testing.T) {
	m := toMap(t, exampleGraph())
	set(t, m, "outcome.status", "failed")
	if err := ValidateConsumer("graph", marshal(t, m)); err == nil || !strings.Contains(err.Error(), "/outcome/status") {
		t.Errorf("a bad status passed the consumer schema: %v", err)
	}
	set(t, m, "outcome.status", "ok")
	set(t, m, "schema_version", "2.0")
	if err := ValidateConsumer("graph", marshal(t, m)); err == nil {
		t.Error("schema_version 2.0 passed the consumer schema")
	}
}

// TestEEFStaysClosed: SPEC.md §8 has EEF consumers reject unknown fields
// unless a schema allows them, so the EEF schemas are the same for both;
// only the line schemas carry passthrough members.
func TestEEFStaysClosed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "eef", "*", "*.json"))
	if err != nil || len(files) < 20 {
		t.Fatal("too few EEF examples", len(files), err)
	}
	for _, f := range files {
		schema, _, _ := strings.Cut(filepath.Base(f), "--")
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs := [][]byte{b}
		var m map[string]any
		if codec.Unmarshal(b, &m) == nil {
			m["zz_added_in_1_9"] = 1
			docs = append(docs, marshal(t, m))
		}
		for i, doc := range docs {
			producer, consumer := Validate(schema, doc), ValidateConsumer(schema, doc)
			if (producer == nil) != (consumer == nil) {
				t.Errorf("%s: producer check %v, consumer %v", f, producer, consumer)
			}
			if _, line := lineSchemas[schema]; i == 1 && !line && consumer == nil {
				t.Errorf("%s: an unknown member passed the shipped %s schema", f, schema)
			}
		}
	}
}

type objectAt struct {
	path string
	obj  map[string]any
	free bool
}

// objectPaths lists every JSON object in v, sorted by path; objects in or
// below a free-form map are marked free.
func objectPaths(v any, path string) []objectAt {
	var out []objectAt
	var walk func(v any, path string, free bool)
	walk = func(v any, path string, free bool) {
		switch x := v.(type) {
		case map[string]any:
			out = append(out, objectAt{path, x, free})
			for k, sub := range x {
				walk(sub, path+"/"+k, free || freeMaps[k])
			}
		case []any:
			for i, sub := range x {
				walk(sub, path+"/"+strconv.Itoa(i), free)
			}
		}
	}
	walk(v, path, false)
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}
