package render

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

// field is one top-level member of a JSON object, value as raw bytes.
type field struct {
	key string
	raw string
}

// jsonFiles builds manifest.json and content.json from rec. Both come from
// one codec marshal of the record, so their escaping is the codec's and
// their field order is the struct's, never a map's.
func jsonFiles(rec *graph.Record) (manifest, content []byte, err error) {
	b, err := codec.Marshal(rec)
	if err != nil {
		return nil, nil, fmt.Errorf("render: %w", err)
	}
	fields := topFields(b)
	if content, err = indent(contentObject(fields)); err != nil {
		return nil, nil, err
	}
	if manifest, err = indent(object(manifestOrder(fields), nil)); err != nil {
		return nil, nil, err
	}
	return manifest, content, nil
}

// contentObject is content.json from the record's top-level fields: every
// field but "record", each block with all of ARTIFACT.md's block fields
// (id, type, level, text, source, section_id). The graph record leaves a
// block's level out where it does not apply; content.json says
// "level": null there, right after "type".
func contentObject(fields []field) []byte {
	for i, f := range fields {
		if f.key == "blocks" {
			fields[i].raw = string(nullLevels([]byte(f.raw)))
		}
	}
	return object(fields, func(k string) bool { return k != "record" })
}

// nullLevels rewrites a blocks array so that every block has a level.
func nullLevels(blocks []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(blocks) + 16*64)
	b.WriteByte('[')
	n := 0
	gjson.ParseBytes(blocks).ForEach(func(_, blk gjson.Result) bool {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		if blk.Get("level").Exists() {
			b.WriteString(blk.Raw)
			return true
		}
		var fs []field
		blk.ForEach(func(k, v gjson.Result) bool {
			fs = append(fs, field{k.Str, v.Raw})
			if k.Str == "type" {
				fs = append(fs, field{"level", "null"})
			}
			return true
		})
		b.Write(object(fs, nil))
		return true
	})
	b.WriteByte(']')
	return b.Bytes()
}

// ManifestOrder is the field order of manifest.json: outcome first
// (ARTIFACT.md: "It is the first field in the manifest"), then the rest of
// graph.ManifestKeys in their order.
func ManifestOrder() []string {
	keys := []string{"outcome"}
	for _, k := range graph.ManifestKeys {
		if k != "outcome" {
			keys = append(keys, k)
		}
	}
	return keys
}

func manifestOrder(fields []field) []field {
	byKey := make(map[string]field, len(fields))
	for _, f := range fields {
		byKey[f.key] = f
	}
	var out []field
	for _, k := range ManifestOrder() {
		if f, ok := byKey[k]; ok { // absent only when omitempty left it out
			out = append(out, f)
		}
	}
	return out
}

func topFields(b []byte) []field {
	var fields []field
	gjson.ParseBytes(b).ForEach(func(k, v gjson.Result) bool {
		fields = append(fields, field{k.Str, v.Raw})
		return true
	})
	return fields
}

// object writes the fields keep accepts (all when keep is nil) as a
// compact JSON object. Keys are plain ASCII struct tags, safe to quote as is.
func object(fields []field, keep func(string) bool) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, f := range fields {
		if keep != nil && !keep(f.key) {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		fmt.Fprintf(&b, "%q:%s", f.key, f.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// indent is json.Indent with two spaces and a trailing newline; it keeps
// string escapes exactly as they are.
func indent(compact []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", "  "); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
