// Package record holds what every JSONL record shares: its kind, the schema
// version, the error record a stage writes for a line it could not handle,
// and the passthrough of fields a stage does not know.
package record

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// SchemaVersion is the version every record and artifact carries (ARTIFACT.md).
const SchemaVersion = "1.0"

// Record kinds.
const (
	KindCapture    = "capture"
	KindNormalized = "normalized"
	KindGraph      = "graph"
	KindArtifact   = "artifact"
	KindError      = "error"
	// The EEF filters: sieve-verify writes a check per claim line,
	// sieve-anchor an anchor per evidence ref line (schemas: ethos-check-line,
	// ethos-anchor-line).
	KindCheck  = "check"
	KindAnchor = "anchor"
)

// Kind returns the value of the top-level "record" key, or "" when absent.
// It is cheap when "record" is the first key, as every sieve record writes it.
func Kind(line []byte) string {
	return gjson.GetBytes(line, "record").String()
}

// Error is the record a stage writes in place of a line it could not process,
// so that one line in still gives one line out.
type Error struct {
	Record        string `json:"record"`
	SchemaVersion string `json:"schema_version"`
	Stage         string `json:"stage"`
	Line          int    `json:"line"`
	Error         string `json:"error"`
	URL           string `json:"url,omitempty"`
	Input         string `json:"input,omitempty"`
}

// NewError builds an error record for input line no of stage. The offending
// input is kept as an excerpt of at most 200 bytes.
func NewError(stage string, no int, input []byte, err error) Error {
	e := Error{
		Record:        KindError,
		SchemaVersion: SchemaVersion,
		Stage:         stage,
		Line:          no,
		Error:         err.Error(),
		Input:         Excerpt(input, 200),
	}
	if gjson.ValidBytes(input) {
		e.URL = gjson.GetBytes(input, "url").String()
	}
	return e
}

// Excerpt returns at most max bytes of b as a string, cut on a rune boundary,
// with each invalid byte replaced by U+FFFD. The replacement counts against
// max, so the result is never longer than max bytes.
func Excerpt(b []byte, max int) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if sb.Len()+utf8.RuneLen(r) > max {
			break
		}
		sb.WriteRune(r)
		b = b[size:]
	}
	return sb.String()
}

// KindOf is the kind among a line's top-level members (Walk): the value of
// the first "record" key, as Kind reads it ("" when absent, null or "").
func KindOf(ms []Member) string {
	for _, m := range ms {
		if string(m.Key) != `"record"` && (!bytes.Contains(m.Key, []byte{'\\'}) || m.Name() != "record") {
			continue
		}
		v := m.Value
		switch {
		case string(v) == "null":
			return ""
		case v[0] != '"':
			return string(v)
		case bytes.IndexByte(v, '\\') < 0:
			return string(v[1 : len(v)-1])
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		return string(v)
	}
	return ""
}

// Passthrough appends to out (a JSON object) every top-level field of in that
// out does not already have and that known does not claim. Fields keep the
// order and the exact bytes they had in in. It lets a stage carry a user's
// own fields (an "id", job metadata) through a pipeline untouched. The
// members of in are walked (Walk), never decoded: a field's value is copied
// as bytes, however long; in that is not a valid JSON object adds nothing.
func Passthrough(out, in []byte, known func(key string) bool) []byte {
	var buf [32]Member
	src, valid, object := Walk(in, buf[:0])
	if !valid || !object || len(src) == 0 {
		return out
	}
	// The fields known claims are most often all there is: out is walked
	// only when in has another.
	var have map[string]bool
	var extra []byte
	for _, m := range src {
		k := m.Name()
		if known != nil && known(k) {
			continue
		}
		if have == nil {
			var obuf [32]Member
			dst, _, _ := Walk(out, obuf[:0])
			have = make(map[string]bool, len(dst)+len(src))
			for _, m := range dst {
				have[m.Name()] = true
			}
		}
		if have[k] {
			continue
		}
		have[k] = true
		extra = append(extra, ',')
		extra = append(extra, m.Key...)
		extra = append(extra, ':')
		extra = append(extra, m.Value...)
	}
	if len(extra) == 0 {
		return out
	}
	end := bytes.LastIndexByte(out, '}')
	if end < 0 {
		return out
	}
	body := bytes.TrimSpace(out[:end])
	res := make([]byte, 0, len(out)+len(extra))
	res = append(res, body...)
	if len(body) == 1 { // "{" alone: drop the leading comma
		extra = extra[1:]
	}
	res = append(res, extra...)
	return append(res, '}')
}

// Keys returns a set membership function over names.
func Keys(names ...string) func(string) bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return func(k string) bool { return m[k] }
}

// FieldsOf returns membership over the JSON field names of struct type T:
// the "known" set a stage passes to Passthrough for its input record type.
func FieldsOf[T any]() func(string) bool {
	t := reflect.TypeFor[T]()
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return Keys(names...)
}
