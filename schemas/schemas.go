// Package schemas holds the JSON Schemas (draft 2020-12) of every JSONL
// record kind sieve writes and of the artifact's manifest.json and
// content.json, embedded in the build, and validates documents against them.
//
// The artifact-format schemas ship open, as a consumer reads them
// (ValidateConsumer); Validate and ValidateRecord hold a document to what
// sieve writes, with those schemas closed again (strict.go).
//
// A schema is named by its file stem: "capture", "normalized", "graph",
// "artifact", "error" (records), "content", "manifest" (artifact files).
// defs.schema.json holds the definitions they share and is not a document
// schema of its own.
package schemas

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/sieve-dev/sieve/internal/record"
)

//go:embed *.json
var files embed.FS

// BaseURL is the prefix of every schema's $id; a schema file's $id is
// BaseURL + its file name.
const BaseURL = "https://github.com/sieve-dev/sieve/schemas/"

const (
	suffix = ".schema.json"
	defs   = "defs"
	// maxProblems caps how many violations one error message lists.
	maxProblems = 8
)

var (
	printer = message.NewPrinter(language.English)
	// producerSchemas and consumerSchemas compile every schema once.
	producerSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) { return compileAll(true) })
	consumerSchemas = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) { return compileAll(false) })
)

// Names returns the stems of the document schemas, sorted.
func Names() []string {
	entries, _ := fs.Glob(files, "*"+suffix)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if n := strings.TrimSuffix(e, suffix); n != defs {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// Validate checks doc (one JSON document) against the schema named name as
// its producer must write it: no member the schema does not name, and
// schema_version the one sieve writes. Every record and file a stage
// writes is held to this in the tests.
func Validate(name string, doc []byte) error {
	return validate(producerSchemas, name, doc)
}

// ValidateConsumer checks doc against the schema named name as shipped,
// the way a consumer reads an artifact: members it does not recognise are
// ignored and any 1.x schema_version is accepted (ARTIFACT.md
// "Compatibility"). The EEF schemas are the same either way.
func ValidateConsumer(name string, doc []byte) error {
	return validate(consumerSchemas, name, doc)
}

func validate(compile func() (map[string]*jsonschema.Schema, error), name string, doc []byte) error {
	all, err := compile()
	if err != nil {
		return err
	}
	sch, ok := all[name]
	if !ok {
		return fmt.Errorf("schemas: no schema named %q (have %s)", name, strings.Join(Names(), ", "))
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return fmt.Errorf("%s: not a JSON document: %w", name, err)
	}
	if err := sch.Validate(inst); err != nil {
		return describe(name, err)
	}
	return nil
}

// ValidateRecord checks one JSONL line against the schema its "record" value
// names: capture, normalized, graph, artifact or error.
func ValidateRecord(line []byte) error {
	kind := record.Kind(line)
	switch kind {
	case record.KindCapture, record.KindNormalized, record.KindGraph, record.KindArtifact, record.KindError:
		return Validate(kind, line)
	case record.KindCheck:
		return Validate("ethos-check-line", line)
	case record.KindAnchor:
		return Validate("ethos-anchor-line", line)
	case "":
		return errors.New("schemas: the line has no \"record\" kind")
	}
	return fmt.Errorf("schemas: unknown record kind %q", kind)
}

// compileAll compiles every schema, the artifact-format ones closed for
// their producer when producer is set.
func compileAll(producer bool) (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	docs, err := loadAll()
	if err != nil {
		return nil, err
	}
	if producer {
		format := map[string]any{}
		for file, doc := range docs {
			if isArtifactFormat(file) {
				format[file] = doc
			}
		}
		closeForProducer(format)
	}
	for file, doc := range docs {
		if err := c.AddResource(BaseURL+file, doc); err != nil {
			return nil, err
		}
	}
	out := map[string]*jsonschema.Schema{}
	for _, n := range Names() {
		sch, err := c.Compile(BaseURL + n + suffix)
		if err != nil {
			return nil, fmt.Errorf("schemas: compile %s: %w", n, err)
		}
		out[n] = sch
	}
	for n, ref := range lineSchemas {
		sch, err := c.Compile(BaseURL + ref)
		if err != nil {
			return nil, fmt.Errorf("schemas: compile %s: %w", n, err)
		}
		out[n] = sch
	}
	return out, nil
}

// lineSchemas are the schemas of the lines sieve-verify and sieve-anchor
// write, kept in the EEF report schemas as $defs; Validate accepts their
// names too.
var lineSchemas = map[string]string{
	"ethos-check-line":  "ethos-verification-report.schema.json#/$defs/check_record",
	"ethos-anchor-line": "ethos-evidence-anchor-report.schema.json#/$defs/anchor_record",
}

// loadAll parses every schema file, keyed by file name.
func loadAll() (map[string]any, error) {
	entries, err := fs.Glob(files, "*"+suffix)
	if err != nil {
		return nil, err
	}
	docs := map[string]any{}
	for _, file := range entries {
		b, err := files.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if docs[file], err = jsonschema.UnmarshalJSON(bytes.NewReader(b)); err != nil {
			return nil, fmt.Errorf("schemas: %s: %w", file, err)
		}
	}
	return docs, nil
}

// describe turns a validation error into one line naming each violated
// constraint with the JSON pointer of the value that broke it.
func describe(name string, err error) error {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%s: %w", name, err)
	}
	var real, unevaluated []string
	leaves(ve, &real, &unevaluated)
	// A failing $ref leaves its properties unevaluated, so
	// unevaluatedProperties then flags every one of them: noise, unless
	// nothing else failed.
	problems := real
	if len(problems) == 0 {
		problems = unevaluated
	}
	sort.Strings(problems)
	if n := len(problems); n > maxProblems {
		problems = append(problems[:maxProblems], fmt.Sprintf("and %d more", n-maxProblems))
	}
	return fmt.Errorf("%s: does not match %s%s: %s", name, name, suffix, strings.Join(problems, "; "))
}

// leaves collects the violations at the leaves of e's tree.
func leaves(e *jsonschema.ValidationError, real, unevaluated *[]string) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			leaves(c, real, unevaluated)
		}
		return
	}
	at := fmt.Sprintf("at %q: ", "/"+strings.Join(e.InstanceLocation, "/"))
	if _, ok := e.ErrorKind.(*kind.FalseSchema); ok {
		*unevaluated = append(*unevaluated, at+"property not allowed here")
		return
	}
	*real = append(*real, at+e.ErrorKind.LocalizedString(printer))
}
