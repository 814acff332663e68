package schemas

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/normalize"
)

// The tests in this file hold the schemas to the Go record types, which win
// when they disagree: every JSON field of a type is a property of its
// schema and nothing else is, a field without omitempty is required, a
// pointer field without omitempty is nullable, and each closed set of
// constants is the schema's enum.

// objSchema is the part of a JSON Schema object these tests read.
type objSchema struct {
	Type       any                  `json:"type"`
	Const      any                  `json:"const"`
	Pattern    string               `json:"pattern"`
	Enum       []string             `json:"enum"`
	Properties map[string]objSchema `json:"properties"`
	Required   []string             `json:"required"`
	Items      *objSchema           `json:"items"`
	Defs       map[string]objSchema `json:"$defs"`
}

func load(t *testing.T, name string) objSchema {
	t.Helper()
	b, err := files.ReadFile(name + suffix)
	if err != nil {
		t.Fatal(err)
	}
	var s objSchema
	if err := codec.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func TestSchemasMatchGoTypes(t *testing.T) {
	d := load(t, defs).Defs
	graphBody := merge(d["manifest_body"], d["graph_body"])
	graphRecord := merge(graphBody, load(t, "graph"))
	cases := []struct {
		name   string
		schema objSchema
		typ    any
	}{
		{"capture.schema.json", load(t, "capture"), capture.Record{}},
		{"normalized.schema.json", load(t, "normalized"), normalize.Record{}},
		{"error.schema.json", load(t, "error"), record.Error{}},
		{"graph.schema.json", graphRecord, graph.Record{}},
		{"outcome", d["outcome"], graph.Outcome{}},
		{"section", d["section"], graph.Section{}},
		{"counts", d["counts"], graph.Counts{}},
		{"stats", d["stats"], graph.Stats{}},
		{"audit", d["audit"], graph.Audit{}},
		{"dropped", d["dropped"], graph.Dropped{}},
		{"provenance", d["provenance"], graph.Provenance{}},
		{"gap", d["gap"], graph.Gap{}},
		{"block", d["block"], graph.Block{}},
		{"cell", d["cell"], graph.Cell{}},
		{"inline", d["inline"], graph.Inline{}},
		{"box (graph)", d["box"], graph.Box{}},
		{"box (normalize)", d["box"], normalize.Box{}},
		{"action", d["action"], graph.Action{}},
		{"field", d["field"], graph.Field{}},
		{"link", d["link"], graph.Link{}},
		{"latent", d["latent"], graph.Latent{}},
		{"faq", d["faq"], graph.FAQ{}},
		{"media", d["media"], graph.Media{}},
		{"library", d["library"], version.Library{}},
		{"trace", d["trace"], capture.Trace{}},
		{"redirect", d["redirect"], capture.Redirect{}},
		{"charset", d["charset"], capture.Charset{}},
		{"robots", d["robots"], capture.Robots{}},
		{"capture_error", d["capture_error"], capture.Error{}},
		{"timing", d["timing"], capture.Timing{}},
		{"capture_info", d["capture_info"], normalize.CaptureInfo{}},
		{"node", d["node"], normalize.Node{}},
		{"pdf", d["pdf"], capture.PDF{}},
		{"pdf_info", d["pdf_info"], capture.PDFInfo{}},
		{"pdf_page", d["pdf_page"], capture.PDFPage{}},
		{"pdf_page_info", d["pdf_page_info"], capture.PDFPageInfo{}},
		{"pdf_line", d["pdf_line"], capture.PDFLine{}},
		{"pdf_span", d["pdf_span"], capture.PDFSpan{}},
		{"pdf_tag", d["pdf_tag"], capture.PDFTag{}},
		{"pdf_rect", d["pdf_rect"], capture.PDFRect{}},
		{"pdf_link", d["pdf_link"], capture.PDFLink{}},
		{"pdf_annotation", d["pdf_annotation"], capture.PDFAnnotation{}},
		{"pdf_bookmark", d["pdf_bookmark"], capture.PDFBookmark{}},
		{"pdf_attachment", d["pdf_attachment"], capture.PDFAttachment{}},
		{"pdf_script", d["pdf_script"], capture.PDFScript{}},
		{"pdf_box", d["pdf_box"], capture.PDFBox{}},
		{"doc", d["doc"], normalize.Doc{}},
		{"scripts", d["scripts"], normalize.Scripts{}},
		{"security_facts", d["security_facts"], normalize.Security{}},
		{"meta_refresh", *d["security_facts"].Properties["meta_refresh"].Items, normalize.MetaRefresh{}},
		{"normalize_stats", d["normalize_stats"], normalize.Stats{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { compareFields(t, c.schema, reflect.TypeOf(c.typ)) })
	}
}

func TestManifestIsManifestKeys(t *testing.T) {
	got := keys(load(t, defs).Defs["manifest_body"].Properties)
	want := append([]string(nil), graph.ManifestKeys...)
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("manifest_body properties %v, graph.ManifestKeys %v", got, want)
	}
}

func TestEnumsMatchGoConstants(t *testing.T) {
	d := load(t, defs).Defs
	cases := []struct {
		name, file, prefix string
		enum               []string
	}{
		{"outcome status", "../graph/record.go", "Status", d["status"].Enum},
		{"block type", "../graph/record.go", "Type", d["block"].Properties["type"].Enum},
		{"hidden reason", "../normalize/record.go", "Hidden", d["hidden_reason"].Enum},
		{"capture error kind", "../capture/caprec/record.go", "Err", d["capture_error"].Properties["kind"].Enum},
	}
	for _, c := range cases {
		want := stringConsts(t, c.file, c.prefix)
		got := append([]string(nil), c.enum...)
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: schema enum %v, Go constants %s* %v", c.name, got, c.prefix, want)
		}
	}
	if got := d["latent"].Properties["trust"].Const; got != graph.TrustMarker {
		t.Errorf("latent trust const %q, graph.TrustMarker %q", got, graph.TrustMarker)
	}
	// The shipped schema accepts any 1.x; the producer variant pins the one
	// sieve writes (TestConsumerAcceptsUnknownFields).
	if p := d["schema_version"].Pattern; p == "" || !regexp.MustCompile(p).MatchString(record.SchemaVersion) {
		t.Errorf("schema_version pattern %q refuses record.SchemaVersion %s", p, record.SchemaVersion)
	}
}

// writtenNull are the fields a Go type leaves out (omitempty) that a
// rendered file writes as null instead: content.json gives every block a
// level (ARTIFACT.md), null where it does not apply (render.contentObject).
var writtenNull = map[string]bool{"graph.Block.level": true}

// compareFields checks the properties and required list of s against the
// JSON fields of struct type typ.
func compareFields(t *testing.T, s objSchema, typ reflect.Type) {
	t.Helper()
	if len(s.Properties) == 0 {
		t.Fatalf("schema for %s has no properties", typ)
	}
	var names, required []string
	for _, f := range jsonFields(typ) {
		name, omitempty := jsonName(f)
		names = append(names, name)
		if !omitempty {
			required = append(required, name)
		}
		prop, ok := s.Properties[name]
		if ok && f.Type.Kind() == reflect.Pointer && !omitempty && !nullable(prop) {
			t.Errorf("%s.%s is a pointer without omitempty, but %q is not nullable", typ, f.Name, name)
		}
		if ok && f.Type.Kind() != reflect.Pointer && nullable(prop) && !writtenNull[typ.String()+"."+name] {
			t.Errorf("%s.%s is no pointer, but %q is nullable", typ, f.Name, name)
		}
	}
	sort.Strings(names)
	sort.Strings(required)
	if got := keys(s.Properties); strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s: schema properties %v, Go fields %v", typ, got, names)
	}
	gotReq := append([]string(nil), s.Required...)
	sort.Strings(gotReq)
	if strings.Join(gotReq, ",") != strings.Join(required, ",") {
		t.Errorf("%s: schema required %v, Go fields without omitempty %v", typ, gotReq, required)
	}
}

// jsonFields lists typ's JSON fields, with the fields of embedded structs
// promoted as encoding/json does.
func jsonFields(typ reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		if f.Anonymous && f.Tag.Get("json") == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue // not encoded
		}
		out = append(out, f)
	}
	return out
}

func jsonName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	name, opts, _ := strings.Cut(tag, ",")
	if name == "" {
		name = f.Name
	}
	return name, strings.Contains(opts, "omitempty")
}

func nullable(s objSchema) bool {
	types, ok := s.Type.([]any)
	if !ok {
		return false
	}
	for _, ty := range types {
		if ty == "null" {
			return true
		}
	}
	return false
}

// merge unions the properties and required lists of schemas.
func merge(ss ...objSchema) objSchema {
	out := objSchema{Properties: map[string]objSchema{}}
	for _, s := range ss {
		for k, v := range s.Properties {
			out.Properties[k] = v
		}
		out.Required = append(out.Required, s.Required...)
	}
	return out
}

func keys(m map[string]objSchema) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stringConsts returns the values of the string constants in file whose
// names start with prefix, sorted.
func stringConsts(t *testing.T, file, prefix string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, prefix) || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}
