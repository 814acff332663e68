package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

// field is one top-level member of a JSON object, value as raw bytes.
// The record's blocks are the exception (recordFields): blocks holds them,
// raw is empty, and each is marshaled as it is written.
type field struct {
	key    string
	raw    string
	blocks []graph.Block
}

// jsonFiles builds manifest.json and content.json from rec. Both come from
// one codec marshal of the record, so their escaping is the codec's and
// their field order is the struct's, never a map's.
func jsonFiles(rec *graph.Record) (manifest, content []byte, err error) {
	manifest, fields, err := recordFields(rec)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	if err := writeContent(&b, fields); err != nil {
		return nil, nil, err
	}
	return manifest, b.Bytes(), nil
}

// recordFields marshals rec once: manifest.json, and the record's
// top-level members content.json is written from (writeContent).
//
// The blocks, most of a long page, are not marshaled here: the record is
// marshaled without them and the blocks field holds rec.Blocks, each block
// marshaled alone as content.json is written (the same bytes: a block's
// encoding does not depend on what holds it). A whole-record marshal of a
// page of a million paragraphs took 264 MB, plus the encoder's growing
// buffer and its pooled copy (issue 17).
func recordFields(rec *graph.Record) (manifest []byte, fields []field, err error) {
	shallow := *rec
	shallow.Blocks = nil
	b, err := codec.Marshal(&shallow)
	if err != nil {
		return nil, nil, fmt.Errorf("render: %w", err)
	}
	fields = topFields(b)
	if rec.Blocks != nil {
		for i := range fields {
			if fields[i].key == "blocks" {
				fields[i] = field{key: "blocks", blocks: rec.Blocks}
			}
		}
	}
	if manifest, err = indent(object(manifestOrder(fields), nil)); err != nil {
		return nil, nil, err
	}
	return manifest, fields, nil
}

// writeContent writes content.json (indent(contentObject(fields))) to w
// member by member, and the blocks one by one: json.Indent of a value with
// the prefix of its depth gives the bytes it has in the whole, so the
// whole is never in memory.
func writeContent(w io.Writer, fields []field) error {
	var keep []field
	for _, f := range fields {
		if f.key != "record" {
			keep = append(keep, f)
		}
	}
	if len(keep) == 0 {
		_, err := io.WriteString(w, "{}\n")
		return err
	}
	var buf bytes.Buffer
	if _, err := io.WriteString(w, "{\n"); err != nil {
		return err
	}
	for i, f := range keep {
		if _, err := fmt.Fprintf(w, "  %q: ", f.key); err != nil {
			return err
		}
		var err error
		if f.blocks != nil {
			err = writeBlockValues(w, &buf, f.blocks)
		} else if f.key == "blocks" && strings.HasPrefix(f.raw, "[") {
			err = writeBlocks(w, &buf, f.raw)
		} else {
			err = writeIndented(w, &buf, f.raw, "  ")
		}
		if err != nil {
			return err
		}
		sep := "\n"
		if i < len(keep)-1 {
			sep = ",\n"
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "}\n")
	return err
}

// writeBlocks writes the blocks array at depth 1, each block with its
// level (withLevel).
func writeBlocks(w io.Writer, buf *bytes.Buffer, raw string) error {
	n := 0
	var err error
	gjson.Parse(raw).ForEach(func(_, blk gjson.Result) bool {
		open := ",\n    "
		if n == 0 {
			open = "[\n    "
		}
		n++
		if _, err = io.WriteString(w, open); err != nil {
			return false
		}
		err = writeIndented(w, buf, withLevel(blk), "    ")
		return err == nil
	})
	if err != nil {
		return err
	}
	end := "\n  ]"
	if n == 0 {
		end = "[]"
	}
	_, err = io.WriteString(w, end)
	return err
}

// writeBlockValues is writeBlocks of the blocks' array, each block
// marshaled alone as it is written.
func writeBlockValues(w io.Writer, buf *bytes.Buffer, blocks []graph.Block) error {
	if len(blocks) == 0 {
		_, err := io.WriteString(w, "[]")
		return err
	}
	for i := range blocks {
		open := ",\n    "
		if i == 0 {
			open = "[\n    "
		}
		if _, err := io.WriteString(w, open); err != nil {
			return err
		}
		raw, err := codec.Marshal(&blocks[i])
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		if err := writeIndented(w, buf, withLevel(gjson.ParseBytes(raw)), "    "); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "\n  ]")
	return err
}

// writeIndented writes json.Indent(raw, prefix, "  ") to w through buf.
func writeIndented(w io.Writer, buf *bytes.Buffer, raw, prefix string) error {
	buf.Reset()
	if err := json.Indent(buf, unsafe.Slice(unsafe.StringData(raw), len(raw)), prefix, "  "); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// contentObject is content.json from the record's top-level fields: every
// field but "record", each block with all of ARTIFACT.md's block fields
// (id, type, level, text, source, section_id). The graph record leaves a
// block's level out where it does not apply; content.json says
// "level": null there, right after "type".
func contentObject(fields []field) []byte {
	return object(contentFields(fields), nil)
}

// contentFields are content.json's members: all but "record", blocks
// with their levels (nullLevels).
func contentFields(fields []field) []field {
	out := make([]field, 0, len(fields))
	for _, f := range fields {
		switch f.key {
		case "record":
			continue
		case "blocks":
			f.raw = nullLevels(f.raw)
		}
		out = append(out, f)
	}
	return out
}

// levelNull is what nullLevels inserts after a block's type.
const levelNull = `,"level":null`

// nullLevels rewrites a blocks array so that every block has a level.
// The codec writes a block's members in struct order, level (when set)
// right after type; a block without one gets levelNull spliced in there,
// its bytes otherwise copied as they are. A block not in that shape is
// rebuilt member by member.
func nullLevels(blocks string) string {
	var b strings.Builder
	b.Grow(len(blocks) + len(levelNull)*strings.Count(blocks, `"type":"`))
	b.WriteByte('[')
	n := 0
	gjson.Parse(blocks).ForEach(func(_, blk gjson.Result) bool {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(withLevel(blk))
		return true
	})
	b.WriteByte(']')
	return b.String()
}

// withLevel is one compact block with a level: as it is when it has one,
// else with levelNull right after its type.
func withLevel(blk gjson.Result) string {
	if at, ok := afterType(blk.Raw); ok {
		if strings.HasPrefix(blk.Raw[at:], `,"level":`) {
			return blk.Raw
		}
		return blk.Raw[:at] + levelNull + blk.Raw[at:]
	}
	if blk.Get("level").Exists() {
		return blk.Raw
	}
	var fs []field
	blk.ForEach(func(k, v gjson.Result) bool {
		fs = append(fs, field{key: k.Str, raw: v.Raw})
		if k.Str == "type" {
			fs = append(fs, field{key: "level", raw: "null"})
		}
		return true
	})
	return string(object(fs, nil))
}

// afterType is the offset just past a compact block's type member when the
// block opens {"id":"…","type":"…" with plain strings, as the codec writes
// every block.
func afterType(raw string) (int, bool) {
	const id, typ = `{"id":"`, `","type":"`
	if !strings.HasPrefix(raw, id) {
		return 0, false
	}
	i := strings.IndexByte(raw[len(id):], '"')
	if i < 0 || strings.IndexByte(raw[len(id):len(id)+i], '\\') >= 0 || !strings.HasPrefix(raw[len(id)+i:], typ) {
		return 0, false
	}
	start := len(id) + i + len(typ)
	j := strings.IndexByte(raw[start:], '"')
	if j < 0 || strings.IndexByte(raw[start:start+j], '\\') >= 0 {
		return 0, false
	}
	return start + j + 1, true
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

// topFields lists b's top-level members; their raw values share b's
// memory (b must not change while they are used).
func topFields(b []byte) []field {
	var fields []field
	gjson.Parse(unsafe.String(unsafe.SliceData(b), len(b))).ForEach(func(k, v gjson.Result) bool {
		fields = append(fields, field{key: k.Str, raw: v.Raw})
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
